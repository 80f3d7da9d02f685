// Checked arithmetic on simulated time: sums and products stay below 2^63 ps (about 106 days) or fail naming the input.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "gpusched/support/input_error.h"
#include "gpusched/support/time.h"

namespace gpusched {

/// Every simulated time and duration is below kTimeLimit = 2^63 ps (106 days 17 hours): the
/// range of a signed 64-bit count of picoseconds. Inputs are bounded where they are read
/// (parse_duration), and every sum or product of them that the simulation forms is checked
/// here: one that would reach the limit is an InputError naming the input, never a wrapped
/// or saturated time.
constexpr Time kTimeLimit = Time{1} << 63;

/// The limit in words, for messages: "2^63 ps (about 106 days)".
std::string time_limit_text();

/// An InputError about a time computed from the input that reaches kTimeLimit.
class TimeRangeError : public InputError {
public:
    using InputError::InputError;
};

/// a + b when it stays below kTimeLimit (no wrap, whatever the operands).
[[nodiscard]] constexpr std::optional<Time> time_sum(Time a, Time b) {
    Time sum = 0;
    if (__builtin_add_overflow(a, b, &sum) || sum >= kTimeLimit) return std::nullopt;
    return sum;
}

/// a x n when it stays below kTimeLimit.
[[nodiscard]] constexpr std::optional<Time> time_product(Time a, std::uint64_t n) {
    Time product = 0;
    if (__builtin_mul_overflow(a, n, &product) || product >= kTimeLimit) return std::nullopt;
    return product;
}

/// Picoseconds held in a double (a rate times an amount), rounded to nearest, when finite,
/// non-negative and below kTimeLimit.
[[nodiscard]] std::optional<Time> time_from_ps(double ps);

/// TimeRangeError "WHAT: START ns + DURATION ns passes 2^63 ps (about 106 days), the range
/// of simulated time" (what the sum a + b of time_sum was).
[[noreturn]] void throw_time_sum_overflow(const std::string& what, Time a, Time b);
/// TimeRangeError "WHAT: N x DURATION ns passes 2^63 ps ...".
[[noreturn]] void throw_time_product_overflow(const std::string& what, Time a, std::uint64_t n);
/// TimeRangeError "WHAT: DETAIL passes 2^63 ps ...".
[[noreturn]] void throw_time_overflow(const std::string& what, const std::string& detail);

/// a + b, or TimeRangeError naming `what()` (a callable, called only on failure, so that
/// hot paths build no string).
template <class What>
[[gnu::always_inline]] inline Time checked_time_sum(Time a, Time b, What&& what) {
    const std::optional<Time> sum = time_sum(a, b);
    if (!sum) [[unlikely]]
        throw_time_sum_overflow(what(), a, b);
    return *sum;
}

/// a x n, or TimeRangeError naming `what()`.
template <class What>
Time checked_time_product(Time a, std::uint64_t n, What&& what) {
    const std::optional<Time> product = time_product(a, n);
    if (!product) throw_time_product_overflow(what(), a, n);
    return *product;
}

}  // namespace gpusched

// SpecArgs: the key=value pairs of one kernel spec, with typed strict getters and located errors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/support/time.h"
#include "gpusched/workloads/kernel_launch.h"
#include "gpusched/workloads/kernel_spec_value.h"

namespace gpusched::workloads {

/// The keys of one kernel spec, whether written on one line (`NAME:key=value,...`) or as a
/// workload-file mapping. Getters check type and range and throw InputError
/// "WHERE: key 'PATH': expected ..., got '...'", so both forms give the same messages.
class SpecArgs {
public:
    /// `where`: the spec's location; `path`: prefix for key names in messages
    /// ("" on the command line, "launches[2]" in a workload file). Rejects duplicate keys.
    SpecArgs(std::string kernel, std::string where, std::string path, std::vector<SpecEntry> entries);
    /// The keys of a parsed or edited spec, at its location.
    explicit SpecArgs(const KernelSpec& spec, std::string path = "");

    [[nodiscard]] const std::string& kernel() const { return kernel_; }
    [[nodiscard]] const std::string& where() const { return where_; }
    [[nodiscard]] const std::vector<SpecEntry>& entries() const { return entries_; }
    [[nodiscard]] bool has(const std::string& key) const;
    /// The key as named in messages, e.g. "launches[2].blocks".
    [[nodiscard]] std::string key_path(const std::string& key) const;
    /// The location of `key` (its own line in a file), or the spec's location.
    [[nodiscard]] std::string where(const std::string& key) const;

    /// The raw text of a required key.
    std::string text(const std::string& key);
    std::optional<std::string> optional_text(const std::string& key);
    std::int64_t integer(const std::string& key, std::int64_t min, std::int64_t max);
    std::optional<std::int64_t> optional_integer(const std::string& key, std::int64_t min, std::int64_t max);
    /// "XxYxZ", "XxY" or "X"; each factor in [1, max_each], the product in [1, max_product].
    Dim3 dims(const std::string& key, std::uint64_t max_each, std::uint64_t max_product);
    /// A label for outputs: 1-64 characters from letters, digits and -_.+/#:()[].
    std::string label(const std::string& key);

    /// Throws for the first key not in `allowed`, listing the allowed keys.
    void reject_unknown(const std::vector<std::string>& allowed) const;
    /// Throws if both keys are given (alternative spellings of one setting).
    void reject_both(const std::string& a, const std::string& b) const;

    /// "WHERE: key 'PATH': what" at the key's location.
    [[noreturn]] void fail(const std::string& key, const std::string& what) const;
    /// "WHERE: kernel 'NAME': what" at the spec's location (for missing keys and cross-key checks).
    [[noreturn]] void fail_spec(const std::string& what) const;

private:
    [[nodiscard]] const SpecEntry* find(const std::string& key) const;

    std::string kernel_;
    std::string where_;
    std::string path_;
    std::vector<SpecEntry> entries_;
};

}  // namespace gpusched::workloads

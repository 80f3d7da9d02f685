// Helpers for kernel-spec tests: parse a one-line spec, and expect an InputError message.
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/kernel_spec.h"

namespace gpusched::test {

inline workloads::KernelLaunch spec(const std::string& text) { return workloads::parse_kernel_spec(text, "--kernel"); }

inline void check_error(const std::string& text, const std::string& message) {
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(spec(text), message.c_str(), InputError);
}

inline void check_error_contains(const std::string& text, const std::string& part) {
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(spec(text), doctest::Contains(part.c_str()), InputError);
}

}  // namespace gpusched::test

// Decimal-number keys of a kernel spec (probabilities, instruction counts), strict and range-checked.
#pragma once

#include <optional>
#include <string>

#include "gpusched/support/time.h"

#include "gpusched/workloads/spec_args.h"

namespace gpusched::workloads {

/// The value of `key` as a finite decimal number in [min, max] ("0.5", "4", "1e3"), or `fallback`
/// when the key is not given. Throws InputError "WHERE: key 'PATH': expected a number in
/// [MIN, MAX], got '...'" otherwise.
double spec_number(SpecArgs& args, const std::string& key, double min, double max, double fallback);

/// issue_slots x ns_per_instr nanoseconds, in picoseconds rounded to nearest: the `fixed`
/// execution model's stand-in duration for work counted in instructions; nullopt at or above
/// 2^63 ps (the largest duration gpusched accepts).
std::optional<Time> instruction_time(double issue_slots, double ns_per_instr);

/// A number for messages and descriptions: whole numbers in full ("4", "1000000"), others as %g ("0.5").
std::string format_spec_number(double value);

}  // namespace gpusched::workloads

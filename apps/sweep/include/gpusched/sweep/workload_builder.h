// Workload builder: a study workload's kernel specs or workload file, with the point's parameters filled in.
#pragma once

#include <string>
#include <vector>

#include "gpusched/sweep/study.h"
#include "gpusched/workloads/application.h"

namespace gpusched::sweep {

/// The ${NAME} placeholders in text, in order of first appearance, without repeats.
std::vector<std::string> placeholders(const std::string& text);

/// Empty when every "${" in text opens a placeholder ${NAME} (NAME of letters, digits and '_');
/// else the first broken one as "line L: '${...'" (up to 24 characters of it), so that a typo such
/// as "${b,threads=64" is reported where it is instead of as an unknown parameter. With
/// `yaml_comments`, text from a '#' at the start of a line or after a blank to the line's end is
/// a comment and not checked.
std::string broken_placeholder(const std::string& text, bool yaml_comments = false);

/// The keys a one-line spec's kernel accepts (generic keys and its generator's); empty when
/// the spec names no known generator.
std::vector<std::string> spec_keys(const std::string& spec);

/// Whether parameter `name` feeds workload `w`: a ${name} placeholder in it, or a key of its
/// kernel when it is one spec.
bool feeds_workload(const WorkloadDef& w, const std::string& name);

/// The application of workload `w` at a point. `values` holds each parameter's value by
/// index into `params` (empty: not set). Placeholders take their parameter's value; for a
/// one-spec workload, a workload_key parameter named like a key of its kernel sets that key
/// (replacing the spec's own). InputError when a placeholder has no value or the result does
/// not parse (the kernel spec or workload-file message, located at "workload 'NAME'").
workloads::Application build_workload(const WorkloadDef& w, const std::vector<Parameter>& params,
                                      const std::vector<std::string>& values);

}  // namespace gpusched::sweep

// Messages for an unknown flag, command or subcommand, with the nearest known name suggested.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace gpusched::cli {

/// After CLI11 refused arguments nobody took (CLI::ExtrasError): one line per unknown flag, naming
/// the command and the nearest flag it has, e.g. "gpusched simulate: unknown flag --gridd (did you
/// mean --grid?)". nullopt when every refused argument is a value, not a flag (CLI11's message stands).
std::optional<std::string> unknown_flag_message(const CLI::App& app);

/// " (did you mean NAME?)" for the name of `known` nearest `given`, or "" when none is near.
std::string did_you_mean(const std::string& given, const std::vector<std::string>& known);

}  // namespace gpusched::cli

// Messages for an unknown flag, command or subcommand, with the nearest known name suggested.
#include "unknown_names.h"

#include "gpusched/support/nearest_name.h"

namespace gpusched::cli {

namespace {

/// The deepest command the parse reached: `gpusched calibrate key ...` gives the `key` App.
const CLI::App* deepest_parsed(const CLI::App& app) {
    const CLI::App* command = &app;
    for (auto subs = command->get_subcommands(); !subs.empty(); subs = command->get_subcommands()) command = subs.front();
    return command;
}

/// "gpusched calibrate key": the command path as a user types it.
std::string command_path(const CLI::App* command) {
    std::string path;
    for (; command != nullptr; command = command->get_parent())
        path = command->get_name() + (path.empty() ? "" : " ") + path;
    return path;
}

/// Every flag `command` accepts, as typed: --long and -s names.
std::vector<std::string> flag_names(const CLI::App* command) {
    std::vector<std::string> names;
    for (const CLI::Option* option : command->get_options()) {
        for (const auto& name : option->get_lnames()) names.push_back("--" + name);
        for (const auto& name : option->get_snames()) names.push_back("-" + name);
    }
    return names;
}

bool looks_like_flag(const std::string& arg) {
    if (arg.size() < 2 || arg[0] != '-') return false;
    const char c = arg[1];
    return !(c >= '0' && c <= '9') && c != '.';  // -4 and -.5 are values
}

}  // namespace

std::string did_you_mean(const std::string& given, const std::vector<std::string>& known) {
    const auto near = nearest_name(given, known);
    return near ? " (did you mean " + *near + "?)" : "";
}

std::optional<std::string> unknown_flag_message(const CLI::App& app) {
    const CLI::App* command = deepest_parsed(app);
    const std::vector<std::string> known = flag_names(command);
    std::string message;
    for (const std::string& arg : app.remaining(true)) {
        if (!looks_like_flag(arg)) continue;
        const std::string flag = arg.substr(0, arg.find('='));
        const std::string hint = did_you_mean(flag, known);
        message += (message.empty() ? "" : "\n") + command_path(command) + ": unknown flag " + flag +
                   (hint.empty() ? " (run " + command_path(command) + " --help for its flags)" : hint);
    }
    if (message.empty()) return std::nullopt;
    return message;
}

}  // namespace gpusched::cli

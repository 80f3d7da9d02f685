// gpusched command line: parses the subcommand and maps errors to exit codes (0 ok, 2 bad input, 1 internal).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "commands.h"
#include "pending_outputs.h"
#include "run_progress.h"
#include "unknown_names.h"
#include "gpusched/support/input_error.h"

namespace {

/// Standard output is checked once, at exit: output that could not be written (a full disk,
/// /dev/full, a closed pipe while SIGPIPE is ignored) is an error with a message and exit
/// code 2, never a silent success. With SIGPIPE at its default a closed pipe ends the process
/// as it ends other Unix tools.
int checked_exit(int code) {
    errno = 0;
    std::cout.flush();
    const bool failed = std::cout.fail() || std::fflush(stdout) != 0 || std::ferror(stdout) != 0;
    if (!failed) return code;
    const int error = errno;
    std::cerr << "gpusched: cannot write to standard output" << (error != 0 ? std::string(": ") + std::strerror(error) : "")
              << "\n";
    return code == 0 ? 2 : code;
}

int run(int argc, char** argv) {
    CLI::App app{"gpusched " GPUSCHED_VERSION
                 " - discrete-event simulator of GPU thread-block scheduling.\n"
                 "Docs: README.md and docs/ in the source tree.",
                 "gpusched"};
    app.set_version_flag("--version", "gpusched " GPUSCHED_VERSION);
    app.footer("Examples (gpusched COMMAND --help has more):\n"
               "  gpusched simulate --gpu h100 --kernel apsp-minplus:n=1000,block=16,regs=32\n"
               "  gpusched occupancy --gpu c2075 --threads 64\n"
               "  gpusched list gpus");
    app.require_subcommand(1);
    gpusched::cli::add_simulate_command(app);
    gpusched::cli::add_predict_command(app);
    gpusched::cli::add_curve_command(app);
    gpusched::cli::add_calibrate_command(app);
    gpusched::cli::add_tune_command(app);
    gpusched::cli::add_sweep_commands(app);
    gpusched::cli::add_plot_command(app);
    gpusched::cli::add_validate_command(app);
    gpusched::cli::add_import_command(app);
    gpusched::cli::add_gpu_commands(app);
    gpusched::cli::add_occupancy_command(app);
    gpusched::cli::add_lab_command(app);
    if (argc > 1 && argv[1][0] == '-') {
        const std::string first = argv[1];
        if (first != "-h" && first != "--help" && first != "--version") {
            std::cerr << "gpusched: unknown option '" << first << "' before the command (run gpusched --help)\n";
            return 2;
        }
    }
    if (argc > 1 && argv[1][0] != '-') {
        bool known = false;
        std::string names;
        std::vector<std::string> commands;
        for (const auto* sub : app.get_subcommands({})) {
            known = known || sub->get_name() == argv[1];
            names += (names.empty() ? "" : ", ") + sub->get_name();
            commands.push_back(sub->get_name());
        }
        if (!known) {
            std::cerr << "gpusched: unknown command '" << argv[1] << "'" << gpusched::cli::did_you_mean(argv[1], commands)
                      << " (commands: " << names << ")\n";
            return 2;
        }
        // A command made of subcommands (list, show, calibrate): its second word must be one of them.
        const CLI::App* command = app.get_subcommand(argv[1]);
        const auto subs = command->get_subcommands({});
        if (argc > 2 && argv[2][0] != '-' && !subs.empty()) {
            bool known_sub = false;
            std::string sub_names;
            std::vector<std::string> sub_list;
            for (const auto* sub : subs) {
                known_sub = known_sub || sub->get_name() == argv[2];
                sub_names += (sub_names.empty() ? "" : ", ") + sub->get_name();
                sub_list.push_back(sub->get_name());
            }
            if (!known_sub) {
                std::cerr << "gpusched " << argv[1] << ": unknown subcommand '" << argv[2] << "'"
                          << gpusched::cli::did_you_mean(argv[2], sub_list) << " (expected " << sub_names << ")\n";
                return 2;
            }
        }
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        // A misspelt flag explains the rest (a "required" flag missing is often that one, misspelt).
        const auto unknown = gpusched::cli::unknown_flag_message(app);
        std::cerr << (unknown ? *unknown : "gpusched: " + std::string(e.what()) + "\n(run with --help for usage)") << "\n";
        return 2;
    } catch (const gpusched::InputError& e) {
        std::cerr << "gpusched: " << e.what() << "\n";
        return 2;
    } catch (const gpusched::cli::Interrupted& e) {
        std::cerr << "gpusched: " << e.what() << "; no output file written (files are put in place only by a "
                     "complete run)\n";
        return 130;
    } catch (const std::exception& e) {
        std::cerr << "gpusched: internal error: " << e.what() << "\n";
        return 1;
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    gpusched::cli::install_interrupt_cleanup();
    return checked_exit(run(argc, argv));
}

// Registration of the gpusched subcommands on the CLI11 application (one function per command file).
#pragma once

#include <CLI/CLI.hpp>

namespace gpusched::cli {

/// `gpusched list gpus` and `gpusched show gpu NAME`.
void add_gpu_commands(CLI::App& app);
/// `gpusched occupancy ...`.
void add_occupancy_command(CLI::App& app);

}  // namespace gpusched::cli

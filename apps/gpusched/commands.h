// Registration of the gpusched subcommands on the CLI11 application (one function per command file).
#pragma once

#include <CLI/CLI.hpp>

namespace gpusched::cli {

/// `gpusched calibrate series|interval ...`.
void add_calibrate_command(CLI::App& app);
/// `gpusched curve ...`.
void add_curve_command(CLI::App& app);
/// `gpusched list gpus` and `gpusched show gpu NAME`.
void add_gpu_commands(CLI::App& app);
/// `gpusched import torch|cupti|ncu ...`.
void add_import_command(CLI::App& app);
/// `gpusched show work SPEC --gpu G` (added to the existing `show`).
void add_show_work_command(CLI::App& show);
/// `gpusched lab --out DIR`.
void add_lab_command(CLI::App& app);
/// `gpusched occupancy ...`.
void add_occupancy_command(CLI::App& app);
/// `gpusched predict --model interval ...`.
void add_predict_command(CLI::App& app);
/// `gpusched validate DATA_DIR ...`.
void add_validate_command(CLI::App& app);
/// `gpusched sweep STUDY.yaml ...` and `gpusched merge PARTS... --out FILE`.
void add_sweep_commands(CLI::App& app);
/// `gpusched plot RESULTS.csv ...`.
void add_plot_command(CLI::App& app);
/// `gpusched tune --kernel SPEC --param KEY=V,...`.
void add_tune_command(CLI::App& app);
/// `gpusched simulate ...`.
void add_simulate_command(CLI::App& app);
/// `gpusched list policies` and `gpusched list workloads` (added to the existing `list`).
void add_registry_lists(CLI::App& list);

}  // namespace gpusched::cli

// `gpusched list gpus` (table of presets) and `gpusched show gpu NAME|FILE` (one spec as YAML).
#include <iostream>
#include <memory>

#include "commands.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/presets.h"
#include "gpusched/support/key_error.h"
#include "table.h"

namespace gpusched::cli {

namespace {

std::string optional_fixed(const std::optional<double>& v, int digits) { return v ? fixed(*v, digits) : "-"; }

void list_gpus() {
    TextTable table({"name", "gpu", "cc", "SMs", "threads/SM", "blocks/SM", "regs/SM", "smem/SM KiB",
                     "clock MHz", "DRAM GB/s"},
                    {false, false, false, true, true, true, true, true, true, true});
    for (const auto& name : hw::preset_names()) {
        const hw::GpuSpec s = hw::resolve_gpu(name);
        table.add_row({s.name, s.full_name, s.compute_capability(), std::to_string(s.sm_count),
                       std::to_string(s.max_threads_per_sm), std::to_string(s.max_blocks_per_sm),
                       std::to_string(s.registers_per_sm), std::to_string(s.shared_memory_per_sm / 1024),
                       optional_fixed(s.clock_mhz, 0), optional_fixed(s.dram_bandwidth_gbps, 0)});
    }
    table.print(std::cout);
    std::cout << "\n'-' = unknown (left out of the preset, not invented). Details: gpusched show gpu NAME\n";
}

}  // namespace

void add_gpu_commands(CLI::App& app) {
    auto* list = app.add_subcommand("list", "List built-in presets and registries");
    list->require_subcommand(1);
    list->footer("Examples:\n"
                 "  gpusched list gpus\n"
                 "  gpusched list policies\n"
                 "  gpusched list workloads");
    list->add_subcommand("gpus", "Table of the built-in GPU presets")
        ->callback(list_gpus)
        ->footer("Examples:\n  gpusched list gpus\n  gpusched show gpu h100");
    add_registry_lists(*list);

    auto* show = app.add_subcommand("show", "Print one built-in item in full");
    show->require_subcommand(1);
    show->footer("Examples:\n"
                 "  gpusched show gpu h100\n"
                 "  gpusched show work binomial-series:blocks=132,threads=128 --gpu h100");
    auto* gpu = show->add_subcommand("gpu", "Print a GPU spec as YAML (a preset name or a YAML file)");
    auto name = std::make_shared<std::string>();
    gpu->footer("Examples:\n"
                "  gpusched show gpu c2075\n"
                "  gpusched show gpu examples/half-h100.yaml");
    gpu->add_option("NAME", *name, "Preset name (see `gpusched list gpus`) or path to a GPU YAML file")
        ->required();
    gpu->callback([name] {  // NAME is positional: an unknown one is named in the message itself
        std::cout << hw::to_yaml(naming_keys({{"gpu", ""}}, [&] { return hw::resolve_gpu(*name); }));
    });
    add_show_work_command(*show);
}

}  // namespace gpusched::cli

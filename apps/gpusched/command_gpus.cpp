// `gpusched list gpus` (table of presets) and `gpusched show gpu NAME|FILE` (one spec as YAML, its roofline in comments).
#include <iostream>
#include <memory>

#include "commands.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/presets.h"
#include "gpusched/hw/roofline.h"
#include "gpusched/support/key_error.h"
#include "table.h"

namespace gpusched::cli {

namespace {

std::string optional_fixed(const std::optional<double>& v, int digits) { return v ? fixed(*v, digits) : "-"; }

std::optional<double> tflops(const hw::GpuSpec& s, std::string_view dtype) {
    const auto peak = hw::peak_flops(s, dtype);
    return peak ? std::optional<double>(*peak / 1e12) : std::nullopt;
}

/// "1070.3 bf16": the headline tensor peak (bf16, else fp16) and its dtype; "-" without tensor cores.
std::string tensor_cell(const hw::GpuSpec& s) {
    const auto dtype = hw::headline_tensor_dtype(s);
    const auto peak = dtype ? tflops(s, *dtype) : std::nullopt;
    return peak ? fixed(*peak, 1) + " " + *dtype : "-";
}

void list_gpus() {
    TextTable table({"name", "gpu", "cc", "SMs", "threads/SM", "blocks/SM", "regs/SM", "smem/SM KiB", "clock MHz",
                     "DRAM GB/s", "FP32 TFLOPS", "tensor TFLOPS", "rules"},
                    {false, false, false, true, true, true, true, true, true, true, true, false, true});
    for (const auto& name : hw::preset_names()) {
        const hw::GpuSpec s = hw::resolve_gpu(name);
        table.add_row({s.name, s.full_name, s.compute_capability(), std::to_string(s.sm_count),
                       std::to_string(s.max_threads_per_sm), std::to_string(s.max_blocks_per_sm),
                       std::to_string(s.registers_per_sm), std::to_string(s.shared_memory_per_sm / 1024),
                       optional_fixed(s.clock_mhz, 0), optional_fixed(s.dram_bandwidth_gbps, 0),
                       optional_fixed(tflops(s, "fp32"), 1), tensor_cell(s), std::to_string(s.rules.size())});
    }
    table.print(std::cout);
    std::cout << "\n'-' = unknown (left out of the preset, not invented). DRAM: memory.dram_bandwidth_gbps, the sustained\n"
                 "bandwidth (measured on h100 and h200, 0.885 x the datasheet peak by rule R18 where listed under rules;\n"
                 "older presets still give their datasheet peak). TFLOPS: dense peaks, FLOPs per SM per cycle x SMs x clock\n"
                 "(tensor: bf16, else fp16). rules: keys whose value rests on a rule, not data. Details: gpusched show gpu NAME\n";
}

/// YAML comments after the spec: the GPU-wide peaks its roofline keys give and the keys that rest on rules.
void print_roofline(std::ostream& out, const hw::GpuSpec& s) {
    out << "# Roofline (hw/roofline.h): GPU-wide peak = FLOPs per SM per cycle x " << s.sm_count << " SMs x "
        << optional_fixed(s.clock_mhz, 0) << " MHz\n";
    out << "#   fp32 " << optional_fixed(tflops(s, "fp32"), 1) << " TFLOPS";
    std::string tensor;
    for (const auto dtype : hw::tensor_dtypes())
        if (const auto peak = tflops(s, dtype)) tensor += (tensor.empty() ? "" : ", ") + std::string(dtype) + " " + fixed(*peak, 1);
    out << "; tensor (dense) " << (tensor.empty() ? "none" : tensor + " TFLOPS (int8: TOPS)") << "\n";
    out << "#   DRAM " << optional_fixed(s.dram_bandwidth_gbps, 0) << " GB/s sustained, L2 " << optional_fixed(s.l2_bandwidth_gbps, 0)
        << " GB/s";
    const auto dtype = hw::headline_tensor_dtype(s);
    const auto peak = dtype ? hw::peak_flops(s, *dtype) : hw::peak_flops(s, "fp32");
    if (peak && s.dram_bandwidth_gbps)
        out << "; ridge point " << (dtype ? *dtype : std::string("fp32")) << " / DRAM "
            << fixed(*peak / (*s.dram_bandwidth_gbps * 1e9), 0) << " FLOPs per byte";
    out << "\n# " << s.rules.size() << " keys rest on a rule, not data (listed under rules:)\n";
}

}  // namespace

void add_gpu_commands(CLI::App& app) {
    auto* list = app.add_subcommand("list", "List built-in presets and registries");
    list->require_subcommand(1);
    list->footer("Examples:\n"
                 "  gpusched list gpus\n"
                 "  gpusched list policies\n"
                 "  gpusched list workloads");
    list->add_subcommand("gpus", "Table of the built-in GPU presets: limits, clock, sustained DRAM bandwidth, peak FP32 and "
                                 "tensor TFLOPS, keys resting on rules")
        ->callback(list_gpus)
        ->footer("Examples:\n  gpusched list gpus\n  gpusched show gpu h100\n  gpusched show gpu l40s");
    add_registry_lists(*list);

    auto* show = app.add_subcommand("show", "Print one built-in item in full");
    show->require_subcommand(1);
    show->footer("Examples:\n"
                 "  gpusched show gpu h100\n"
                 "  gpusched show work binomial-series:blocks=132,threads=128 --gpu h100");
    auto* gpu = show->add_subcommand("gpu", "Print a GPU spec as YAML (a preset name or a YAML file), its roofline peaks and "
                                            "rule count in comments");
    auto name = std::make_shared<std::string>();
    gpu->footer("Examples:\n"
                "  gpusched show gpu c2075\n"
                "  gpusched show gpu b200\n"
                "  gpusched show gpu examples/half-h100.yaml");
    gpu->add_option("NAME", *name, "Preset name (see `gpusched list gpus`) or path to a GPU YAML file")
        ->required();
    gpu->callback([name] {  // NAME is positional: an unknown one is named in the message itself
        const hw::GpuSpec spec = naming_keys({{"gpu", ""}}, [&] { return hw::resolve_gpu(*name); });
        std::cout << hw::to_yaml(spec);
        print_roofline(std::cout, spec);
    });
    add_show_work_command(*show);
}

}  // namespace gpusched::cli

// The roofline keys of a GPU spec (FP32 and tensor-core FLOPs per SM per cycle), their peaks, and device names.
#include "gpusched/hw/roofline.h"

#include <algorithm>
#include <charconv>
#include <set>

#include "roofline_io.h"
#include "yaml_quoted.h"
#include "gpusched/support/input_error.h"

namespace gpusched::hw {

namespace {

constexpr double kMinFlops = 1e-3;
constexpr double kMaxFlops = 1e7;  // per SM per cycle: far beyond any GPU, catches unit mix-ups (TFLOPS)
constexpr std::string_view kTensorKey = "tensor_flops_per_sm_cycle";
constexpr std::string_view kEfficiencyKey = "library_efficiency";

}  // namespace

std::string number_text(double v) {
    char buf[64];
    auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
    (void)ec;
    return std::string(buf, ptr);
}

const std::vector<std::string_view>& tensor_dtypes() {
    static const std::vector<std::string_view> dtypes = {"fp64", "tf32", "fp16", "bf16", "fp8", "int8"};
    return dtypes;
}

std::optional<double> tensor_flops_per_sm_cycle(const GpuSpec& gpu, std::string_view dtype) {
    const auto it = gpu.tensor_flops_per_sm_cycle.find(std::string(dtype));
    if (it == gpu.tensor_flops_per_sm_cycle.end()) return std::nullopt;
    return it->second;
}

const std::vector<std::string_view>& efficiency_families() {
    static const std::vector<std::string_view> families = {"gemm", "conv", "attention"};
    return families;
}

std::optional<double> library_efficiency(const GpuSpec& gpu, std::string_view family) {
    const auto it = gpu.library_efficiency.find(std::string(family));
    if (it == gpu.library_efficiency.end()) return std::nullopt;
    return it->second;
}

std::optional<double> peak_flops(const GpuSpec& gpu, std::string_view dtype) {
    const std::optional<double> per_sm =
        dtype == "fp32" ? gpu.fma_flops_per_sm_cycle : tensor_flops_per_sm_cycle(gpu, dtype);
    if (!per_sm || !gpu.clock_mhz) return std::nullopt;
    return *per_sm * gpu.sm_count * *gpu.clock_mhz * 1e6;
}

std::optional<std::string> headline_tensor_dtype(const GpuSpec& gpu) {
    for (const char* dtype : {"bf16", "fp16"})
        if (gpu.tensor_flops_per_sm_cycle.contains(dtype)) return std::string(dtype);
    return std::nullopt;
}

void parse_roofline(YamlFields& f, GpuSpec& spec) {
    spec.fma_flops_per_sm_cycle = f.optional_number("fma_flops_per_sm_cycle", kMinFlops, kMaxFlops);
    if (const auto node = f.optional_child(std::string(kTensorKey))) {
        if (!node->IsMap())
            f.fail(std::string(kTensorKey), "expected a mapping DTYPE: FLOPS per SM per cycle, e.g. {bf16: 4096}");
        YamlFields tensor(*node, f.source(), f.key_path(std::string(kTensorKey)));
        for (const auto dtype : tensor_dtypes())
            if (auto v = tensor.optional_number(std::string(dtype), kMinFlops, kMaxFlops))
                spec.tensor_flops_per_sm_cycle[std::string(dtype)] = *v;
        tensor.finish();  // an unknown dtype names its key and lists the known ones
    }
    const auto efficiency = f.optional_child(std::string(kEfficiencyKey));
    if (!efficiency) return;
    if (!efficiency->IsMap())
        f.fail(std::string(kEfficiencyKey), "expected a mapping FAMILY: fraction of the peak, e.g. {gemm: 0.65}");
    YamlFields per_family(*efficiency, f.source(), f.key_path(std::string(kEfficiencyKey)));
    for (const auto family : efficiency_families())
        if (auto v = per_family.optional_number(std::string(family), 1e-3, 1.0)) spec.library_efficiency[std::string(family)] = *v;
    per_family.finish();  // an unknown family names its key and lists the known ones
}

void write_roofline(std::ostream& y, const GpuSpec& spec) {
    if (spec.fma_flops_per_sm_cycle) y << "  fma_flops_per_sm_cycle: " << number_text(*spec.fma_flops_per_sm_cycle) << "\n";
    if (!spec.tensor_flops_per_sm_cycle.empty()) {
        y << "  " << kTensorKey << ":\n";
        for (const auto dtype : tensor_dtypes())
            if (auto v = tensor_flops_per_sm_cycle(spec, dtype)) y << "    " << dtype << ": " << number_text(*v) << "\n";
    }
    if (spec.library_efficiency.empty()) return;
    y << "  " << kEfficiencyKey << ":\n";
    for (const auto family : efficiency_families())
        if (auto v = library_efficiency(spec, family)) y << "    " << family << ": " << number_text(*v) << "\n";
}

void parse_device_names(YamlFields& top, GpuSpec& spec) {
    const auto node = top.optional_child("device_names");
    if (!node) return;
    if (!node->IsSequence())
        top.fail("device_names", "expected a list of device names, e.g. [\"NVIDIA H100 80GB HBM3\"]");
    std::set<std::string> seen;
    for (std::size_t i = 0; i < node->size(); ++i) {
        const YAML::Node item = (*node)[i];
        const std::string where = yaml_location(item, top.source()) + ": key '" + top.key_path("device_names") + "[" +
                                  std::to_string(i) + "]': ";
        if (!item.IsScalar() || item.Scalar().empty()) throw InputError(where + "expected a non-empty device name");
        if (!seen.insert(item.Scalar()).second) throw InputError(where + "'" + item.Scalar() + "' is listed twice");
        spec.device_names.push_back(item.Scalar());
    }
}

void write_device_names(std::ostream& y, const GpuSpec& spec) {
    if (spec.device_names.empty()) return;
    y << "device_names:\n";
    for (const auto& name : spec.device_names) y << "  - " << yaml_quoted(name) << "\n";
}

}  // namespace gpusched::hw

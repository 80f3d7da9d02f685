// import_trace: read, build, choose the GPU preset, estimate the kernels' work, make the workload document.
#include "gpusched/importers/trace_import.h"

#include <algorithm>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/presets.h"
#include "gpusched/importers/device_preset.h"
#include "gpusched/importers/kernel_name.h"
#include "gpusched/importers/kineto_reader.h"
#include "gpusched/importers/op_shapes.h"
#include "gpusched/support/key_error.h"

namespace gpusched::importers {

namespace {

std::string preset_list() {
    std::string list;
    for (const auto& n : hw::preset_names()) list += (list.empty() ? "" : ", ") + n;
    return list;
}

/// The preset of measured_gpu: `preset`, or the trace's device matched to one; fills source's device and SMs.
std::string pick_preset(const ImportedTrace& trace, std::int64_t device, const std::string& preset, const std::string& gpu_hint,
                        ImportSource& source) {
    const auto info = std::find_if(trace.devices.begin(), trace.devices.end(), [&](const auto& d) { return d.id == device; });
    if (info != trace.devices.end()) source.device = info->name, source.sm_count = info->sm_count;
    if (!preset.empty()) {
        const auto canonical = hw::canonical_preset_name(preset);
        if (!canonical) throw KeyError("gpu", "unknown GPU preset '" + preset + "' (presets: " + preset_list() + ")");
        if (source.device.empty()) source.device = *canonical;
        return *canonical;
    }
    if (info == trace.devices.end())
        throw InputError(trace.path + ": no deviceProperties entry for device " + std::to_string(device) +
                         ", so the GPU is unknown; give " + gpu_hint + " (gpusched list gpus)");
    const std::string matched = preset_for_device(*info);
    if (matched.empty())
        throw InputError(trace.path + ": deviceProperties[" + std::to_string(info->event_index) + "]: device '" +
                         printable(info->name) + "' (cc " + std::to_string(info->cc_major) + "." + std::to_string(info->cc_minor) +
                         ", " + std::to_string(info->sm_count) + " SMs) matches no GPU preset; give " + gpu_hint +
                         " to import it as one (presets: " + preset_list() + "; gpusched list gpus)");
    return matched;
}

}  // namespace

TraceImport import_trace(const std::string& path, const ImportOptions& options, const std::string& preset,
                         const std::string& tool, const std::string& gpu_hint) {
    TraceImport r;
    r.trace = read_kineto_trace(path);
    r.app = build_application(r.trace, options);
    r.source.tool = tool;
    r.source.trace = path;
    r.source.preset = pick_preset(r.trace, r.app.device, preset, gpu_hint, r.source);
    r.totals = estimate_kernel_totals(r.trace, r.app, read_op_shapes(path), hw::resolve_gpu(r.source.preset));
    r.document = imported_workload(r.trace, r.app, r.source, &r.totals);
    return r;
}

}  // namespace gpusched::importers

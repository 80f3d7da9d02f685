// GPU values, occupancy, kernel specs, workload files and PyTorch trace imports for the Python module.
#include <algorithm>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>
#include <pybind11/stl.h>

#include "bindings.h"
#include "occupancy_json.h"
#include "gpusched/hw/cluster_occupancy.h"
#include "gpusched/hw/gpu_overrides.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/occupancy.h"
#include "gpusched/hw/presets.h"
#include "gpusched/importers/trace_import.h"
#include "gpusched/scheduler/run_setup.h"
#include "gpusched/sim/execution/measured_calibration.h"
#include "gpusched/support/input_error.h"
#include "gpusched/workloads/kernel_spec_value.h"
#include "gpusched/workloads/workload_file.h"
#include "gpusched/workloads/workload_writer.h"

namespace py = pybind11;

namespace gpusched::python {

hw::GpuSpec resolve_gpu(const std::string& gpu, const GpuKeys& keys) {
    hw::GpuOverrides overrides;
    std::vector<std::string> written;
    for (const auto& [key, value] : keys) {
        const std::string text = key + "=" + value;
        auto override = hw::parse_gpu_override(text, "key");
        for (const auto& [path, given] : overrides)
            if (path == override.first) throw InputError(text + ": key '" + path + "' is already set");
        overrides.push_back(std::move(override));
        written.push_back(text);
    }
    return hw::resolve_gpu_with_overrides(gpu, overrides, written);
}

namespace {

/// What a GPU value shows: its name, vendor name, compute capability, SMs and YAML.
std::string gpu_info(const std::string& gpu, const GpuKeys& keys) {
    const hw::GpuSpec spec = resolve_gpu(gpu, keys);
    nlohmann::ordered_json j;
    j["name"] = spec.name;
    j["full_name"] = spec.full_name;
    j["compute_capability"] = spec.compute_capability();
    j["sm_count"] = spec.sm_count;
    j["yaml"] = hw::to_yaml(spec);
    return j.dump();
}

/// `gpusched occupancy --json`'s object (command_occupancy.cpp), as text.
std::string occupancy_json(const std::string& gpu, const GpuKeys& keys, int threads, int regs, std::int64_t smem,
                           std::int64_t static_smem, int barriers, const std::string& carveout,
                           const std::string& cluster, bool nonportable) {
    const hw::GpuSpec spec = resolve_gpu(gpu, keys);
    hw::OccupancyRequest req;
    req.threads_per_block = threads;
    req.registers_per_thread = regs;
    req.dynamic_shared_bytes = smem;
    req.static_shared_bytes = static_smem;
    req.barriers_per_block = barriers;
    req.carveout = hw::Carveout::parse(carveout, "carveout");
    const hw::OccupancyResult r = hw::compute_occupancy(spec, req);
    std::optional<hw::ClusterOccupancy> c;
    if (!cluster.empty())
        c = hw::compute_cluster_occupancy(spec, r, hw::parse_cluster_shape(cluster, "cluster"), nonportable, "cluster");
    else if (nonportable)
        throw InputError("cluster_nonportable: give cluster too");
    return cli::occupancy_json(spec, req, r, c).dump();
}

/// The one-line spec `name` with `keys` set in order, checked by parsing it.
std::string kernel_spec(const std::string& text, const GpuKeys& keys) {
    workloads::KernelSpec spec = workloads::KernelSpec::parse(text, "kernel");
    for (const auto& [key, value] : keys) spec.set(key, value);
    return keys.empty() ? spec.as_written() : spec.to_string();
}

/// One row per launch of a workload (YAML text, or the file `source` when `yaml` is ""): what it launches where.
py::list workload_launches(const std::string& yaml, const std::string& source) {
    const workloads::Application app =
        yaml.empty() ? workloads::load_workload_file(source) : workloads::parse_workload(yaml, source);
    py::list rows;
    for (std::size_t i = 0; i < app.launches.size(); ++i) {
        const auto& l = app.launches[i];
        py::dict row;
        row["launch"] = i;
        row["name"] = l.name;
        row["family"] = l.family;
        row["stream"] = l.stream;
        row["blocks"] = l.blocks();
        row["threads_per_block"] = l.threads_per_block();
        row["registers_per_thread"] = l.registers_per_thread;
        row["shared_bytes"] = l.static_shared_bytes + l.dynamic_shared_bytes;
        row["work_from"] = l.work_from;
        rows.append(row);
    }
    return rows;
}

/// `gpusched import torch TRACE --out FILE` (command_import.cpp), the workload YAML returned as text.
std::string import_torch(const std::string& trace_path, const std::string& gpu, const std::string& tool) {
    importers::TraceImport imported = importers::import_trace(trace_path, importers::ImportOptions{}, gpu, tool, "gpu=PRESET");
    // As `gpusched import torch` does: the engine calibration once, under simulate's default policy on the preset.
    const scheduler::RunSetup setup = scheduler::resolve_run_setup(hw::resolve_gpu(imported.source.preset), {});
    sim::write_engine_calibrations(imported.document, *setup.policy);
    std::ostringstream out;
    workloads::write_workload(out, imported.document);
    return out.str();
}

}  // namespace

void add_gpu_bindings(py::module_& m) {
    m.def("preset_names", [] { return hw::preset_names(); }, "GPU preset names, oldest architecture first.");
    m.def("gpu_info", &gpu_info, py::arg("gpu"), py::arg("keys"), "The GPU with keys set, as JSON text.");
    m.def("occupancy_json", &occupancy_json, py::arg("gpu"), py::arg("keys"), py::arg("threads"), py::arg("regs"),
          py::arg("smem"), py::arg("static_smem"), py::arg("barriers"), py::arg("carveout"), py::arg("cluster"),
          py::arg("nonportable"), "gpusched occupancy --json's object, as text.");
    m.def("kernel_spec", &kernel_spec, py::arg("text"), py::arg("keys"), "A checked one-line kernel spec.");
    m.def("workload_launches", &workload_launches, py::arg("yaml"), py::arg("source"),
          "One dict per launch of a workload's YAML text.");
    m.def("import_torch", &import_torch, py::arg("trace"), py::arg("gpu"), py::arg("tool"),
          "A PyTorch profiler or CUPTI trace as workload YAML text.");
}

}  // namespace gpusched::python

// simulate for the Python module: one run as `gpusched simulate` builds it, with the GIL released while it runs.
#include <cstring>
#include <optional>
#include <sstream>

#include <pybind11/stl.h>

#include "bindings.h"
#include "simulation_gantt.h"
#include "gpusched/calibrate/calibration_file.h"
#include "gpusched/hw/dispatch_walk.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/scheduler/run_setup.h"
#include "gpusched/sim/output/block_recorder.h"
#include "gpusched/sim/output/run_explanation.h"
#include "gpusched/sim/output/summary_collector.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/support/input_error.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/replay_timeline.h"
#include "gpusched/workloads/workload_file.h"

namespace py = pybind11;

namespace gpusched::python {

namespace {

/// What one run is asked for (the arguments of gpusched.simulate, resolved by the Python side).
struct RunAsk {
    std::string gpu;
    GpuKeys keys;
    std::vector<std::string> kernels;  ///< one-line specs, or
    std::string workload_yaml;         ///< a workload's text, named by workload_source, or ""
    std::string workload_source;       ///< the workload file to read when workload_yaml is ""
    std::vector<std::string> calibrations;  ///< calibration files whose keys are the kernels' defaults
    std::string replay;                     ///< a timeline CSV to replay with these block resources:
    int replay_threads = 0;
    int replay_regs = 0;
    std::int64_t replay_smem = 0;
    std::optional<std::string> policy;
    std::optional<std::string> walk_start;
    std::optional<std::string> execution;
    bool blocks = false;   ///< keep every block
    bool explain = false;  ///< the time account and the explanation
    std::string gantt;     ///< "", "svg" or "html"
    std::string gantt_colour = "kernel";
};

/// What one run gives back, before it becomes Python objects.
struct RunOutput {
    std::string summary_json;
    std::string summary_text;
    std::string explanation;
    std::string gantt;
    std::vector<sim::BlockRecord> blocks;
    std::vector<std::string> launch_names;  ///< per launch
};

workloads::Application application(const RunAsk& ask) {
    if (!ask.calibrations.empty() && ask.kernels.empty())
        throw InputError("calibrations set default keys of kernel specs; give kernel or kernels");
    if (!ask.replay.empty() && ask.replay_threads <= 0)
        throw InputError("replay needs threads (threads per block of the replayed kernel)");
    if (!ask.replay.empty()) return workloads::load_replay_timeline(ask.replay, ask.replay_threads, ask.replay_regs, ask.replay_smem);
    if (ask.kernels.empty())
        return ask.workload_yaml.empty() ? workloads::load_workload_file(ask.workload_source)
                                         : workloads::parse_workload(ask.workload_yaml, ask.workload_source);
    std::vector<std::string> specs = ask.kernels;
    for (const auto& calibration : calibrate::load_calibrations(ask.calibrations))
        for (auto& spec : specs) spec = calibrate::apply_calibration(spec, calibration);
    return workloads::application_from_specs(specs, "kernel");
}

RunOutput run(const RunAsk& ask) {
    if (ask.gantt_colour != "kernel" && ask.gantt_colour != "stream")
        throw InputError("gantt_colour: expected kernel or stream, got '" + ask.gantt_colour + "'");
    hw::GpuSpec gpu = resolve_gpu(ask.gpu, ask.keys);
    const hw::GpuSpec before_what_ifs = hw::resolve_gpu(ask.gpu);
    scheduler::RunRequest request{.policy = ask.policy, .execution = ask.execution, .before_what_ifs = &before_what_ifs};
    const scheduler::RunSetup setup = scheduler::resolve_run_setup(gpu, request);
    if (ask.walk_start) {
        if (setup.policy_name != "walk") throw InputError("walk_start sets where policy walk starts; give policy='walk'");
        if (!gpu.dispatch_walk) throw InputError("walk_start: GPU '" + gpu.name + "' has no topology.dispatch_walk");
        if (const auto problem = hw::set_walk_start(*gpu.dispatch_walk, *ask.walk_start, "walk_start"); !problem.empty())
            throw InputError(problem);
    }
    const workloads::Application app = application(ask);
    if (!ask.replay.empty() && ask.replay_threads > gpu.max_threads_per_block)
        throw InputError("threads " + std::to_string(ask.replay_threads) + ": more than the " +
                         std::to_string(gpu.max_threads_per_block) + " threads per block of " + gpu.name);
    sim::Simulation simulation(gpu, app, *setup.policy, setup.execution);
    const std::vector<std::string> notes = scheduler::run_rule_notes(setup, app, gpu, simulation.execution());
    sim::SummaryCollector summary;
    simulation.observe(summary);
    std::optional<sim::BlockRecorder> blocks;
    if (ask.blocks) simulation.observe(blocks.emplace());
    std::optional<cli::SimulationGantt> gantt;
    if (!ask.gantt.empty())
        simulation.observe(gantt.emplace(ask.gantt_colour == "stream" ? cli::GanttColouring::stream
                                                                       : cli::GanttColouring::kernel));
    std::optional<sim::TimeAccountCollector> account;
    if (ask.explain || ask.gantt == "html") simulation.observe(account.emplace(setup.policy->name() == "min"));
    simulation.run();

    RunOutput out;
    sim::RunSummary result = summary.summary();
    result.notes.insert(result.notes.begin(), notes.begin(), notes.end());
    if (account) {
        if (ask.explain) result.account = account->account();
        std::ostringstream text;
        sim::write_explanation(text, {gpu, app, simulation.occupancy(), result, account->account()});
        out.explanation = text.str();
    }
    std::ostringstream json, text;
    sim::write_summary_json(json, result);
    sim::write_summary_text(text, result);
    out.summary_json = json.str();
    out.summary_text = text.str();
    if (gantt) {
        const std::string title = "gpusched simulate: " + app.description + " on " + gpu.name;
        out.gantt = ask.gantt == "html" ? gantt->html(title, out.explanation, account->account()) : gantt->svg(title);
    }
    if (blocks) {
        out.blocks = blocks->take_blocks();
        for (const auto& launch : app.launches) out.launch_names.push_back(launch.name);
    }
    return out;
}

/// One column of the block table as raw native 64-bit integers (numpy.frombuffer reads them).
template <class Field>
py::bytes column(const std::vector<sim::BlockRecord>& blocks, Field field) {
    std::string bytes(blocks.size() * sizeof(std::int64_t), '\0');
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        const auto v = static_cast<std::int64_t>(field(blocks[i]));
        std::memcpy(bytes.data() + i * sizeof v, &v, sizeof v);
    }
    return py::bytes(bytes);
}

py::dict simulate(const py::kwargs& given) {
    RunAsk ask;
    ask.gpu = given["gpu"].cast<std::string>();
    ask.keys = given["keys"].cast<GpuKeys>();
    ask.kernels = given["kernels"].cast<std::vector<std::string>>();
    ask.workload_yaml = given["workload_yaml"].cast<std::string>();
    ask.workload_source = given["workload_source"].cast<std::string>();
    ask.calibrations = given["calibrations"].cast<std::vector<std::string>>();
    ask.replay = given["replay"].cast<std::string>();
    ask.replay_threads = given["replay_threads"].cast<int>();
    ask.replay_regs = given["replay_regs"].cast<int>();
    ask.replay_smem = given["replay_smem"].cast<std::int64_t>();
    ask.policy = given["policy"].cast<std::optional<std::string>>();
    ask.walk_start = given["walk_start"].cast<std::optional<std::string>>();
    ask.execution = given["execution"].cast<std::optional<std::string>>();
    ask.blocks = given["blocks"].cast<bool>();
    ask.explain = given["explain"].cast<bool>();
    ask.gantt = given["gantt"].cast<std::string>();
    ask.gantt_colour = given["gantt_colour"].cast<std::string>();
    RunOutput out;
    {
        const py::gil_scoped_release unlocked;
        out = run(ask);
    }
    py::dict result;
    result["summary_json"] = out.summary_json;
    result["summary_text"] = out.summary_text;
    result["explanation"] = out.explanation;
    result["gantt"] = out.gantt;
    if (ask.blocks) {
        py::dict columns;
        columns["launch"] = column(out.blocks, [](const sim::BlockRecord& b) { return b.launch; });
        columns["block"] = column(out.blocks, [](const sim::BlockRecord& b) { return b.block; });
        columns["sm"] = column(out.blocks, [](const sim::BlockRecord& b) { return b.sm; });
        columns["dispatch_ps"] = column(out.blocks, [](const sim::BlockRecord& b) { return b.dispatch; });
        columns["start_ps"] = column(out.blocks, [](const sim::BlockRecord& b) { return b.start; });
        columns["end_ps"] = column(out.blocks, [](const sim::BlockRecord& b) { return b.end; });
        result["blocks"] = columns;
        result["launch_names"] = out.launch_names;
    }
    return result;
}

}  // namespace

void add_simulate_bindings(py::module_& m) {
    m.def("simulate", &simulate,
          "One simulation (keywords: gpu, keys, kernels, workload_yaml, workload_source, calibrations, replay, "
          "replay_threads, replay_regs, replay_smem, policy, walk_start, execution, blocks, explain, gantt, "
          "gantt_colour): the summary JSON and text, and on request blocks, explanation, Gantt chart.");
}

}  // namespace gpusched::python

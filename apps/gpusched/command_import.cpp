// `gpusched import torch|cupti|ncu`: PyTorch profiler traces, CUPTI recordings and Nsight Compute CSV into workload files.
#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>

#include "commands.h"
#include "output_file.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/presets.h"
#include "gpusched/importers/imported_application.h"
#include "gpusched/importers/kernel_totals.h"
#include "gpusched/importers/ncu_join.h"
#include "gpusched/importers/ncu_report.h"
#include "gpusched/importers/trace_import.h"
#include "gpusched/importers/imported_workload.h"
#include "gpusched/scheduler/run_setup.h"
#include "gpusched/sim/execution/measured_calibration.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/key_error.h"
#include "gpusched/support/text.h"
#include "gpusched/workloads/workload_file.h"
#include "gpusched/workloads/workload_writer.h"

namespace gpusched::cli {

namespace {

struct TraceImportOptions {
    std::string tool;  ///< "torch" or "cupti"
    std::string trace;
    std::string out;
    std::string timeline;
    std::string steps = "all";
    std::string gpu;
    std::optional<std::int64_t> device;
    std::string min_delay = "1us";
    bool frozen_gaps = false;
};

struct NcuImportOptions {
    std::string report;
    std::string workload;
    std::string out;
};

/// --steps: all, N or A-B.
importers::StepRange parse_steps(const std::string& text) {
    importers::StepRange range;
    if (text == "all") return range;
    const auto number = [&](const std::string& part) {
        if (part.empty() || part.size() > 12 || part.find_first_not_of("0123456789") != std::string::npos)
            throw InputError("--steps: expected all, N or A-B (ProfilerStep numbers), got '" + text + "'");
        return std::stoll(part);
    };
    const auto dash = text.find('-');
    range.all = false;
    range.first = number(text.substr(0, dash));
    range.last = dash == std::string::npos ? range.first : number(text.substr(dash + 1));
    if (range.last < range.first) throw InputError("--steps: expected A-B with A <= B, got '" + text + "'");
    if (range.last - range.first >= 1'000'000) throw InputError("--steps: more than 1000000 steps in '" + text + "'");
    return range;
}

/// The engine calibration of the measured launches, done once here (sim/execution/measured_calibration.h) and
/// written into the workload, under the policy `simulate` takes on the reference GPU `preset` by default.
void write_calibrations(workloads::WorkloadDocument& document, const std::string& preset) {
    const scheduler::RunSetup setup = scheduler::resolve_run_setup(hw::resolve_gpu(preset), {});
    sim::write_engine_calibrations(document, *setup.policy);
}

void run_trace_import(const TraceImportOptions& o) {
    check_distinct_outputs({{o.out, "--out"}, {o.timeline, "--timeline"}});
    check_not_an_input(o.out, "--out", {o.trace});
    if (!o.timeline.empty()) check_not_an_input(o.timeline, "--timeline", {o.trace});
    importers::ImportOptions options;
    options.steps = parse_steps(o.steps);
    options.device = o.device;
    options.min_delay = parse_duration(o.min_delay, "--min-delay");
    options.frozen_gaps = o.frozen_gaps;
    importers::TraceImport imported = naming_keys({{"steps", "--steps"}, {"device", "--device"}, {"gpu", "--gpu"}}, [&] {
        return importers::import_trace(o.trace, options, o.gpu, o.tool, "--gpu PRESET");
    });
    const importers::ImportedTrace& trace = imported.trace;
    const importers::ImportedApplication& app = imported.app;
    const importers::ImportSource& source = imported.source;
    const importers::ImportTotals& totals = imported.totals;
    workloads::WorkloadDocument& document = imported.document;
    write_calibrations(document, source.preset);
    OutputFile out(o.out, "--out", {o.trace});
    workloads::write_workload(out.stream(), document);
    std::unique_ptr<OutputFile> timeline;
    if (!o.timeline.empty()) {
        timeline = std::make_unique<OutputFile>(o.timeline, "--timeline", std::vector<std::string>{o.trace},
                                                std::vector<const OutputFile*>{&out});
        importers::write_measured_timeline(timeline->stream(), trace, app, source);
    }
    out.commit();
    if (timeline) timeline->commit();
    for (const auto& note : app.notes) std::cerr << "gpusched: note: " << note << "\n";
    std::cout << "imported " << app.kernels << " kernels, " << app.copies << " copies, " << app.device_ops << " memsets/device copies, "
              << (o.frozen_gaps ? std::to_string(app.delays) + " host gaps" : std::to_string(app.host.size()) + " host threads") << ", "
              << app.cross_stream_waits << " cross-stream waits, " << app.host_syncs
              << " host syncs on " << app.stream_handles.size() << " streams (GPU preset " << source.preset << ", steps "
              << app.steps_text << ") into " << o.out << (o.timeline.empty() ? "" : " and " + o.timeline) << "\n";
    for (const auto& line : importers::family_summary_lines(totals)) std::cout << "  " << line << "\n";
    for (const auto& note : totals.notes) std::cerr << "gpusched: note: " << note << "\n";
}

void run_ncu_import(const NcuImportOptions& o) {
    check_not_an_input(o.out, "--out", {o.report, o.workload});
    const std::vector<importers::NcuRow> rows = importers::read_ncu_csv(o.report);
    workloads::WorkloadDocument workload = workloads::load_workload_document(o.workload);
    importers::join_ncu(workload, o.report, rows);
    for (const auto& item : workload.items)  // the totals changed the work: calibrate it again on its reference GPU
        if (const auto gpu = std::find_if(item.keys.begin(), item.keys.end(), [](const auto& k) { return k.key == "measured_gpu"; });
            gpu != item.keys.end()) {
            write_calibrations(workload, gpu->value);
            break;
        }
    OutputFile out(o.out, "--out", {o.report, o.workload});
    workloads::write_workload(out.stream(), workload);
    out.commit();
    std::cout << "joined " << rows.size() << " Nsight Compute rows into the kernels of " << o.workload << ": " << o.out << "\n";
}

void add_trace_import(CLI::App& import, const std::string& tool, const std::string& what, const std::string& example) {
    auto o = std::make_shared<TraceImportOptions>();
    o->tool = tool;
    auto* cmd = import.add_subcommand(tool, "Import " + what + " (JSON or .json.gz) as a workload file");
    cmd->footer("Examples (docs/importing.md):\n" + example);
    cmd->add_option("trace", o->trace, "The trace: JSON, or gzip-compressed JSON")->required();
    cmd->add_option("--out", o->out, "Workload YAML to write (simulate --workload, sweep)")->required();
    cmd->add_option("--timeline", o->timeline, "Also write the measured per-kernel timeline CSV");
    cmd->add_option("--steps", o->steps, "ProfilerStep#N markers to import: all, N or A-B")->capture_default_str();
    cmd->add_option("--gpu", o->gpu, "GPU preset of the measured durations (default: from deviceProperties)");
    cmd->add_option("--device", o->device, "Device to import when the trace has GPU work on several (0, 1, ...)")->type_name("N")->check(CLI::NonNegativeNumber.description(""));
    cmd->add_option("--min-delay", o->min_delay, "With --frozen-gaps: host gaps shorter than this are not written as delays")->capture_default_str();
    cmd->add_flag("--frozen-gaps", o->frozen_gaps, "Write host gaps as GPU-side delays and syncs as records/waits (the old import) instead of a host timeline");
    cmd->callback([o] { run_trace_import(*o); });
}

}  // namespace

void add_import_command(CLI::App& app) {
    auto* import = app.add_subcommand("import", "Import profiler traces, CUPTI recordings and Nsight Compute metrics as workloads");
    import->require_subcommand(1);
    // The examples name traces of the repository (run from its root), so they run as written.
    import->footer("Examples (docs/importing.md):\n"
                   "  gpusched import torch validation/data/h100/torch/transformer_k132.json.gz --out model.yaml\n"
                   "  gpusched import cupti validation/data/h100/probe/recorder/testapp.json.gz --out app.yaml --timeline measured.csv\n"
                   "  gpusched import torch tests/importers/data/two_streams.json --out two-streams.yaml\n"
                   "  gpusched import ncu tests/importers/data/two_streams_ncu.csv --workload two-streams.yaml --out two-streams-ncu.yaml");
    add_trace_import(*import, "torch", "a PyTorch profiler (Kineto) trace",
                     "  gpusched import torch validation/data/h100/torch/transformer_k132.json.gz --out model.yaml\n"
                     "  gpusched import torch validation/data/h100/torch/transformer_k132.json.gz --steps 2-3 --out steps.yaml --timeline measured.csv\n"
                     "  gpusched simulate --gpu h100 --workload model.yaml");
    add_trace_import(*import, "cupti", "a gpusched-record CUPTI recording",
                     "  gpusched import cupti validation/data/h100/probe/recorder/testapp.json.gz --out app.yaml --timeline measured.csv");
    auto o = std::make_shared<NcuImportOptions>();
    auto* ncu = import->add_subcommand("ncu", "Join Nsight Compute metrics (CSV) to an imported workload's kernels");
    ncu->footer("Examples (docs/importing.md gives the ncu command):\n"
                "  gpusched import torch tests/importers/data/two_streams.json --out two-streams.yaml\n"
                "  gpusched import ncu tests/importers/data/two_streams_ncu.csv --workload two-streams.yaml --out two-streams-ncu.yaml");
    ncu->add_option("report", o->report, "ncu --csv --page raw --metrics ... output")->required();
    ncu->add_option("--workload", o->workload, "Workload written by gpusched import torch/cupti")->required();
    ncu->add_option("--out", o->out, "Workload YAML to write, with instructions, dram_bytes and l2_bytes")->required();
    ncu->callback([o] { run_ncu_import(*o); });
}

}  // namespace gpusched::cli

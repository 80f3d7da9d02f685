// `gpusched simulate`: one application on one GPU under one policy; summary, JSON, explanation, timeline CSV, trace, Gantt.
#include <fstream>
#include <iostream>
#include <sstream>
#include <memory>
#include <optional>

#include <unistd.h>

#include "commands.h"
#include "execution_flag.h"
#include "gpu_what_if.h"
#include "output_file.h"
#include "policy_flag.h"
#include "run_progress.h"
#include "simulation_gantt.h"
#include "gpusched/calibrate/calibration_file.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/key_error.h"
#include "gpusched/support/yaml_fields.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/scheduler/run_setup.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/sim/output/chrome_trace.h"
#include "gpusched/sim/output/run_explanation.h"
#include "gpusched/sim/output/summary_collector.h"
#include "gpusched/sim/output/timeline_csv.h"
#include "gpusched/workloads/host_speed.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/replay_timeline.h"
#include "gpusched/workloads/workload_file.h"

namespace gpusched::cli {

namespace {

/// What `gpusched simulate` runs when given no workload (DESIGN.md 5): APSP Min-plus, whose
/// partial edge blocks and ceil(log2(n-1)) launches show waves, tails and launch gaps.
const char* const kDefaultKernel = "apsp-minplus:n=1000,block=16,regs=32";
/// Runs with more blocks than this (about 10 s at the engine's measured 50 M blocks/s,
/// docs/performance.md) are announced on a terminal before they start.
constexpr std::uint64_t kAnnouncedBlocks = 500'000'000;

struct SimulateOptions {
    std::string gpu = "h100";
    GpuWhatIf what_if;  ///< --sms, --set
    std::string policy = scheduler::default_policy();
    bool policy_given = false;     ///< --policy was given (else scheduler::resolve_run_setup takes the GPU's defaults.policy)
    std::string walk_start;
    bool walk_start_given = false;  ///< --walk-start was given (an empty value is an error, not "the preset's")
    std::string execution{sim::kDefaultExecutionModel};
    bool execution_given = false;  ///< --exec was given (else scheduler::resolve_run_setup takes the GPU's defaults.execution)
    std::string workload;
    bool workload_given = false;  ///< --workload '' is an error, not the built-in default
    std::vector<std::string> kernels;
    std::vector<std::string> calibrations;
    std::string replay;
    bool replay_given = false;
    std::optional<int> threads;
    int regs = 0;
    std::int64_t smem = 0;
    bool json = false;
    std::string timeline;
    bool timeline_given = false;  ///< --timeline was given (an empty name is an error, not "no timeline")
    std::string trace;
    bool trace_given = false;
    std::uint64_t trace_limit = sim::ChromeTraceWriter::kDefaultMaxBlockEvents;
    bool explain = false;       ///< --explain: the narrative and the time account
    bool all_launches = false;  ///< --all-launches: one summary row per launch
    std::string notes = "per-rule";  ///< --notes: each rule once with the launches it covers, or all
    bool quiet = false;              ///< --quiet: no notes on stderr
    std::string gantt;
    bool gantt_given = false;
    std::string gantt_colour = "kernel";
    std::optional<std::string> host_speed;  ///< --host-speed: the host timeline's CPU times divided by it
};

/// --gantt's format from its file name: true for HTML, false for SVG; InputError naming the flag otherwise.
bool gantt_is_html(const std::string& path) {
    const auto ends = [&path](const std::string& tail) {
        return path.size() > tail.size() && path.compare(path.size() - tail.size(), tail.size(), tail) == 0;
    };
    if (ends(".html") || ends(".htm")) return true;
    if (ends(".svg")) return false;
    throw InputError("--gantt: expected a file name ending in .html or .svg, got '" + path + "'");
}

GanttColouring gantt_colouring(const std::string& name) {
    if (name == "kernel") return GanttColouring::kernel;
    if (name == "stream") return GanttColouring::stream;
    throw InputError("--gantt-colour: expected kernel or stream, got '" + name + "'");
}

/// --host-speed's number (parse_number: the whole text, finite), else InputError naming the flag; the range is scale_host_speed's.
double host_speed_value(const std::string& text) {
    const auto value = parse_number(text);
    if (!value) throw InputError("--host-speed: expected a number (2 = a host CPU twice as fast as the trace's), got '" + text + "'");
    return *value;
}

workloads::Application load_application(const SimulateOptions& o) {
    const int sources = (o.workload.empty() ? 0 : 1) + (o.kernels.empty() ? 0 : 1) + (o.replay.empty() ? 0 : 1);
    if (sources > 1) throw InputError("--workload, --kernel and --replay are alternatives: give one of them");
    if (o.replay.empty() && (o.threads || o.regs != 0 || o.smem != 0))
        throw InputError("--threads, --regs and --smem describe the blocks of --replay; they need --replay");
    if (!o.calibrations.empty() && o.kernels.empty())
        throw InputError("--calibration sets default keys of --kernel specs; give --kernel");
    if (o.workload_given && o.workload.empty()) throw InputError("--workload: expected a file name, got ''");
    if (o.replay_given && o.replay.empty()) throw InputError("--replay: expected a file name, got ''");
    if (!o.workload.empty()) return workloads::load_workload_file(o.workload);
    if (!o.kernels.empty()) {
        std::vector<std::string> specs = o.kernels;
        for (const auto& calibration : calibrate::load_calibrations(o.calibrations))
            for (auto& spec : specs) spec = calibrate::apply_calibration(spec, calibration);
        return workloads::application_from_specs(specs, "--kernel");
    }
    if (!o.replay.empty()) {
        if (!o.threads) throw InputError("--replay needs --threads (threads per block of the replayed kernel)");
        return workloads::load_replay_timeline(o.replay, *o.threads, o.regs, o.smem);
    }
    std::cerr << "gpusched: no workload given; running the built-in default: --gpu " << o.gpu << " --kernel "
              << kDefaultKernel << "\n";
    return workloads::application_from_specs({kDefaultKernel}, "--kernel");
}

void run_simulation(const SimulateOptions& given) {
    const GanttColouring colouring = gantt_colouring(given.gantt_colour);
    const bool gantt_html = given.gantt_given && gantt_is_html(given.gantt);
    if (given.gantt_colour != "kernel" && !given.gantt_given)
        throw InputError("--gantt-colour colours the chart of --gantt; give --gantt");
    hw::GpuSpec gpu = resolve_gpu_what_if(given.gpu, given.what_if);
    const hw::GpuSpec before_what_ifs = hw::resolve_gpu(given.gpu);
    scheduler::RunRequest request{.before_what_ifs = &before_what_ifs};
    if (given.policy_given) request.policy = given.policy;
    if (given.execution_given) request.execution = given.execution;
    const scheduler::RunSetup setup = scheduler::resolve_run_setup(gpu, request);
    const auto& policy = setup.policy;
    const SimulateOptions& o = given;
    if (o.walk_start_given) {
        if (setup.policy_name != "walk") throw InputError("--walk-start sets where --policy walk starts; give --policy walk");
        if (!gpu.dispatch_walk)
            throw InputError("--walk-start: GPU '" + gpu.name + "' has no topology.dispatch_walk");
        if (const auto problem = hw::set_walk_start(*gpu.dispatch_walk, o.walk_start, "--walk-start"); !problem.empty())
            throw InputError(problem);
    }
    workloads::Application app = load_application(o);
    std::vector<std::string> host_notes;
    if (o.host_speed) {
        workloads::scale_host_speed(app, host_speed_value(*o.host_speed), "--host-speed");
        std::ostringstream note;
        note << "host: every host call's CPU time and gap divided by " << *o.host_speed << " (--host-speed "
             << *o.host_speed << "): a what-if on the CPU, the GPU's work unchanged";
        host_notes.push_back(note.str());
    }
    if (o.threads && *o.threads > gpu.max_threads_per_block)
        throw InputError("--threads " + std::to_string(*o.threads) + ": more than the " +
                         std::to_string(gpu.max_threads_per_block) + " threads per block of " + gpu.name);
    sim::Simulation run(gpu, app, *policy, setup.execution);
    const scheduler::RunNotes rule_notes = scheduler::run_rule_note_kinds(setup, app, gpu, run.execution());
    std::vector<std::string> notes = rule_notes.what_if;  // what the summary prints: all with --json or --notes all
    notes.insert(notes.end(), host_notes.begin(), host_notes.end());
    if (o.json || o.notes == "all") notes.insert(notes.end(), rule_notes.gpu_rules.begin(), rule_notes.gpu_rules.end());
    else if (!rule_notes.gpu_rules.empty()) notes.push_back(rule_notes.gpu_rules_line(gpu));
    if (!o.quiet) {
        for (const auto& note : rule_notes.what_if) std::cerr << "gpusched: note: " << note << "\n";
        for (const auto& note : host_notes) std::cerr << "gpusched: note: " << note << "\n";
        if (!rule_notes.gpu_rules.empty()) std::cerr << "gpusched: note: " << rule_notes.gpu_rules_line(gpu) << "\n";
    }

    sim::SummaryCollector summary(o.notes == "all" ? workloads::NoteDetail::every_launch : workloads::NoteDetail::per_rule);
    run.observe(summary);
    std::vector<std::string> inputs{o.gpu, o.workload, o.replay};
    inputs.insert(inputs.end(), o.calibrations.begin(), o.calibrations.end());
    std::unique_ptr<OutputFile> timeline_file, trace_file;
    std::unique_ptr<sim::TimelineCsvWriter> timeline;
    std::unique_ptr<sim::ChromeTraceWriter> trace;
    if (o.timeline_given) {
        timeline_file = std::make_unique<OutputFile>(o.timeline, "--timeline", inputs);
        timeline = std::make_unique<sim::TimelineCsvWriter>(timeline_file->stream(), GPUSCHED_VERSION);
        run.observe(*timeline);
    }
    if (o.trace_given) {
        std::vector<const OutputFile*> others;
        if (timeline_file) others.push_back(timeline_file.get());
        trace_file = std::make_unique<OutputFile>(o.trace, "--trace", inputs, others);
        trace = std::make_unique<sim::ChromeTraceWriter>(trace_file->stream(), o.trace_limit, GPUSCHED_VERSION);
        run.observe(*trace);
    }
    std::unique_ptr<OutputFile> gantt_file;
    std::unique_ptr<SimulationGantt> gantt;
    if (o.gantt_given) {
        std::vector<const OutputFile*> others;
        for (auto* file : {timeline_file.get(), trace_file.get()})
            if (file) others.push_back(file);
        gantt_file = std::make_unique<OutputFile>(o.gantt, "--gantt", inputs, others);
        gantt = std::make_unique<SimulationGantt>(colouring);
        run.observe(*gantt);
    }
    std::unique_ptr<sim::TimeAccountCollector> account;
    if (o.explain || gantt_html) {
        account = std::make_unique<sim::TimeAccountCollector>(policy->name() == "min");  // min dispatches warps
        run.observe(*account);
    }
    RunProgress progress(std::cerr, isatty(STDERR_FILENO) != 0);
    announce_size(std::cerr, isatty(STDERR_FILENO) != 0, app, kAnnouncedBlocks);
    run.observe(progress);
    {
        const InterruptGuard interrupts;
        run.run();
    }
    sim::RunSummary result = summary.summary();
    result.notes.insert(result.notes.begin(), notes.begin(), notes.end());  // the GPU's, then the work's
    std::string explanation;
    if (account) {
        if (o.explain) result.account = account->account();
        std::ostringstream text;
        sim::write_explanation(text, {gpu, app, run.occupancy(), result, account->account()});
        explanation = text.str();
    }
    if (o.json) {
        sim::write_summary_json(std::cout, result);
    } else {
        sim::write_summary_text(std::cout, result, {o.all_launches});
        if (o.explain) std::cout << '\n' << explanation;
    }
    if (gantt) {
        const std::string title = "gpusched simulate: " + app.description + " on " + gpu.name;
        gantt_file->stream() << (gantt_html ? gantt->html(title, explanation, account->account()) : gantt->svg(title));
    }
    if (trace && trace->truncated())
        std::cerr << "gpusched: --trace: the trace shows " << trace->blocks_written() << " of " << trace->blocks_total()
                  << " blocks (cap --trace-limit " << o.trace_limit << ")\n";
    for (auto* file : {timeline_file.get(), trace_file.get(), gantt_file.get()})
        if (file) file->commit();
}

}  // namespace

void add_simulate_command(CLI::App& app) {
    auto o = std::make_shared<SimulateOptions>();
    auto* cmd = app.add_subcommand("simulate", "Simulate block scheduling of a workload on a GPU");
    cmd->footer(std::string("With no workload option, runs the built-in default: --kernel ") + kDefaultKernel +
                "\nKernel spec syntax and workload files: docs/workloads.md; outputs: docs/outputs.md; "
                "--explain, --gantt: docs/explain.md\n\nExamples:\n"
                "  gpusched simulate --gpu h100 --kernel synthetic:blocks=265,threads=1024,duration=60us --explain\n"
                "  gpusched simulate --gpu c2075 --kernel apsp-minplus:n=97,block=8 --gantt run.html\n"
                "  gpusched simulate --exec shared --kernel sssp:nodes=4000,degree=4,sources=8,streams=4 "
                "--gantt s.svg --gantt-colour stream\n"
                "  gpusched simulate --workload examples/copy-overlap.yaml --timeline blocks.csv --trace run.json\n"
                "  gpusched simulate --workload examples/host-timeline.yaml --host-speed 2 --explain\n"
                "  gpusched simulate --explain --json");
    cmd->add_option("--gpu", o->gpu, "Preset name (gpusched list gpus) or GPU YAML file")->capture_default_str();
    add_gpu_what_if_options(cmd, o->what_if);
    cmd->add_option("--policy", o->policy, policy_flag_help())
        ->capture_default_str()
        ->each([o](const std::string&) { o->policy_given = true; });
    cmd->add_option("--walk-start", o->walk_start,
                    "ROW[:LEAD]: where --policy walk starts the GPU's dispatch walk (hardware state that moves "
                    "between launches; default the preset's start_row:lead_start)")
        ->each([o](const std::string&) { o->walk_start_given = true; });
    cmd->add_option("--exec", o->execution, exec_flag_help())
        ->capture_default_str()
        ->each([o](const std::string&) { o->execution_given = true; });
    cmd->add_option("--workload", o->workload, "Workload YAML file (launches on streams)")
        ->each([o](const std::string&) { o->workload_given = true; });
    cmd->add_option("--kernel", o->kernels, "One-line kernel spec, e.g. synthetic:blocks=265,threads=1024,duration=50us "
                                            "(repeat for several launches)");
    cmd->add_option("--calibration", o->calibrations,
                    "Calibration YAML (gpusched calibrate --out): its keys become defaults of --kernel specs of "
                    "its kernel (repeat for several; docs/calibration.md)");
    cmd->add_option("--replay", o->replay, "Timeline CSV (block,sm,start_ns,end_ns) whose block durations to replay")
        ->each([o](const std::string&) { o->replay_given = true; });
    cmd->add_option("--threads", o->threads, "Threads per block of the replayed kernel");
    cmd->add_option("--regs", o->regs, "Registers per thread of the replayed kernel")->capture_default_str();
    cmd->add_option("--smem", o->smem, "Dynamic shared memory per block of the replayed kernel, bytes")
        ->capture_default_str();
    cmd->add_flag("--json", o->json, "Print the summary as one JSON object");
    cmd->add_option("--timeline", o->timeline, "Write every block to a CSV file")->each([o](const std::string&) {
        o->timeline_given = true;
    });
    cmd->add_option("--trace", o->trace, "Write a Chrome trace (open in ui.perfetto.dev)")->each([o](const std::string&) {
        o->trace_given = true;
    });
    cmd->add_option("--trace-limit", o->trace_limit, "At most this many blocks in the trace (0 to 2^40)")
        ->type_name("N")
        ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 40).description(""))
        ->capture_default_str();
    cmd->add_flag("--explain", o->explain,
                  "After the summary, explain the run in words: occupancy and its limit, waves, tail, partial "
                  "blocks, what each stream waited for, what bound each launch, and where the SM-time went (with "
                  "--json: the account as \"time_account\")");
    cmd->add_flag("--all-launches", o->all_launches,
                  "One summary row per launch (by default identical launches share a row with their count and "
                  "min/median/max time)");
    cmd->add_option("--notes", o->notes,
                    "How the summary lists the rules results rest on: per-rule (each work rule once, with how many "
                    "launches and which, and the GPU's ruled numbers as one line) or all (every launch's notes one by "
                    "one, every ruled GPU number)")
        ->check(CLI::IsMember({"per-rule", "all"}).description(""))
        ->capture_default_str();
    cmd->add_flag("--quiet", o->quiet, "No notes on stderr (the summary still lists the rules its result rests on)");
    cmd->add_option("--host-speed", o->host_speed,
                    "A what-if on the CPU: the workload's host timeline runs F times as fast (every call's CPU time "
                    "and gap divided by F, 0.01 to 100); the GPU's work is unchanged (docs/workloads.md \"Host timeline\")")
        ->type_name("F");
    cmd->add_option("--gantt", o->gantt,
                    "Write the per-SM Gantt chart: FILE.svg, or FILE.html with the explanation beside it")
        ->each([o](const std::string&) { o->gantt_given = true; });
    cmd->add_option("--gantt-colour", o->gantt_colour, "Colour the --gantt bars by kernel or stream")
        ->capture_default_str();
    cmd->callback([o] {
        naming_keys({{"gpu", "--gpu"},
                     {"policy", "--policy"},
                     {"exec", "--exec"},
                     {"calibration", "--calibration"},
                     {"replay_threads", "--threads"},
                     {"replay_regs", "--regs"},
                     {"replay_smem", "--smem"}},
                    [&] { run_simulation(*o); });
    });
}

}  // namespace gpusched::cli

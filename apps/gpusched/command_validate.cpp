// `gpusched validate DATA_DIR`: every validation section of the registry (measured experiments against the simulation); `--timelines DIR`: a user's timelines replayed.
#include <algorithm>
#include <filesystem>
#include <optional>
#include <fstream>
#include <iostream>
#include <memory>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "output_file.h"
#include "run_progress.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/scheduler/run_setup.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/key_error.h"
#include "gpusched/validation/section_registry.h"
#include "experiments/placement/view.h"
#include "experiments/trace_replay/view.h"
#include "experiments/user_timelines/view.h"
#include "gpusched/validation/validation_report.h"

namespace gpusched::cli {

namespace {

/// A command hint of the validation views as this command line spells it: key k is the flag --k ('_' as '-').
std::string spell_as_flags(const validation::CommandHint& hint) {
    std::string s = hint.command;
    for (const auto& [key, value] : hint.values) {
        std::string flag = key;
        std::replace(flag.begin(), flag.end(), '_', '-');
        s += " --" + flag + (value.empty() ? "" : " " + value);
    }
    return s;
}

struct ValidateOptions {
    std::string dir;
    std::string timelines;  ///< --timelines: a user's directory of timeline CSVs instead of DATA_DIR
    std::string trace;      ///< --trace: a profiler trace compared with its own simulation instead of DATA_DIR
    std::string durations = "auto";  ///< --durations: how --timelines takes a block's duration
    bool durations_given = false;
    bool sections_given = false;
    std::string gpu = "h100";
    bool gpu_given = false;  ///< --gpu was given (--trace otherwise simulates on the trace's own device)
    std::string policy;  ///< empty: placement_policy() / the default policy
    bool json = false;
    std::string report;
    std::vector<std::string> sections{"all"};
};

/// "all, a, b or c": the values --sections accepts.
std::string section_choices() {
    const auto& sections = validation::validation_sections();
    std::string s = "all";
    for (std::size_t k = 0; k < sections.size(); ++k)
        s += (k + 1 == sections.size() ? " or " : ", ") + sections[k]->name();
    return s;
}

/// Whether `name` is among the --sections; InputError for an unknown section.
bool wanted(const ValidateOptions& o, const std::string& name) {
    bool found = false;
    for (const auto& s : o.sections) {
        if (s != "all" && !validation::find_section(s))
            throw InputError("--sections: unknown section '" + s + "' (expected " + section_choices() + ")");
        found = found || s == "all" || s == name;
    }
    return found;
}

/// Whether to run `section`: wanted and, where a missing input skips it, its input present. A
/// section named in --sections whose input is missing is an InputError naming the file (whether
/// or not a missing input skips it: asked for by name, it must have something to compare); one
/// that only "all" asked for is skipped with a note on stderr.
bool run_section(const ValidateOptions& o, const validation::ValidationSection& section) {
    const std::string name = section.name();
    if (!wanted(o, name)) return false;
    const std::string input = (std::filesystem::path(o.dir) / section.input()).string();
    const bool named = std::find(o.sections.begin(), o.sections.end(), name) != o.sections.end();
    if (std::filesystem::exists(input)) return true;
    if (named) throw InputError("--sections " + name + ": no measurements at '" + input + "'");
    if (!section.skipped_when_missing()) return true;
    std::cerr << "gpusched validate: no " << name << " section: '" << input << "' does not exist\n";
    return false;
}

/// The sections' policy: --policy, else the GPU's defaults.policy, else the registry's default (scheduler::resolve_run_setup).
std::string section_policy(const ValidateOptions& o, const hw::GpuSpec& gpu) {
    scheduler::RunRequest request;
    if (!o.policy.empty()) request.policy = o.policy;
    return scheduler::resolve_run_setup(gpu, request).policy_name;
}

/// The timeline replays' policy: --policy, else `walk` where the GPU has a measured dispatch
/// walk (the replay reads each case's start state off its first blocks), else section_policy.
std::string replay_policy(const ValidateOptions& o, const hw::GpuSpec& gpu) {
    if (o.policy.empty() && gpu.dispatch_walk) return "walk";
    return section_policy(o, gpu);
}

/// The files validate reads: the GPU file and every file under the data directory `dir` (a report
/// must not replace a measurement). At most kMaxListedInputs are listed; a bigger tree is not a data set.
std::vector<std::string> validate_inputs(const ValidateOptions& o, const std::string& dir) {
    constexpr std::size_t kMaxListedInputs = 100000;
    std::vector<std::string> inputs{o.gpu};
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) return inputs;
    for (std::filesystem::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->is_regular_file(ec)) inputs.push_back(it->path().string());
        if (inputs.size() > kMaxListedInputs)
            throw InputError("validate: '" + dir + "' holds more than " + std::to_string(kMaxListedInputs) +
                             " files; give the measured data directory");
    }
    return inputs;
}

/// `validate --timelines DIR`: every timeline CSV under DIR replayed with the replay policy.
void run_validate_timelines(const ValidateOptions& o) {
    const hw::GpuSpec gpu = hw::resolve_gpu(o.gpu);
    const std::string policy = replay_policy(o, gpu);
    std::optional<OutputFile> report_file;
    if (!o.report.empty()) report_file.emplace(o.report, "--report", validate_inputs(o, o.timelines));
    const validation::UserTimelinesView view(
        validation::validate_user_timelines(o.timelines, gpu, policy, !o.report.empty(),
                                            validation::parse_block_durations(o.durations, "--durations")),
        o.timelines, gpu, policy);
    if (report_file) {
        report_file->stream() << validation::render_validation_report({o.timelines, o.gpu, policy}, {view.report_part()});
        report_file->commit();
    }
    if (o.json) {
        nlohmann::ordered_json j;
        j["timelines"] = o.timelines;
        j["gpu"] = gpu.name;
        j["policy"] = policy;
        view.add_json(j);
        std::cout << j.dump(2) << "\n";
        return;
    }
    view.print_text(std::cout);
}

/// `validate --trace T`: each profiled step of the trace against its own simulation.
void run_validate_trace(const ValidateOptions& o) {
    const std::string gpu = o.gpu_given ? o.gpu : "";
    const hw::GpuSpec spec = hw::resolve_gpu(o.gpu);
    const std::string policy = o.policy.empty() ? scheduler::resolve_run_setup(spec, {}).policy_name : o.policy;
    std::optional<OutputFile> report_file;
    if (!o.report.empty()) report_file.emplace(o.report, "--report", std::vector<std::string>{o.trace});
    const validation::TraceReplayView view(validation::validate_trace(o.trace, gpu, policy));
    if (report_file) {
        report_file->stream() << validation::render_validation_report({o.trace, gpu.empty() ? "the trace's" : o.gpu, policy},
                                                                      {view.report_part()});
        report_file->commit();
    }
    if (o.json) {
        nlohmann::ordered_json j;
        view.add_json(j);
        std::cout << j.dump(2) << "\n";
        return;
    }
    view.print_text(std::cout);
}

void run_validate(ValidateOptions o) {
    const int sources = (o.dir.empty() ? 0 : 1) + (o.timelines.empty() ? 0 : 1) + (o.trace.empty() ? 0 : 1);
    if (sources != 1)
        throw InputError("validate: give one of DATA_DIR (the project's measurements), --timelines DIR (your own timeline "
                         "CSVs) or --trace TRACE (a profiler trace against its own simulation)");
    if (!o.trace.empty()) {
        if (o.sections_given || o.durations_given)
            throw InputError(std::string(o.sections_given ? "--sections" : "--durations") +
                             ": not with --trace (it compares each profiled step of the trace with its simulation)");
        run_validate_trace(o);
        return;
    }
    if (!o.timelines.empty()) {
        if (o.sections_given)
            throw InputError("--sections: the sections are parts of a DATA_DIR; --timelines replays every timeline of "
                             "its directory");
        run_validate_timelines(o);
        return;
    }
    if (o.durations_given)
        throw InputError("--durations: only with --timelines (the sections of a DATA_DIR choose their own durations)");
    validation::SectionSettings settings{hw::resolve_gpu(o.gpu), o.policy, "", !o.report.empty()};
    settings.replay_policy = replay_policy(o, settings.gpu);
    settings.spell = spell_as_flags;
    o.policy = settings.policy = section_policy(o, settings.gpu);
    wanted(o, "all");  // rejects unknown sections before any work
    std::optional<OutputFile> report_file;
    if (!o.report.empty()) report_file.emplace(o.report, "--report", validate_inputs(o, o.dir));
    std::vector<std::unique_ptr<validation::SectionView>> views;
    StepProgress progress(std::cerr, isatty(STDERR_FILENO) != 0, "validate");
    const auto& sections = validation::validation_sections();
    const auto asked = static_cast<std::size_t>(
        std::count_if(sections.begin(), sections.end(), [&](const auto& s) { return wanted(o, s->name()); }));
    std::size_t started = 0;
    for (const auto& section : sections) {
        const bool run = run_section(o, *section);  // may print a note: before the progress line is drawn
        if (run)
            progress.update("section " + std::to_string(++started) + " of " + std::to_string(asked) + ": " +
                            section->name());
        auto view = run ? section->run(o.dir, settings) : section->view_when_skipped();
        if (view) views.push_back(std::move(view));
    }
    progress.finish();
    if (!o.report.empty()) {
        std::vector<std::string> parts;
        for (const auto& v : views) parts.push_back(v->report_part());
        const std::string policy =
            o.policy == settings.replay_policy ? o.policy : o.policy + "; placement replay: " + settings.replay_policy;
        report_file->stream() << validation::render_validation_report({o.dir, o.gpu, policy}, parts);
        report_file->commit();
    }
    if (o.json) {
        nlohmann::ordered_json j;
        j["data"] = validation::placement_dir(o.dir);
        j["gpu"] = settings.gpu.name;
        j["policy"] = o.policy;
        j["placement_policy"] = settings.replay_policy;
        for (const auto& v : views) v->add_json(j);
        std::cout << j.dump(2) << "\n";
        return;
    }
    for (const auto& v : views) v->print_text(std::cout);
}

/// The help's list of sections: name, input under DATA_DIR, what it compares.
std::string section_help() {
    const auto& sections = validation::validation_sections();
    std::size_t name_width = 0, input_width = 0;
    for (const auto& s : sections) {
        name_width = std::max(name_width, s->name().size());
        input_width = std::max(input_width, s->input().size());
    }
    std::string help = "Sections (name, input under DATA_DIR, what it compares):\n";
    for (const auto& s : sections)
        help += "  " + s->name() + std::string(name_width + 2 - s->name().size(), ' ') + s->input() +
                std::string(input_width + 2 - s->input().size(), ' ') + s->description() + "\n";
    return help;
}

}  // namespace

void add_validate_command(CLI::App& app) {
    auto o = std::make_shared<ValidateOptions>();
    auto* cmd = app.add_subcommand(
        "validate", "Compare simulations with measured timelines (validation/data/<gpu>, or --timelines DIR of your own)");
    cmd->add_option("DATA_DIR", o->dir, "Measurement directory, e.g. validation/data/h100 (the sections' inputs, see Sections)");
    cmd->add_option("--timelines", o->timelines,
                    "Instead of DATA_DIR: a directory of your own block timeline CSVs (gpusched/probe.cuh writes them; "
                    "searched recursively, each needs '# threads='): each replayed with its measured block durations "
                    "(docs/own-kernels.md)");
    cmd->add_option("--durations", o->durations,
                    "With --timelines: each block's duration from its inferred dispatch (slot: in-order dispatch, "
                    "prompt refills) or from its own first stamp (stamps); auto: slot for a file whose first stamps "
                    "are out of block order by over 1 us, else stamps (docs/own-kernels.md)")
        ->capture_default_str()
        ->each([o](const std::string&) { o->durations_given = true; });
    cmd->add_option("--trace", o->trace,
                    "Instead of DATA_DIR: a PyTorch profiler (Kineto) trace, JSON or .json.gz: each profiled step "
                    "imported alone with its host timeline and simulated, spans and kernel starts compared with the "
                    "trace (docs/validation.md)");
    cmd->add_option("--gpu", o->gpu, "Preset name or GPU YAML file to simulate with (--trace: default the trace's device)")
        ->capture_default_str()
        ->each([o](const std::string&) { o->gpu_given = true; });
    cmd->add_option("--policy", o->policy,
                    "Dispatch policy (default: the GPU's defaults.policy, else most-room; the placement replay "
                    "uses walk where the GPU has a measured topology.dispatch_walk, starting each case where its "
                    "measured launch did)");
    cmd->add_flag("--json", o->json, "Print one JSON object");
    cmd->add_option("--sections", o->sections, "Comparisons to run, comma-separated: " + section_choices() + " (see Sections)")
        ->delimiter(',')
        ->capture_default_str()
        ->each([o](const std::string&) { o->sections_given = true; });
    cmd->add_option("--report", o->report,
                    "Also write a self-contained HTML report (tables, measured vs simulated per-SM Gantt charts, curves)");
    cmd->footer(section_help() +
                "Examples (docs/validation.md, docs/own-kernels.md):\n"
                "  gpusched validate validation/data/h100 --sections concurrency,placement --report h100.html\n"
                "  gpusched validate validation/data/h100 --sections series,spmv --json   # every section (no --sections): about a minute on 2 cores\n"
                "  gpusched validate --timelines tests/cli/data/own_timelines --json   # your kernels' timelines: docs/own-kernels.md\n"
                "  gpusched validate --timelines tests/cli/data/own_timelines --gpu h100 --report mine.html\n"
                "  gpusched validate --timelines validation/data/h100/probe --durations stamps\n"
                "  gpusched validate --trace validation/data/h100/torch/transformer_k132.json.gz --report trace.html");
    cmd->callback([o] { naming_keys({{"gpu", "--gpu"}, {"policy", "--policy"}}, [&] { run_validate(*o); }); });
}

}  // namespace gpusched::cli

// `gpusched sweep STUDY.yaml` and `gpusched merge PARTS... --out RESULTS.csv`: CLI glue over gpusched_sweep.
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include "commands.h"
#include "output_file.h"
#include "run_progress.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/key_error.h"
#include "gpusched/sweep/point_runner.h"
#include "gpusched/sweep/results_file.h"
#include "gpusched/sweep/shard.h"
#include "gpusched/sweep/study.h"
#include "gpusched/sweep/sweep_runner.h"
#include "gpusched/support/text_file.h"

namespace gpusched::cli {

namespace {

constexpr int kMaxThreads = 1024;

struct SweepCommandOptions {
    std::string study;
    std::optional<int> threads;
    std::optional<std::string> shard;
    std::string out;
    bool out_given = false;  ///< --out was given (an empty name is an error, not stdout)
    bool quiet = false;
};

struct MergeOptions {
    std::vector<std::string> parts;
    std::string out;
};

const char* env(const char* name) { return std::getenv(name); }

void run_sweep_command(const SweepCommandOptions& o) {
    const sweep::Study study = sweep::load_study(o.study);
    sweep::SweepOptions options;
    options.shard = sweep::select_shard(o.shard, env);
    if (o.threads && (*o.threads < 1 || *o.threads > kMaxThreads))
        throw InputError("-j: expected a thread count in [1, " + std::to_string(kMaxThreads) + "], got " +
                         std::to_string(*o.threads));
    options.threads = o.threads ? static_cast<unsigned>(*o.threads) : std::max(1U, std::thread::hardware_concurrency());
    sweep::check_study(study);
    if (!o.quiet && isatty(STDERR_FILENO) != 0) options.progress = &std::cerr;
    options.stop_requested = [] { return InterruptGuard::requested(); };
    std::unique_ptr<OutputFile> file;
    if (o.out_given) {
        std::vector<std::string> inputs{o.study};
        for (const auto& w : study.workloads) inputs.push_back(w.file);
        file = std::make_unique<OutputFile>(o.out, "--out", inputs);
    }
    std::ostream& out = file ? file->stream() : std::cout;
    const InterruptGuard interrupts;
    sweep::SweepStats stats;
    try {
        stats = sweep::run_sweep(study, options, out);
    } catch (const sweep::SweepStopped& e) {
        out.flush();
        throw Interrupted("sweep interrupted after " + std::to_string(e.written) + " of " + std::to_string(e.total) +
                          " points" + (file ? "" : " (those rows are on standard output)"));
    }
    if (file) file->commit();
    if (!o.quiet && stats.errors > 0)
        std::cerr << "gpusched sweep: " << stats.errors << " of " << stats.points
                  << " points could not run (see the error column)\n";
}

void run_merge(const MergeOptions& o) {
    std::optional<OutputFile> out;  // opened once every part is read
    sweep::merge_results_files(o.parts, [&]() -> std::ostream& {
        out.emplace(o.out, "--out", o.parts);
        return out->stream();
    });
    out->commit();
}

}  // namespace

void add_sweep_commands(CLI::App& app) {
    auto o = std::make_shared<SweepCommandOptions>();
    auto* cmd = app.add_subcommand("sweep", "Run a what-if study: a grid, list or random sample of points, one CSV row each");
    cmd->footer("Study schema, examples, sharding and Slurm: docs/sweep.md\n"
                "Examples:\n"
                "  gpusched sweep examples/sweep-apsp.yaml -j 2 --out apsp.csv\n"
                "  gpusched sweep examples/sweep-apsp.yaml --shard 0/4 --out apsp.part0.csv --quiet");
    cmd->add_option("study", o->study, "Study YAML file")->required();
    cmd->add_option("-j", o->threads, "Worker threads (default: the machine's hardware threads); results do not depend on it");
    cmd->add_option("--shard", o->shard,
                    "Run slice I of N (0 <= I < N; points p with p mod N == I); default: SLURM_ARRAY_TASK_ID/"
                    "SLURM_ARRAY_TASK_COUNT when set, else all points");
    cmd->add_option("--out", o->out, "Write the results CSV here (default: stdout)")->each([o](const std::string&) {
        o->out_given = true;
    });
    cmd->add_flag("--quiet", o->quiet, "No progress on stderr");
    cmd->callback([o] { naming_keys({{"shard", "--shard"}}, [&] { run_sweep_command(*o); }); });

    auto m = std::make_shared<MergeOptions>();
    auto* merge = app.add_subcommand("merge", "Join the shard parts of a sweep into the file a one-process sweep writes");
    merge->footer("Checks that the parts come from one study and that every shard and point is there once: docs/sweep.md\n"
                  "Examples (a study run in two shards, then joined):\n"
                  "  gpusched sweep examples/sweep-apsp.yaml --shard 0/2 --out apsp.part0.csv --quiet\n"
                  "  gpusched sweep examples/sweep-apsp.yaml --shard 1/2 --out apsp.part1.csv --quiet\n"
                  "  gpusched merge apsp.part0.csv apsp.part1.csv --out apsp.csv");
    merge->add_option("parts", m->parts, "Results CSV files of the shards")->required();
    merge->add_option("--out", m->out, "Merged results CSV")->required();
    merge->callback([m] { run_merge(*m); });
}

}  // namespace gpusched::cli

// Replay of a timeline CSV: one launch per (kernel, launch) pair, each block's duration from its row.
#include "gpusched/workloads/replay_timeline.h"

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <utility>

#include "gpusched/support/input_error.h"
#include "gpusched/support/key_error.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/timeline_csv.h"

namespace gpusched::workloads {

namespace {

constexpr const char* kWhat = "timeline CSV";
constexpr std::size_t kMaxLaunches = 1'000'000;
constexpr Time kUnset = std::numeric_limits<Time>::max();

struct Row {
    Time duration;
    std::uint32_t block;
    std::uint32_t line;
    std::uint32_t launch;  ///< index of its (kernel, launch) pair, in order of first appearance
};

struct LaunchKey {
    std::string kernel;
    std::string launch;
};

/// What the launches of one file share: the durations and each launch's work (aliased by the
/// launches' shared pointers, so a million launches make one allocation, not a million).
struct ReplayTimeline {
    ReplayDurations all;
    std::vector<ReplayWork> works;
};

std::string launch_label(const TimelineCsvReader& c, const std::string& kernel, const std::string& launch) {
    if (c.has_kernel() && c.has_launch()) return "kernel '" + kernel + "' launch '" + launch + "'";
    if (c.has_kernel()) return "kernel '" + kernel + "'";
    if (c.has_launch()) return "launch '" + launch + "'";
    return "the timeline";
}

/// Writes one launch's durations by block id into `out` (its n entries, kUnset on entry),
/// checking the ids are exactly 0..n-1. `rows` are the launch's rows in file order.
void durations_by_block(const std::vector<Row>& all_rows, std::span<const std::uint32_t> rows, const std::string& label,
                        const std::string& path, std::span<Time> out) {
    const std::size_t n = rows.size();
    const Row* out_of_range = nullptr;
    for (const std::uint32_t at : rows) {
        const Row& row = all_rows[at];
        if (row.block >= n) {
            if (out_of_range == nullptr) out_of_range = &row;
            continue;
        }
        if (out[row.block] != kUnset) {
            std::uint32_t first = 0;
            for (const std::uint32_t other : rows)
                if (all_rows[other].block == row.block) {
                    first = all_rows[other].line;
                    break;
                }
            throw InputError(path + ":" + std::to_string(row.line) + ": duplicate block " + std::to_string(row.block) +
                             " in " + label + " (first at line " + std::to_string(first) + ")");
        }
        out[row.block] = row.duration;
    }
    if (out_of_range != nullptr) {
        std::size_t missing = 0;
        while (missing < n && out[missing] != kUnset) ++missing;
        throw InputError(path + ":" + std::to_string(out_of_range->line) + ": block " +
                         std::to_string(out_of_range->block) + " but block " + std::to_string(missing) +
                         " is missing in " + label + " (its " + std::to_string(n) +
                         " rows must have block ids 0.." + std::to_string(n - 1) + " once each)");
    }
}

/// KeyError about `key` (replay_threads, replay_regs, replay_smem: the caller names them).
void check_parameter(const char* key, const char* what, std::int64_t value, std::int64_t min, std::int64_t max) {
    if (value < min || value > max)
        throw KeyError(key, std::to_string(value),
                       std::string(what) + " of the replayed kernel: expected an integer in [" + std::to_string(min) +
                           ", " + std::to_string(max) + "]");
}

}  // namespace

ReplayWork::ReplayWork(const ReplayDurations& all, std::size_t first, std::size_t count)
    : all_(&all), first_(first), count_(count) {}

Time ReplayWork::duration(std::uint64_t block) const {
    if (block >= count_)
        throw std::out_of_range("replay: block " + std::to_string(block) + " is beyond the " + std::to_string(count_) +
                                " blocks of " + all_->source);
    return all_->durations[first_ + block];
}

std::string ReplayWork::describe() const {
    return "replay of " + std::to_string(count_) + " blocks from " + all_->source;
}

Application load_replay_timeline(const std::string& path, int threads, int regs, std::int64_t dynamic_smem,
                                 std::uint64_t max_rows) {
    max_rows = std::min(max_rows, kMaxReplayRows);
    check_parameter("replay_threads", "threads per block", threads, 1, kMaxSpecThreads);
    check_parameter("replay_regs", "registers per thread", regs, 0, kMaxSpecRegisters);
    check_parameter("replay_smem", "dynamic shared memory bytes", dynamic_smem, 0, kMaxSpecSharedBytes);

    TimelineReadOptions options;
    options.max_rows = max_rows;
    TimelineCsvReader reader(path, options);
    std::vector<LaunchKey> launches;
    std::vector<Row> rows;
    std::map<std::pair<std::string, std::string>, std::size_t> launch_index;
    TimelineRow row;
    std::size_t current = 0;  // index of the previous row's launch: consecutive rows usually share it
    while (reader.next(row)) {
        if (reader.csv().line_number() > std::numeric_limits<std::uint32_t>::max())
            throw InputError(reader.csv().where() + ": too many lines in " + kWhat);
        const std::string& kernel = *row.kernel;
        const std::string& launch = *row.launch;
        if (launches.empty() || launches[current].kernel != kernel || launches[current].launch != launch) {
            auto [it, inserted] = launch_index.emplace(std::make_pair(kernel, launch), launches.size());
            if (inserted) {
                if (launches.size() >= kMaxLaunches)
                    throw InputError(reader.csv().where() + ": more than " + std::to_string(kMaxLaunches) +
                                     " distinct launches in " + kWhat);
                launches.push_back({kernel, launch});
            }
            current = it->second;
        }
        rows.push_back({row.end - row.start, static_cast<std::uint32_t>(row.block),
                        static_cast<std::uint32_t>(reader.csv().line_number()), static_cast<std::uint32_t>(current)});
    }
    if (launches.empty()) throw InputError(path + ": " + kWhat + " has a header but no block rows");

    launch_index.clear();

    // Each launch's rows in file order (a counting sort by launch), then its durations by block.
    std::vector<std::size_t> begin(launches.size() + 1, 0);
    for (const Row& row : rows) ++begin[row.launch + 1];
    for (std::size_t l = 0; l < launches.size(); ++l) begin[l + 1] += begin[l];
    std::vector<std::uint32_t> order(rows.size());
    {
        std::vector<std::size_t> fill(begin.begin(), begin.end() - 1);
        for (std::size_t at = 0; at < rows.size(); ++at) order[fill[rows[at].launch]++] = static_cast<std::uint32_t>(at);
    }
    const auto timeline = std::make_shared<ReplayTimeline>();
    timeline->all.source = path;
    timeline->all.durations.assign(rows.size(), kUnset);
    for (std::size_t l = 0; l < launches.size(); ++l) {
        const std::span<const std::uint32_t> of_launch(order.data() + begin[l], begin[l + 1] - begin[l]);
        durations_by_block(rows, of_launch, launch_label(reader, launches[l].kernel, launches[l].launch), path,
                           std::span<Time>(timeline->all.durations.data() + begin[l], of_launch.size()));
    }
    std::vector<Row>().swap(rows);
    std::vector<std::uint32_t>().swap(order);

    timeline->works.reserve(launches.size());
    for (std::size_t l = 0; l < launches.size(); ++l)
        timeline->works.emplace_back(timeline->all, begin[l], begin[l + 1] - begin[l]);
    Application app;
    app.description = "replay of " + path;
    app.launches.reserve(launches.size());
    for (std::size_t l = 0; l < launches.size(); ++l) {
        KernelLaunch& launch = app.launches.emplace_back();
        launch.name = launches[l].kernel.empty() ? "replay" : launches[l].kernel;
        launch.grid = Dim3{static_cast<std::uint32_t>(begin[l + 1] - begin[l]), 1, 1};
        launch.block = Dim3{static_cast<std::uint32_t>(threads), 1, 1};
        launch.registers_per_thread = regs;
        launch.dynamic_shared_bytes = dynamic_smem;
        launch.work = std::shared_ptr<const BlockWork>(timeline, &timeline->works[l]);
    }
    return app;
}

}  // namespace gpusched::workloads

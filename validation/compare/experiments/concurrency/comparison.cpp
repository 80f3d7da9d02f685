// Concurrency cases: each measured concurrent-kernel case replayed with its streams, priorities and issue times.
#include "experiments/concurrency/comparison.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>

#include "block_recorder.h"
#include "measured_table.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/engine/spec_time.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/support/input_error.h"
#include "experiments/placement/comparison.h"

namespace gpusched::validation {

namespace {

/// Block work of one measured launch: each block's measured duration.
class MeasuredDurations final : public workloads::BlockWork {
public:
    explicit MeasuredDurations(std::vector<Time> durations) : durations_(std::move(durations)) {}
    [[nodiscard]] Time duration(std::uint64_t block) const override { return durations_.at(block); }
    [[nodiscard]] std::string describe() const override {
        return "measured durations of " + std::to_string(durations_.size()) + " blocks";
    }

private:
    std::vector<Time> durations_;
};

/// First start and last end of a set of blocks.
struct Extent {
    Time first = ~Time{0};
    Time last = 0;
    void add(Time start, Time end) {
        first = std::min(first, start);
        last = std::max(last, end);
    }
};

double us(Time t) { return static_cast<double>(t) / 1e6; }

/// Per launch (index = the launch value) and over the case, relative to the case's first start.
struct Extents {
    Time first = ~Time{0};
    std::map<std::uint64_t, Extent> of_launch;
};

Extents extents_of(const std::vector<MeasuredBlock>& blocks) {
    Extents e;
    for (const auto& b : blocks) {
        e.first = std::min(e.first, b.start);
        e.of_launch[b.launch].add(b.start, b.end);
    }
    return e;
}

/// case -> launches, in cases.csv order of the cases and of their launches.
std::vector<std::pair<std::string, std::vector<ConcurrencyLaunch>>> read_cases(const std::string& path) {
    std::vector<std::pair<std::string, std::vector<ConcurrencyLaunch>>> cases;
    for (const auto& row : read_run_table(path, "concurrency case table",
                                          {"case", "launch", "kernel", "threads", "smem_bytes", "host_wait_us"})) {
        if (cases.empty() || cases.back().first != row.text("case")) cases.emplace_back(row.text("case"), std::vector<ConcurrencyLaunch>{});
        ConcurrencyLaunch l;
        l.launch = static_cast<std::uint64_t>(row.integer("launch", 0, 1023));
        if (l.launch != cases.back().second.size())
            throw InputError(row.where() + ": launch " + std::to_string(l.launch) + ": expected launches 0, 1, ... in order");
        l.kernel = row.text("kernel");
        l.threads = static_cast<int>(row.integer("threads", 1, 1 << 20));
        l.smem_bytes = row.integer("smem_bytes", 0, std::int64_t{1} << 40);
        l.host_wait_us = row.number("host_wait_us");
        if (l.host_wait_us < 0 || l.host_wait_us > 1e6)
            throw InputError(row.where() + ": host_wait_us must be in [0, 1e6], got " + row.text("host_wait_us"));
        cases.back().second.push_back(l);
    }
    return cases;
}

/// Stream, priority and the repetitions' spread of each launch from launch_spans.csv.
void add_spans(const std::string& path, std::vector<std::pair<std::string, std::vector<ConcurrencyLaunch>>>& cases) {
    std::map<std::pair<std::string, std::uint64_t>, std::pair<Extent, Extent>> spread;  // starts, ends
    std::map<std::pair<std::string, std::uint64_t>, std::pair<int, int>> stream_priority;
    for (const auto& row : read_run_table(path, "launch span table", {"case", "rep", "launch", "kernel", "stream", "priority",
                                                                      "first_start_ns", "last_end_ns"})) {
        const auto key = std::pair{row.text("case"), static_cast<std::uint64_t>(row.integer("launch", 0, 1023))};
        const Time start = static_cast<Time>(row.integer("first_start_ns", 0, std::int64_t{1} << 40));
        const Time end = static_cast<Time>(row.integer("last_end_ns", 0, std::int64_t{1} << 40));
        spread[key].first.add(start, start);
        spread[key].second.add(end, end);
        stream_priority[key] = {static_cast<int>(row.integer("stream", 0, 1023)),
                                static_cast<int>(row.integer("priority", -1024, 1024))};
    }
    for (auto& [name, launches] : cases)
        for (auto& l : launches) {
            const auto key = std::pair{name, l.launch};
            const auto it = stream_priority.find(key);
            if (it == stream_priority.end())
                throw InputError(path + ": no rows for case " + name + " launch " + std::to_string(l.launch));
            l.stream = it->second.first;
            l.priority = it->second.second;
            const auto& [starts, ends] = spread.at(key);
            l.start_spread_us = static_cast<double>(starts.last - starts.first) / 1e3;
            l.end_spread_us = static_cast<double>(ends.last - ends.first) / 1e3;
        }
}

}  // namespace

double ConcurrencyCase::start_error_percent(std::size_t k) const {
    return 100.0 * (launches[k].simulated_start_us - launches[k].measured_start_us) / measured_span_us;
}

double ConcurrencyCase::end_error_percent(std::size_t k) const {
    return 100.0 * (launches[k].simulated_end_us - launches[k].measured_end_us) / measured_span_us;
}

workloads::Application concurrency_application(const std::vector<ConcurrencyLaunch>& launches,
                                               const MeasuredTimeline& measured, const hw::GpuSpec& gpu) {
    std::map<std::uint64_t, std::vector<Time>> durations;  // per launch, by block; ~0 = not seen
    for (const auto& l : launches) durations[l.launch].assign(l.blocks, ~Time{0});
    for (const auto& b : measured.blocks) {
        const auto it = durations.find(b.launch);
        if (it == durations.end())
            throw InputError(measured.path + ": launch " + std::to_string(b.launch) + " is not in cases.csv");
        if (b.block >= it->second.size() || it->second[b.block] != ~Time{0})
            throw InputError(measured.path + ": launch " + std::to_string(b.launch) + ": block " + std::to_string(b.block) +
                             " is beyond its blocks or given twice");
        it->second[b.block] = b.end - b.start;
    }
    workloads::Application app;
    app.description = "concurrency replay of " + measured.path;
    const Time call = sim::overhead_ps(gpu.host_launch_interval_ns);  // bounded: a spec number
    double waited_us = 0;
    for (const auto& l : launches) {
        const auto it = durations.find(l.launch);
        if (l.blocks == 0) throw InputError(measured.path + ": launch " + std::to_string(l.launch) + " (" + l.kernel + ") has no blocks");
        if (std::any_of(app.streams.begin(), app.streams.end(), [&](const auto& s) { return s.id == l.stream; }))
            throw InputError(measured.path + ": launch " + std::to_string(l.launch) + " shares stream " +
                             std::to_string(l.stream) + " with an earlier launch (each case launch has its own stream)");
        app.streams.push_back({l.stream, workloads::StreamPriority::cuda(l.priority), {}});
        workloads::KernelLaunch& kernel = app.launches.emplace_back();
        kernel.name = l.kernel;
        kernel.grid = workloads::Dim3{static_cast<std::uint32_t>(l.blocks), 1, 1};
        kernel.block = workloads::Dim3{static_cast<std::uint32_t>(l.threads), 1, 1};
        kernel.dynamic_shared_bytes = l.smem_bytes;
        kernel.stream = l.stream;
        kernel.work = std::make_shared<MeasuredDurations>(it->second);
        waited_us += l.host_wait_us;
        const Time issued = call * l.launch + static_cast<Time>(std::llround(waited_us * 1e6));  // both bounded when read
        if (issued > 0) {
            workloads::Operation delay;
            delay.kind = workloads::Operation::Kind::delay;
            delay.stream = l.stream;
            delay.delay = issued;
            app.operations.push_back(delay);
        }
        workloads::Operation op;
        op.stream = l.stream;
        op.launch = app.launches.size() - 1;
        app.operations.push_back(op);
    }
    return app;
}

std::vector<ConcurrencyCase> validate_concurrency(const std::string& dir, const hw::GpuSpec& gpu,
                                                  const std::string& policy_name, bool keep_blocks) {
    namespace fs = std::filesystem;
    auto cases = read_cases((fs::path(dir) / "cases.csv").string());
    add_spans((fs::path(dir) / "launch_spans.csv").string(), cases);
    const auto policy = scheduler::make_policy(policy_name);
    std::vector<ConcurrencyCase> out;
    for (auto& [name, launches] : cases) {
        const MeasuredTimeline measured = read_measured_timeline((fs::path(dir) / ("timeline_" + name + ".csv")).string());
        for (auto& l : launches)
            l.blocks = static_cast<std::uint64_t>(std::count_if(measured.blocks.begin(), measured.blocks.end(),
                                                                [&](const auto& b) { return b.launch == l.launch; }));
        const workloads::Application app = concurrency_application(launches, measured, gpu);
        hw::GpuSpec case_gpu = gpu;
        if (policy_name == "walk" && case_gpu.dispatch_walk)
            if (const auto start = walk_start_of(measured.blocks, *case_gpu.dispatch_walk)) {
                case_gpu.dispatch_walk->start_row = start->first;
                case_gpu.dispatch_walk->lead_start = start->second;
            }
        sim::Simulation simulation(case_gpu, app, *policy, "fixed");
        BlockRecorder recorder;
        simulation.observe(recorder);
        simulation.run();
        std::vector<MeasuredBlock> simulated = measured_blocks(recorder);
        const Extents m = extents_of(measured.blocks);
        const Extents s = extents_of(simulated);
        ConcurrencyCase c;
        c.name = name;
        Time measured_last = 0, simulated_last = 0;
        for (auto& l : launches) {
            const Extent& me = m.of_launch.at(l.launch);
            const Extent& se = s.of_launch.at(l.launch);
            l.measured_start_us = us(me.first - m.first);
            l.measured_end_us = us(me.last - m.first);
            l.simulated_start_us = us(se.first - s.first);
            l.simulated_end_us = us(se.last - s.first);
            measured_last = std::max(measured_last, me.last);
            simulated_last = std::max(simulated_last, se.last);
        }
        c.measured_span_us = us(measured_last - m.first);
        c.simulated_span_us = us(simulated_last - s.first);
        c.launches = std::move(launches);
        if (keep_blocks) {
            c.measured_blocks = measured.blocks;
            c.simulated_blocks = std::move(simulated);
        }
        out.push_back(std::move(c));
    }
    return out;
}

}  // namespace gpusched::validation

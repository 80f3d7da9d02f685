// Skipped repeated waves (WaveReplay) give exactly the schedule of dispatching every block.
#include <doctest/doctest.h>

#include <sstream>

#include "gpusched/sim/output/summary_collector.h"
#include "support/sim_fixtures.h"

namespace gpusched {

namespace {

/// Every block runs `duration` and says so (the engine may replay its waves).
class UniformWork final : public workloads::BlockWork {
public:
    explicit UniformWork(Time duration) : duration_(duration) {}
    [[nodiscard]] Time duration(std::uint64_t) const override { return duration_; }
    [[nodiscard]] bool same_duration_for_every_block() const override { return true; }
    [[nodiscard]] std::string describe() const override { return "uniform test work"; }

private:
    Time duration_;
};

workloads::KernelLaunch uniform_launch(std::uint64_t blocks, int threads, Time duration, int stream = 0) {
    workloads::KernelLaunch k = test::launch(blocks, threads, 0, stream);
    k.work = std::make_shared<UniformWork>(duration);
    return k;
}

/// Needs no block (so waves may be skipped), but keeps the blocks it is given and the skipped totals.
class Partial final : public sim::SimObserver {
public:
    [[nodiscard]] bool needs_every_block() const override { return false; }
    void on_block_completed(const sim::BlockRecord& b) override { blocks.push_back(b); }
    void on_launch_repeated(const sim::RepeatedLaunch& r) override { skipped += r.units; }
    std::vector<sim::BlockRecord> blocks;
    std::uint64_t skipped = 0;
};

struct Outcome {
    sim::SimResult result;
    std::string summary;                  ///< write_summary_json
    std::vector<sim::BlockRecord> blocks;  ///< the blocks the observers were given, in completion order
    std::uint64_t replayed = 0;
    std::uint64_t skipped_seen = 0;
};

Outcome run(const hw::GpuSpec& gpu, const workloads::Application& app, const std::string& policy, bool replay,
            bool observed) {
    auto p = scheduler::make_policy(policy);
    sim::Engine engine(gpu, app, *p, "fixed");
    engine.set_wave_replay(replay);
    sim::SummaryCollector summary;
    Partial partial;
    if (observed) {
        engine.add_observer(summary);
        engine.add_observer(partial);
    }
    Outcome o;
    o.result = engine.run();
    if (observed) {
        std::ostringstream json;
        sim::write_summary_json(json, summary.summary());
        o.summary = json.str();
    }
    o.blocks = partial.blocks;
    o.replayed = engine.replayed_units();
    o.skipped_seen = partial.skipped;
    return o;
}

bool same_block(const sim::BlockRecord& a, const sim::BlockRecord& b) {
    return a.launch == b.launch && a.block == b.block && a.sm == b.sm && a.slot == b.slot && a.dispatch == b.dispatch &&
           a.start == b.start && a.end == b.end;
}

/// Every block the replayed run reports is the full run's block with the same index (SM, slot, dispatch, start, end).
bool blocks_match(const std::vector<sim::BlockRecord>& replayed, const std::vector<sim::BlockRecord>& full) {
    std::map<std::pair<std::size_t, std::uint64_t>, const sim::BlockRecord*> by_block;
    for (const auto& b : full) by_block[{b.launch, b.block}] = &b;
    for (const auto& b : replayed) {
        const auto it = by_block.find({b.launch, b.block});
        if (it == by_block.end() || !same_block(b, *it->second)) return false;
    }
    return true;
}

}  // namespace

TEST_CASE("wave replay: the same makespan, summary and blocks as dispatching every block") {
    int cases = 0, replayed_cases = 0;
    // The h100 preset's launch pipeline and completion channel stagger a wave's ends (refills follow each one),
    // so a launch never meets an empty GPU again there: nothing is skipped, the schedule the same.
    for (const std::string preset : {"small", "h100 without overheads", "host timeline", "h100"}) {
        const hw::GpuSpec gpu = preset == "small"                    ? test::small_gpu(6)
                                : preset == "h100 without overheads" ? test::h100_without_overheads()
                                : preset == "host timeline"          ? test::host_timeline_gpu()
                                                                     : hw::resolve_gpu(preset);
        for (const std::string policy : {"most-room", "round-robin", "sorted"}) {
            for (int threads : {64, 256, 1024}) {
                for (int streams : {1, 2}) {
                    // A long launch of identical blocks, a seeded one (not replayed), a short one, the long one again
                    // (memoised on an idle GPU), and a uniform one on the second stream beside them.
                    workloads::Application app;
                    app.launches.push_back(uniform_launch(25'000, threads, 7'000'000));
                    app.launches.push_back(test::seeded_launch(900, threads, 3, 5, 0));
                    app.launches.push_back(uniform_launch(3, threads, 2'000'000));
                    app.launches.push_back(app.launches.front());
                    app.launches.push_back(uniform_launch(4'000, threads, 5'000'000, streams - 1));
                    for (const bool observed : {false, true}) {
                        CAPTURE(preset);
                        CAPTURE(policy);
                        CAPTURE(threads);
                        CAPTURE(streams);
                        CAPTURE(observed);
                        const Outcome full = run(gpu, app, policy, false, observed);
                        const Outcome fast = run(gpu, app, policy, true, observed);
                        CHECK(full.replayed == 0);
                        CHECK(fast.result.makespan == full.result.makespan);
                        CHECK(fast.result.units == full.result.units);
                        CHECK(fast.summary == full.summary);
                        // The observers were given every block that was not skipped, exactly as without skipping,
                        // and the skipped ones as totals.
                        // (the memoised repeat of launch 0 comes as totals in both)
                        CHECK(fast.blocks.size() + fast.skipped_seen == full.blocks.size() + full.skipped_seen);
                        CHECK(blocks_match(fast.blocks, full.blocks));
                        if (observed) CHECK(fast.skipped_seen - full.skipped_seen == fast.replayed);
                        // most-room replays the long launch's waves; the other policies never skip.
                        CHECK((fast.replayed > 0) == (policy == "most-room" && preset != "h100"));
                        replayed_cases += fast.replayed > 0 ? 1 : 0;
                        ++cases;
                    }
                }
            }
        }
    }
    CHECK(cases == 144);
    CHECK(replayed_cases == 36);
}

TEST_CASE("wave replay: the maths of one launch's train of waves") {
    // 6 SMs x 8 blocks of 256 threads on the small GPU (2048 threads per SM): 48 per wave, each wave 10 us.
    // 1000 blocks: 20 full waves and a 40-block tail, so 1000 / 48 = 20.8 -> 21 waves, makespan 210 us.
    // Pass 1 (t = 0) is recorded, pass 2 (t = 10 us) replays n = (952 - 1) / 48 = 19 waves:
    // 19 x 48 = 912 blocks skipped, then the passes at 200 us dispatch the last 40.
    hw::GpuSpec gpu = test::small_gpu(6);
    const workloads::Application app = test::app_of({uniform_launch(1000, 256, 10'000'000)});
    const Outcome full = run(gpu, app, "most-room", false, false);
    const Outcome fast = run(gpu, app, "most-room", true, false);
    CHECK(full.result.makespan == fast.result.makespan);
    CHECK(fast.result.units == 1000);
    CHECK(fast.replayed == 912);
}

TEST_CASE("wave replay: a host timeline's calls in flight bound the skipped waves, the schedule unchanged") {
    // One thread: launch 0 (20,000 blocks of 7 us), then launch 1 on stream 1, whose call comes 300 us later while
    // launch 0 still runs (its waves up to then may be skipped, none past it), then a sync and launch 0 again.
    constexpr Time kUs = 1'000'000;
    for (const int threads : {128, 1024}) {
        workloads::Application app = test::app_of({uniform_launch(20'000, threads, 7 * kUs),
                                                   uniform_launch(700, threads, 3 * kUs, 1),
                                                   uniform_launch(20'000, threads, 7 * kUs)});
        app.operations = app.issue_order();
        app.host.push_back({"main",
                            {test::host_launch(0, 1 * kUs, 1 * kUs), test::host_launch(1, 300 * kUs, 1 * kUs),
                             test::host_sync(-1, 0, 1 * kUs), test::host_launch(2, 5 * kUs, 1 * kUs)},
                            ""});
        for (const bool small : {false, true}) {
            for (const bool observed : {false, true}) {
                CAPTURE(threads);
                CAPTURE(small);
                CAPTURE(observed);
                const hw::GpuSpec gpu = small ? test::host_timeline_gpu() : test::h100_without_overheads();
                const Outcome full = run(gpu, app, "most-room", false, observed);
                const Outcome fast = run(gpu, app, "most-room", true, observed);
                CHECK(fast.replayed > 0);
                CHECK(fast.result.makespan == full.result.makespan);
                CHECK(fast.summary == full.summary);
                CHECK(fast.blocks.size() + fast.skipped_seen == full.blocks.size() + full.skipped_seen);
                CHECK(blocks_match(fast.blocks, full.blocks));
            }
        }
    }
}

TEST_CASE("wave replay: off with an observer that needs every block") {
    const hw::GpuSpec gpu = test::small_gpu(6);
    const workloads::Application app = test::app_of({uniform_launch(5000, 256, 10'000'000)});
    auto policy = scheduler::make_policy("most-room");
    sim::Engine engine(gpu, app, *policy, "fixed");
    test::Recorder recorder;  // needs every block
    engine.add_observer(recorder);
    engine.run();
    CHECK(engine.replayed_units() == 0);
    CHECK(recorder.blocks.size() == 5000);
}

}  // namespace gpusched

// Completion groups (no observers) make exactly the dispatch decisions of one completion event per block.
#include <doctest/doctest.h>

#include <array>

#include "support/sim_fixtures.h"

namespace gpusched {

namespace {

using Trace = std::vector<std::array<std::int64_t, 3>>;

/// Forwards to another policy's dispatcher and writes down every call the engine makes:
/// the rooms it reports, the placements it gets and the refills it asks for, in order.
class Tracing final : public sim::KernelDispatcher {
public:
    Tracing(std::unique_ptr<sim::KernelDispatcher> inner, Trace& trace) : inner_(std::move(inner)), trace_(trace) {}
    std::optional<sim::Placement> next(const sim::SmView& sms) override {
        auto p = inner_->next(sms);
        trace_.push_back({1, p ? static_cast<std::int64_t>(p->block) : -1, p ? p->sm : -1});
        return p;
    }
    std::size_t next_batch(const sim::SmView& sms, std::span<sim::Placement> out) override {
        const std::size_t n = inner_->next_batch(sms, out);
        for (std::size_t i = 0; i < n; ++i) trace_.push_back({2, static_cast<std::int64_t>(out[i].block), out[i].sm});
        trace_.push_back({3, static_cast<std::int64_t>(n), 0});
        return n;
    }
    void sm_changed(int sm, const sim::SmView& sms) override {
        trace_.push_back({4, sm, sms.room(sm)});
        inner_->sm_changed(sm, sms);
    }
    void sms_changed(std::span<const int> changed, const sim::SmView& sms) override {
        for (int sm : changed) trace_.push_back({4, sm, sms.room(sm)});
        inner_->sms_changed(changed, sms);
    }
    std::optional<sim::Placement> refill(int sm) override {
        auto p = inner_->refill(sm);
        trace_.push_back({5, sm, p ? static_cast<std::int64_t>(p->block) : -1});
        return p;
    }
    [[nodiscard]] bool finished() const override { return inner_->finished(); }
    [[nodiscard]] bool warp_level() const override { return inner_->warp_level(); }

private:
    std::unique_ptr<sim::KernelDispatcher> inner_;
    Trace& trace_;
};

class TracingPolicy final : public sim::DispatchPolicy {
public:
    explicit TracingPolicy(const std::string& name) : inner_(scheduler::make_policy(name)) {}
    [[nodiscard]] std::string name() const override { return inner_->name(); }
    [[nodiscard]] bool work_conserving() const override { return inner_->work_conserving(); }
    [[nodiscard]] std::unique_ptr<sim::KernelDispatcher> start(const sim::LaunchContext& c) const override {
        trace.push_back({0, static_cast<std::int64_t>(c.launch->blocks()), 0});
        return std::make_unique<Tracing>(inner_->start(c), trace);
    }
    mutable Trace trace;

private:
    std::unique_ptr<sim::DispatchPolicy> inner_;
};

/// An observer that needs nothing per block (memoisation stays on) but turns completion groups off.
class Quiet final : public sim::SimObserver {
public:
    [[nodiscard]] bool needs_every_block() const override { return false; }
};

}  // namespace

TEST_CASE("completion groups: the same dispatch decisions, makespan and block count as one event per block") {
    int cases = 0;
    for (const char* preset : {"small", "h100", "c2075"}) {
        hw::GpuSpec gpu = std::string(preset) == "small" ? test::small_gpu(6) : hw::resolve_gpu(preset);
        gpu.sm_count = 6;
        gpu.sm_order.clear();
        gpu.completion_sweep.reset();
        for (const std::string policy : {"most-room", "round-robin", "static-rr", "min"}) {
            for (int values : {1, 2, 5}) {
                for (int streams : {1, 2}) {  // one stream: one launch at a time, so groups throughout
                    const bool memoise = streams == 1;
                    workloads::Application app;
                    const workloads::KernelLaunch first = test::seeded_launch(300, 256, values, 1, 0);
                    app.launches.push_back(first);
                    app.launches.push_back(first);  // identical: memoised on an idle GPU
                    app.launches.push_back(test::seeded_launch(90, 1024, values, 7, streams - 1));
                    app.launches.push_back(test::launch(200, 128, 3'000'000, 0));
                    const TracingPolicy grouped(policy);
                    const TracingPolicy per_block(policy);
                    sim::Engine a(gpu, app, grouped, "fixed");
                    a.set_memoise(memoise);
                    const sim::SimResult ra = a.run();
                    sim::Engine b(gpu, app, per_block, "fixed");
                    b.set_memoise(memoise);
                    Quiet quiet;
                    b.add_observer(quiet);
                    const sim::SimResult rb = b.run();
                    CAPTURE(preset);
                    CAPTURE(policy);
                    CAPTURE(values);
                    CAPTURE(streams);
                    CHECK(ra.makespan == rb.makespan);
                    CHECK(ra.units == rb.units);
                    CHECK(grouped.trace.size() > 100);
                    CHECK(grouped.trace == per_block.trace);
                    ++cases;
                }
            }
        }
    }
    CHECK(cases == 72);
}

}  // namespace gpusched

// The saturated-GPU fast path (KernelDispatcher::refill) places exactly what a dispatch pass would.
#include <doctest/doctest.h>


#include "support/sim_fixtures.h"

namespace gpusched {

namespace {

/// Forwards everything to another dispatcher; refill() too when `forward_refill`, counting
/// the placements it made, else never (the engine then always takes the general path).
class Forwarding final : public sim::KernelDispatcher {
public:
    Forwarding(std::unique_ptr<sim::KernelDispatcher> inner, bool forward_refill, int& refills)
        : inner_(std::move(inner)), forward_refill_(forward_refill), refills_(refills) {}
    std::optional<sim::Placement> next(const sim::SmView& sms) override { return inner_->next(sms); }
    std::size_t next_batch(const sim::SmView& sms, std::span<sim::Placement> out) override {
        return inner_->next_batch(sms, out);
    }
    void sm_changed(int sm, const sim::SmView& sms) override { inner_->sm_changed(sm, sms); }
    std::optional<sim::Placement> refill(int sm) override {
        if (!forward_refill_) return std::nullopt;
        auto placement = inner_->refill(sm);
        if (placement) ++refills_;
        return placement;
    }
    [[nodiscard]] bool finished() const override { return inner_->finished(); }
    [[nodiscard]] bool warp_level() const override { return inner_->warp_level(); }

private:
    std::unique_ptr<sim::KernelDispatcher> inner_;
    bool forward_refill_;
    int& refills_;
};

class ForwardingPolicy final : public sim::DispatchPolicy {
public:
    ForwardingPolicy(const std::string& name, bool forward_refill)
        : inner_(scheduler::make_policy(name)), forward_refill_(forward_refill) {}
    [[nodiscard]] std::string name() const override { return inner_->name(); }
    [[nodiscard]] bool work_conserving() const override { return inner_->work_conserving(); }
    [[nodiscard]] std::unique_ptr<sim::KernelDispatcher> start(const sim::LaunchContext& c) const override {
        return std::make_unique<Forwarding>(inner_->start(c), forward_refill_, refills);
    }
    mutable int refills = 0;

private:
    std::unique_ptr<sim::DispatchPolicy> inner_;
    bool forward_refill_;
};

struct RunResult {
    test::Recorder recorder;
    Time makespan = 0;
};

RunResult run_with(const hw::GpuSpec& gpu, const workloads::Application& app, const sim::DispatchPolicy& policy) {
    sim::Engine engine(gpu, app, policy, "fixed");
    RunResult r;
    engine.add_observer(r.recorder);
    r.makespan = engine.run().makespan;
    return r;
}

}  // namespace

TEST_CASE("most-room's refill fast path gives the same schedule as dispatch passes") {
    // For each case the same workload runs twice: with most-room's refill() (the engine asks
    // it whenever one block leaves an otherwise full GPU at an instant of its own) and with
    // refill() hidden (a dispatch pass every time). Every block
    // must land on the same SM with the same dispatch, start and end times.
    int cases = 0;
    for (const char* preset : {"h100", "c2075"}) {
        for (int values : {1, 3, 1000}) {
            for (std::uint32_t seed = 1; seed <= 3; ++seed) {
                hw::GpuSpec gpu = hw::resolve_gpu(preset);
                gpu.sm_count = 6;
                gpu.sm_order.clear();
                if (gpu.completion_sweep) gpu.completion_sweep = test::two_visit_sweep(6);  // h100: the swept channel
                workloads::Application app;
                app.launches.push_back(test::seeded_launch(200 + seed * 37, 256, values, seed, 0));
                app.launches.push_back(test::seeded_launch(90, 1024, values, seed + 7, 1));
                app.launches.push_back(test::seeded_launch(150, 96, values, seed + 11, 0));
                const ForwardingPolicy with_refill("most-room", true);
                const ForwardingPolicy general("most-room", false);
                const RunResult fast = run_with(gpu, app, with_refill);
                const RunResult slow = run_with(gpu, app, general);
                // Scattered durations leave most ends alone at their instant: the fast path
                // must then have been taken; with one duration every wave ends together.
                if (values == 1000) CHECK(with_refill.refills > 30);
                CHECK(general.refills == 0);
                CAPTURE(preset);
                CAPTURE(values);
                CAPTURE(seed);
                CHECK(fast.makespan == slow.makespan);
                CHECK(fast.recorder.per_sm == slow.recorder.per_sm);
                REQUIRE(fast.recorder.blocks.size() == slow.recorder.blocks.size());
                for (std::size_t i = 0; i < fast.recorder.blocks.size(); ++i) {
                    const sim::BlockRecord& a = fast.recorder.blocks[i];
                    const sim::BlockRecord& b = slow.recorder.blocks[i];
                    CHECK(a.launch == b.launch);
                    CHECK(a.block == b.block);
                    CHECK(a.sm == b.sm);
                    CHECK(a.dispatch == b.dispatch);
                    CHECK(a.start == b.start);
                    CHECK(a.end == b.end);
                }
                ++cases;
            }
        }
    }
    CHECK(cases == 18);
}

}  // namespace gpusched

// The `shared` model counts a block's warps with the work bound to the GPU when that knows more warps run.
#include <doctest/doctest.h>

#include "gpusched/workloads/gpu_bound_work.h"
#include "support/sim_fixtures.h"

using namespace gpusched;

namespace {
constexpr Time ns = 1000;  // picoseconds

/// One SM issuing C = 4 slots per cycle at 1000 MHz (4 slots per ns), no bandwidth or L1 limit.
hw::GpuSpec one_sm() { return test::unlimited_issue_gpu(1); }

workloads::WarpWork thousand_slots(std::uint64_t) {
    workloads::WarpWork w;
    w.issue_slots = 1000;
    return w;
}

/// Says `given` of a block's warps work; bound to a GPU (when `binds`), every warp does.
class EdgeWork final : public workloads::BlockWork, public workloads::GpuBoundWork {
public:
    EdgeWork(int given, bool binds) : given_(given), binds_(binds) {}
    Time duration(std::uint64_t) const override { return 0; }
    int active_warps(std::uint64_t, int) const override { return given_; }
    std::optional<workloads::WarpWork> warp_work(std::uint64_t b) const override { return thousand_slots(b); }
    std::string describe() const override { return "edge work"; }
    std::shared_ptr<const workloads::BlockWork> bind(const workloads::GpuContext&) const override {
        if (!binds_) return nullptr;
        return std::make_shared<test::LambdaWork>([](std::uint64_t) { return Time{0}; },
                                                  [](std::uint64_t, int w) { return w; }, thousand_slots);
    }
    workloads::WorkDerivation derivation(const workloads::GpuContext&) const override { return {}; }

private:
    int given_;
    bool binds_;
};

Time makespan(int given, bool binds) {
    auto k = test::launch(1, 128, 0);  // one block of 4 warps
    k.work = std::make_shared<EdgeWork>(given, binds);
    return test::run(one_sm(), test::app_of({std::move(k)}), "most-room", nullptr, "shared").makespan;
}
}  // namespace

TEST_CASE("a bound work's active warps replace the launch's own count") {
    // One active warp alone on the SM takes all C = 4 slots per ns: 1000 / 4 = 250 ns.
    CHECK(makespan(1, false) == 250 * ns);
    // Bound, all 4 warps work: each gets 4 / 4 = 1 slot per ns, 1000 ns.
    CHECK(makespan(1, true) == 1000 * ns);
    // Two of four by the launch's count: 2 slots per ns each, 500 ns; bound: 1000 ns.
    CHECK(makespan(2, false) == 500 * ns);
    CHECK(makespan(2, true) == 1000 * ns);
}

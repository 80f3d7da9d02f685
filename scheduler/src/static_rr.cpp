// static-rr: block i pre-assigned to the (i mod S)-th SM in the GPU's order (the interval paper's *Full*).
#include "policies.h"
#include "preassigned_dispatcher.h"

namespace gpusched::scheduler {

namespace {

class StaticRoundRobinDispatcher final : public PreassignedDispatcher {
public:
    explicit StaticRoundRobinDispatcher(const sim::LaunchContext& c)
        : PreassignedDispatcher(c), blocks_(c.launch->blocks()) {
        set_total(blocks_);
    }

protected:
    // Position p owns blocks p, p + S, p + 2S, ...: floor(B / S) of them, one more if p < B mod S.
    [[nodiscard]] std::uint64_t queue_length(int p) const override {
        const auto s = static_cast<std::uint64_t>(positions());
        return blocks_ / s + (static_cast<std::uint64_t>(p) < blocks_ % s ? 1 : 0);
    }
    [[nodiscard]] std::uint64_t block_at(int p, std::uint64_t j) const override {
        return static_cast<std::uint64_t>(p) + j * static_cast<std::uint64_t>(positions());
    }

private:
    std::uint64_t blocks_;
};

}  // namespace

std::unique_ptr<sim::DispatchPolicy> make_static_rr() { return std::make_unique<PolicyOf<StaticRoundRobinDispatcher>>("static-rr", false); }

}  // namespace gpusched::scheduler

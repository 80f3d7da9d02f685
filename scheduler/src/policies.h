// Factories of the built-in dispatch policies (one per file), used by the registry.
#pragma once

#include <memory>
#include <string>

#include "gpusched/sim/dispatch_policy.h"

namespace gpusched::scheduler {

/// A policy that is just its name, whether it is work-conserving, and a dispatcher type
/// constructed from the LaunchContext.
template <typename Dispatcher>
class PolicyOf final : public sim::DispatchPolicy {
public:
    PolicyOf(std::string name, bool work_conserving, bool keeps_state = false)
        : name_(std::move(name)), work_conserving_(work_conserving), keeps_state_(keeps_state) {}
    [[nodiscard]] std::string name() const override { return name_; }
    [[nodiscard]] bool work_conserving() const override { return work_conserving_; }
    [[nodiscard]] bool keeps_state() const override { return keeps_state_; }
    [[nodiscard]] std::unique_ptr<sim::KernelDispatcher> start(const sim::LaunchContext& c) const override {
        return std::make_unique<Dispatcher>(c);
    }

private:
    std::string name_;
    bool work_conserving_;
    bool keeps_state_;
};

/// Gives a dispatcher next() and next_batch() from its non-virtual `place(sms)`, so a
/// batch of placements costs one virtual call (CRTP).
template <typename Self>
class InlinePlacement : public sim::KernelDispatcher {
public:
    std::optional<sim::Placement> next(const sim::SmView& sms) final { return self().place(sms); }
    std::size_t next_batch(const sim::SmView& sms, std::span<sim::Placement> out) final {
        std::size_t n = 0;
        while (n < out.size()) {
            const auto placement = self().place(sms);
            if (!placement) break;
            out[n++] = *placement;
        }
        return n;
    }

private:
    Self& self() { return static_cast<Self&>(*this); }
};

std::unique_ptr<sim::DispatchPolicy> make_most_room();
std::unique_ptr<sim::DispatchPolicy> make_round_robin();
std::unique_ptr<sim::DispatchPolicy> make_static_rr();
std::unique_ptr<sim::DispatchPolicy> make_buckets();
std::unique_ptr<sim::DispatchPolicy> make_sorted();
std::unique_ptr<sim::DispatchPolicy> make_min_fluid();
std::unique_ptr<sim::DispatchPolicy> make_walk();

}  // namespace gpusched::scheduler

// Factories of the built-in dispatch policies (one per file), used by the registry.
#pragma once

#include <memory>
#include <string>

#include "cluster_placement.h"
#include "gpusched/sim/dispatch_policy.h"

namespace gpusched::scheduler {

/// A dispatcher type whose dispatchers share state over a run: its nested `RunState` (a
/// sim::PolicyRunState, default-constructed by begin_run) arrives as LaunchContext::run_state.
template <typename Dispatcher>
concept KeepsRunState = requires { typename Dispatcher::RunState; };

/// A policy that is just its name, whether it is work-conserving, and a dispatcher type
/// constructed from the LaunchContext. Cluster launches get make_cluster_dispatcher (the
/// dispatcher type's order for 1-block clusters of a block-level policy).
template <typename Dispatcher>
class PolicyOf final : public sim::DispatchPolicy {
public:
    PolicyOf(std::string name, bool work_conserving) : name_(std::move(name)), work_conserving_(work_conserving) {}
    [[nodiscard]] std::string name() const override { return name_; }
    [[nodiscard]] bool work_conserving() const override { return work_conserving_; }
    [[nodiscard]] bool keeps_state() const override { return KeepsRunState<Dispatcher>; }
    [[nodiscard]] std::unique_ptr<sim::PolicyRunState> begin_run() const override {
        if constexpr (KeepsRunState<Dispatcher>)
            return std::make_unique<typename Dispatcher::RunState>();
        else
            return nullptr;
    }
    [[nodiscard]] std::unique_ptr<sim::KernelDispatcher> start(const sim::LaunchContext& c) const override {
        if (c.launch->cluster) return make_cluster_dispatcher(c, [&c] { return std::make_unique<Dispatcher>(c); });
        return std::make_unique<Dispatcher>(c);
    }

private:
    std::string name_;
    bool work_conserving_;
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

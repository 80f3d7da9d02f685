// MvaMemo and AgeStepMemo: mva_throughput's values and the issue queue's age-order steps kept by their arguments' bits: a repeat costs a lookup.
#pragma once

#include <cstdint>
#include <vector>

namespace gpusched::sim {

/// A direct-mapped table of mva_throughput(warps, think, service) results (issue_queue.h), keyed by
/// the arguments' exact bits: a hit returns the value computed for exactly those arguments, so results
/// are the same bits as without the table. The recurrence costs a division per customer; the `shared`
/// model's L1 queue asks it for up to one customer per resident block (or warp) at every model call
/// on the SM, while the SMs of a launch return again and again to a few dozen (customers, load)
/// states (APSP Min-plus n = 4000, 8x8 blocks on the h100: 499,868 calls, 60 distinct arguments).
/// A miss computes and overwrites the entry. Not shared between threads: one per simulation.
class MvaMemo {
public:
    MvaMemo();
    /// mva_throughput(warps, think, service), recalled or computed.
    double throughput(int warps, double think, double service);
    /// Calls answered from the table so far.
    [[nodiscard]] std::uint64_t hits() const { return hits_; }

private:
    struct Entry {
        std::uint64_t think = 0;
        std::uint64_t service = 0;
        int warps = -1;  ///< -1: empty
        double value = 0;
    };
    std::vector<Entry> entries_;
    std::uint64_t hits_ = 0;
};

/// The same kind of table for the issue queue's age-order steps (age_order_step, issue_queue.h: the
/// recurrence and the two divisions around it), which the SMs of a launch of equal blocks repeat:
/// each SM's k-th oldest block meets the same utilisation. Keyed by the bits of (warps, think,
/// service, used); one per simulation, shared by its SMs' queues (IssueQueue::recall_from).
class AgeStepMemo {
public:
    AgeStepMemo();
    /// age_order_step(warps, think, service, used), recalled or computed; `used` < 1.
    double step(int warps, double think, double service, double& used);
    /// Calls answered from the table so far.
    [[nodiscard]] std::uint64_t hits() const { return hits_; }

private:
    struct Entry {
        std::uint64_t think = 0;
        std::uint64_t service = 0;
        std::uint64_t used = 0;
        int warps = -1;  ///< -1: empty
        double per_warp = 0;
        double used_after = 0;
    };
    std::vector<Entry> entries_;
    std::uint64_t hits_ = 0;
};

}  // namespace gpusched::sim

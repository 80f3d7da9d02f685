// MvaMemo: mva_throughput's values kept by the bits of their arguments, so a repeated call costs a lookup.
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

}  // namespace gpusched::sim

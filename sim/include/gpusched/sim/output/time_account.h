// TimeAccount and TimeAccountCollector: where the SM-time of a run went, an exact account in picoseconds.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <map>
#include <vector>

#include "gpusched/sim/observer.h"

namespace gpusched::sim {

/// The account's categories. Busy: warp slots held by running blocks, split into warps that
/// work and warps of partial blocks that retired at once. Idle: everything else.
enum class TimeCategory : std::uint8_t {
    active_warps,      ///< warp slots of running blocks whose warps do work
    inactive_warps,    ///< warp slots of running blocks whose warps do none (partial blocks)
    launch_overhead,   ///< no kernel ready: the last kernel_launch_ns before a kernel became ready
    dispatch_latency,  ///< slots of dispatched blocks not yet started, and empty SMs while ready blocks wait for the dispatcher
    tail,              ///< free slots while no block waits: the last partial wave, a grid smaller than the GPU
    occupancy_limit,   ///< free slots of an SM holding blocks while blocks wait (the occupancy limit binds)
    waits,             ///< no kernel ready nor running, before the launch overhead: dependencies, events, copies
    host_bound,        ///< the same, when the host issues operations one call at a time (issue: host-calls)
};
inline constexpr std::size_t kTimeCategories = 8;

/// "active warps", "inactive warps", "launch overhead", ...
const char* time_category_name(TimeCategory category);
/// "active_warps", "inactive_warps", ... (JSON keys).
const char* time_category_key(TimeCategory category);

/// SM-time = sm_count x makespan picoseconds, every picosecond of every SM in exactly one category:
/// sum(ps) == total() always (integers, no rounding left over).
struct TimeAccount {
    int sm_count = 0;
    Time makespan = 0;
    std::array<Time, kTimeCategories> ps{};  ///< indexed by TimeCategory

    [[nodiscard]] Time at(TimeCategory c) const { return ps[static_cast<std::size_t>(c)]; }
    [[nodiscard]] Time total() const;  ///< sm_count x makespan
    [[nodiscard]] Time busy() const { return at(TimeCategory::active_warps) + at(TimeCategory::inactive_warps); }
    [[nodiscard]] Time idle() const { return total() - busy(); }
    [[nodiscard]] Time sum() const;    ///< the categories added up (equal to total())
};

/// Observer that builds a TimeAccount. Each SM's time [0, makespan) is cut where its state or the
/// GPU's changes; a piece of length L on an SM of M warp slots holding w warps of started blocks
/// (a of them active) and p warps of dispatched blocks not yet started gives floor(L a / M) to
/// active warps, floor(L w / M) - that to inactive warps, floor(L (w + p) / M) - floor(L w / M)
/// to dispatch latency and the rest to the free slots: occupancy limit while some ready launch
/// has blocks not yet dispatched, else tail. An SM holding no block at all is, by the GPU's state:
/// dispatch latency (ready blocks wait), tail (every block of the running launches is placed),
/// or, with no launch ready or running, launch overhead (the kernel_launch_ns before the next
/// launch became ready), host-bound (host-calls workloads) or waits (otherwise, and after the
/// last kernel). Memory: O(SMs x resident blocks + launches), never per block.
///
/// `warp_units`: the policy dispatches warps, not blocks (BlockRecords are warps of one warp each).
/// TimeRangeError when SM-time reaches 2^63 ps (about 19 hours of simulated time on 132 SMs).
class TimeAccountCollector : public SimObserver {
public:
    explicit TimeAccountCollector(bool warp_units = false) : warp_units_(warp_units) {}
    void on_begin(const RunInfo& info) override;
    void on_kernel_ready(std::size_t launch, Time when) override;
    void on_block_dispatched(const BlockRecord& block) override;
    void on_block_completed(const BlockRecord& block) override;
    void on_kernel_completed(std::size_t launch, Time first_start, Time end) override;
    void on_end(Time makespan) override;

    [[nodiscard]] const TimeAccount& account() const { return account_; }

private:
    /// What the GPU as a whole is doing, from one instant on.
    enum class GpuState : std::uint8_t { waiting, draining, gap_open, gap_overhead, gap_host, gap_waits };
    struct Pending {
        Time start = 0;
        int warps = 0;
        int active = 0;
    };
    struct SmState {
        Time at = 0;             ///< accounted up to here
        int warps = 0;           ///< warps of started blocks
        int active = 0;          ///< of which active
        int pending_warps = 0;   ///< warps of dispatched blocks not yet started
        std::vector<Pending> pending;
        std::size_t cursor = 0;  ///< entry of its class's timeline in force at `at`
        std::size_t group = 0;   ///< its class: the SMs the same streams' SM masks allow
    };
    void unit_warps(const BlockRecord& block, int& warps, int& active) const;
    void advance(std::size_t sm, Time to);
    void account_piece(const SmState& s, Time length, GpuState gpu);
    void set_gpu_state(Time when);
    void close_gap(Time when, bool launch_follows);
    void close_gap_of(std::vector<std::pair<Time, GpuState>>& timeline, Time when, bool launch_follows) const;
    /// Adds `delta` to the waiting launches of every SM class that launch's stream may use.
    void count_waiting(std::size_t launch, int delta);

    bool warp_units_;
    const workloads::Application* app_ = nullptr;
    int max_warps_ = 0;
    Time launch_overhead_ = 0;
    bool host_calls_ = false;
    std::vector<std::uint64_t> units_;        ///< per launch: units it dispatches
    std::vector<std::uint64_t> dispatched_;   ///< per launch: units dispatched so far
    std::vector<std::uint8_t> phase_;         ///< per launch: 0 not ready, 1 waiting, 2 draining, 3 done
    std::vector<int> warps_per_block_;        ///< per launch
    std::vector<std::shared_ptr<const workloads::BlockWork>> works_;  ///< per launch, as the execution model runs it
    std::size_t waiting_ = 0;
    std::size_t draining_ = 0;
    /// SMs are grouped into classes alike in which streams' SM masks allow them (one class when no
    /// stream has a mask); per class: its waiting launches, and the timeline of its state (an SM
    /// outside every waiting launch's mask is in the tail, not waiting for the dispatcher).
    std::vector<std::size_t> class_waiting_;
    std::vector<std::vector<std::pair<Time, GpuState>>> timelines_;
    std::map<int, std::vector<std::size_t>> stream_classes_;  ///< masked streams: the classes they may use
    std::vector<SmState> sms_;
    TimeAccount account_;
};

/// "where the time went" block of text: SM-time, busy and idle with their parts, microseconds of
/// SM-time (three decimals) and percent of the total (one decimal).
void write_time_account_text(std::ostream& out, const TimeAccount& account);
/// The account as one JSON object (no newline): sm_count, makespan_ps, total_ps, busy_ps, idle_ps,
/// then one `<key>_ps` per category; integers, so the categories add up to total_ps exactly.
std::string time_account_json(const TimeAccount& account);

}  // namespace gpusched::sim

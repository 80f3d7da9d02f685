// LaunchBinding: which resource limits a launch (issue, latency, bandwidth, occupancy, launch or host overhead).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "gpusched/sim/observer.h"
#include "gpusched/sim/execution/shared_execution.h"

namespace gpusched::sim {

/// What binds a launch. The `shared` model's warp takes about the largest of its terms
/// (ExecutionTerms), so that term binds: doubling any other resource changes nothing.
enum class Binding : std::uint8_t {
    duration,   ///< `fixed` model: each block runs the duration its work model gives
    issue,      ///< the SM's issue slots
    latency,    ///< the warp's latency floor, and the SM already holds all the warps it can
    occupancy,  ///< the latency floor, with more blocks waiting than fit: more resident warps would overlap them
    l1,         ///< the SM's L1 data path
    l2,         ///< the L2 bandwidth
    dram,       ///< device-memory bandwidth
    launch,     ///< the launch runs shorter than its launch overhead (kernel_launch_ns)
    host,       ///< host-issued launches: it runs shorter than the host's launch interval
};

/// "duration", "issue", "latency", "occupancy", "l1", "l2", "dram", "launch", "host".
const char* binding_name(Binding binding);
/// One plain sentence on what `binding` means and what would not help.
const char* binding_meaning(Binding binding);

/// A launch's static binding: from its shape and work on the GPU, before the run.
struct LaunchTerms {
    Binding binds = Binding::duration;
    std::optional<ExecutionTerms> terms;  ///< the `shared` model's terms (none under `fixed`)
    int warps_per_sm = 0;                  ///< active warps per SM the terms assume
    int busy_sms = 0;                      ///< SMs the terms assume busy
    [[nodiscard]] auto key() const {
        const ExecutionTerms e = terms.value_or(ExecutionTerms{});
        return std::make_tuple(binds, terms.has_value(), e.issue, e.latency, e.l1, e.l2, e.dram, warps_per_sm, busy_sms);
    }
    bool operator==(const LaunchTerms& o) const { return key() == o.key(); }
};

/// The static binding of each launch of a run, computed once per distinct (work, blocks,
/// occupancy): its first block's work on the GPU (workloads::work_on_gpu, at the GPU's clock),
/// min(blocks_per_sm, ceil(blocks / SMs)) blocks of it resident on each of min(SMs, blocks)
/// SMs. A million launches of one kernel cost one computation.
class LaunchBindings {
public:
    /// Reads info.app (no launches without it) and info.gpu (without it every launch is `duration`).
    explicit LaunchBindings(const RunInfo& info);
    /// Launch i's terms; std::out_of_range past the last launch.
    [[nodiscard]] const LaunchTerms& of(std::size_t launch) const { return distinct_.at(of_launch_.at(launch)); }
    /// Index of launch i's terms in distinct().
    [[nodiscard]] std::uint32_t index_of(std::size_t launch) const { return of_launch_.at(launch); }
    [[nodiscard]] const std::vector<LaunchTerms>& distinct() const { return distinct_; }
    /// The dynamic binding once the launch ran from `start` to `end`: `host` when the workload's
    /// launches are host calls and it ran shorter than host_launch_interval_ns, `launch` when it ran
    /// shorter than kernel_launch_ns, else its static binding.
    [[nodiscard]] Binding after_run(std::size_t launch, Time start, Time end) const;

private:
    std::vector<LaunchTerms> distinct_;
    std::vector<std::uint32_t> of_launch_;
    Time host_interval_ = 0;    ///< 0 unless the workload's launches are host calls
    Time launch_overhead_ = 0;  ///< kernel_launch_ns
};

}  // namespace gpusched::sim

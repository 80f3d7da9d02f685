// KernelLaunch and BlockWork: one kernel launch's shape and its lazily generated per-block work.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "gpusched/hw/cluster_occupancy.h"
#include "gpusched/hw/occupancy.h"
#include "gpusched/support/time.h"

namespace gpusched::workloads {

/// Grid or block dimensions.
struct Dim3 {
    std::uint32_t x = 1, y = 1, z = 1;
    [[nodiscard]] std::uint64_t count() const { return std::uint64_t{x} * y * z; }
    bool operator==(const Dim3&) const = default;
};

/// The work of one active warp for the `shared` execution model (DESIGN.md 2.5). All active
/// warps of a block carry the same work; inactive warps (threads outside the data, e.g. at
/// matrix edges) retire at once, though the block holds its resources until its last warp ends.
struct WarpWork {
    double issue_slots = 0;   ///< W: warp-instructions the warp must issue
    Time latency_bound = 0;   ///< L: it cannot finish faster than this (dependency chains, memory latency)
    double dram_bytes = 0;    ///< bytes the warp moves to or from device memory
    double l2_bytes = 0;      ///< further bytes it moves that hit in L2 (not in dram_bytes)
    double l1_wavefronts = 0; ///< 128-byte L1/shared-memory accesses it makes (the SM's L1 data path)
    /// Its block's warps reach the L1 path together (they pass barriers together), so under
    /// execution.l1_model `queue` the block, not each warp, waits there as one customer.
    bool l1_by_block = false;
};

/// The work of each block of one launch, generated on demand by block index (never
/// materialised per block, so a billion-block launch costs no memory). Implementations
/// are immutable and deterministic: the same block index always gives the same answer.
class BlockWork {
public:
    virtual ~BlockWork() = default;
    /// `fixed` execution model: how long block `block` runs once started, in picoseconds.
    [[nodiscard]] virtual Time duration(std::uint64_t block) const = 0;
    /// True only when duration() is the same for every block (the engine then repeats whole
    /// waves of the launch instead of dispatching them again: sim/engine/wave_replay.h).
    [[nodiscard]] virtual bool same_duration_for_every_block() const { return false; }
    /// Warps of `block` that do work; partial blocks at matrix edges have fewer (the
    /// others retire at once). Default: every warp of the block.
    [[nodiscard]] virtual int active_warps(std::uint64_t block, int warps_per_block) const {
        (void)block;
        return warps_per_block;
    }
    /// Checks the work's own per-block counts (such as a given number of active warps)
    /// against the `warps_per_block` of each block on the GPU at hand; InputError naming the
    /// key when one exceeds it. Called once per launch when a simulation starts.
    virtual void check_block_warps(int warps_per_block) const { (void)warps_per_block; }
    /// `shared` execution model: the work of each active warp of `block`; nullopt when this
    /// work model only knows whole-block durations (synthetic, replay).
    [[nodiscard]] virtual std::optional<WarpWork> warp_work(std::uint64_t block) const {
        (void)block;
        return std::nullopt;
    }
    /// One line for summaries, e.g. "uniform 10us..50us (seed 7)".
    [[nodiscard]] virtual std::string describe() const = 0;
};

/// One kernel launch: shape, resources, stream, and work.
struct KernelLaunch {
    std::string name;               ///< e.g. "synthetic", "apsp-minplus"
    std::string family;             ///< an imported kernel's family (workloads::kernel_family_names()), "" none
    std::string work_from;          ///< where an imported kernel's work came from (work_from_names()), "" none
    Dim3 grid;
    Dim3 block;                     ///< threads per block = block.count()
    int registers_per_thread = 0;
    std::int64_t static_shared_bytes = 0;
    std::int64_t dynamic_shared_bytes = 0;
    int barriers_per_block = 1;
    hw::Carveout carveout{};
    int stream = 0;                 ///< stream id (see StreamConfig)
    /// Thread-block cluster shape (key `cluster`, cc 9.0+): its blocks are co-scheduled in one
    /// GPC (docs/scheduling.md "Thread-block clusters"); none = an ordinary launch.
    std::optional<hw::ClusterShape> cluster;
    bool cluster_nonportable = false;  ///< key `cluster_nonportable`: up to clusters.max_size_nonportable
    std::shared_ptr<const BlockWork> work;

    [[nodiscard]] std::uint64_t blocks() const { return grid.count(); }
    [[nodiscard]] int threads_per_block() const { return static_cast<int>(block.count()); }
    /// The occupancy request for this launch's blocks.
    [[nodiscard]] hw::OccupancyRequest occupancy_request() const {
        hw::OccupancyRequest r;
        r.threads_per_block = threads_per_block();
        r.registers_per_thread = registers_per_thread;
        r.static_shared_bytes = static_shared_bytes;
        r.dynamic_shared_bytes = dynamic_shared_bytes;
        r.barriers_per_block = barriers_per_block;
        r.carveout = carveout;
        return r;
    }
};

}  // namespace gpusched::workloads

// The `streamcluster` generator: Rodinia's pgain (gain) kernel with the CDS paper's rake size R, and its copies back.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpusched/support/time.h"
#include "gpusched/workloads/application.h"
#include "gpusched/workloads/cycle_latency.h"
#include "gpusched/workloads/gpu_bound_work.h"
#include "gpusched/workloads/generator_registry.h"
#include "gpusched/workloads/kernel_launch.h"

namespace gpusched::workloads {

/// What follows each gain kernel: nothing, or the device-to-host copies of the work array and the
/// switch flags into pinned or pageable host memory.
enum class StreamclusterCopy { none, pinned, pageable };

/// The problem and the per-thread costs (docs/workloads.md, `streamcluster`).
struct StreamclusterKeys {
    std::uint64_t points = 1;          ///< N: points of the pass (the paper's WI_app)
    std::uint64_t dims = 1;            ///< D: coordinates per point
    std::uint64_t centers = 20;        ///< K: open centres; every thread owns a row of K + 1 floats
    std::uint64_t rake = 1;            ///< R: points per thread (tines T = ceil(N / R))
    std::uint64_t calls = 1;           ///< gain-kernel invocations (each with its copies)
    StreamclusterCopy copy = StreamclusterCopy::pinned;
    std::uint64_t flag_bytes = 1;      ///< bytes per point of the switch flags copied back (0: no flag copy)
    double instr_per_dim = 6;          ///< distance loop body: 2 loads, FADD, FFMA, address add, loop branch
    double instr_per_point = 20;       ///< per point: weight/cost/assign loads, compare, work-row update, indexing
    double dim_latency_cycles = 0;     ///< dependency-chain cycles per distance-loop trip (0: no latency bound)
    bool dim_latency_given = false;    ///< dim_latency_cycles was given: the GPU does not derive it
    double ns_per_instr = 1;           ///< `fixed` model only: ns per warp-instruction of a block's busiest warp

    /// T = ceil(N / R): threads that do work (the paper's tines).
    [[nodiscard]] std::uint64_t tines() const { return (points + rake - 1) / rake; }
    /// Points thread t handles: t, t + T, t + 2T, ... below N, i.e. N div T, plus 1 when t < N mod T
    /// (0 for t >= T).
    [[nodiscard]] std::uint64_t points_of_thread(std::uint64_t t) const;
    /// Points threads [t0, t1) handle together.
    [[nodiscard]] std::uint64_t points_of_threads(std::uint64_t t0, std::uint64_t t1) const;
    /// The work array copied back: T rows of K + 1 floats.
    [[nodiscard]] std::uint64_t work_bytes() const { return tines() * (centers + 1) * 4; }
    /// The switch flags copied back: N x flag_bytes.
    [[nodiscard]] std::uint64_t switch_bytes() const { return points * flag_bytes; }
};

/// Per-block work of one gain launch of `threads_per_block` threads per block.
/// Bound to a GPU without dim_latency_cycles given, the latency per trip is the distance loop's
/// chain there (streamcluster_trip_chain; coordinates from L2 when N x D x 4 B fit, else DRAM).
class StreamclusterWork final : public BlockWork, public CycleLatencyWork, public GpuBoundWork {
public:
    StreamclusterWork(StreamclusterKeys keys, std::uint64_t threads_per_block);

    /// `fixed`: issue slots of the block's busiest warp x ns_per_instr.
    [[nodiscard]] Time duration(std::uint64_t block) const override;
    /// ceil(threads of the block below T / 32): the last block is partial.
    [[nodiscard]] int active_warps(std::uint64_t block, int warps_per_block) const override;
    /// issue_slots = p x (D x instr_per_dim + instr_per_point) with p the points of the block's first
    /// (busiest) thread; dram_bytes = the block's bytes / its active warps (see block_dram_bytes).
    [[nodiscard]] std::optional<WarpWork> warp_work(std::uint64_t block) const override;
    /// p x D x dim_latency_cycles.
    [[nodiscard]] double latency_bound_cycles(std::uint64_t block) const override;
    [[nodiscard]] std::string describe() const override;
    /// The work with dim_latency_cycles derived from the GPU; nullptr when it was given.
    [[nodiscard]] std::shared_ptr<const BlockWork> bind(const GpuContext& context) const override;
    [[nodiscard]] WorkDerivation derivation(const GpuContext& context) const override;

    /// Device-memory bytes of the whole block: per point 4D (its coordinates) + 12 (weight, cost,
    /// assignment); per working thread 4(K + 1) (its work row written back).
    [[nodiscard]] double block_dram_bytes(std::uint64_t block) const;
    /// Points the first thread of `block` handles (the most any thread of the block handles).
    [[nodiscard]] std::uint64_t busiest_points(std::uint64_t block) const;
    /// Threads of `block` below T.
    [[nodiscard]] std::uint64_t active_threads(std::uint64_t block) const;
    [[nodiscard]] double issue_slots(std::uint64_t block) const;
    [[nodiscard]] const StreamclusterKeys& keys() const { return keys_; }
    [[nodiscard]] std::uint64_t threads_per_block() const { return threads_per_block_; }

private:
    StreamclusterKeys keys_;
    std::uint64_t threads_per_block_;
};

/// Blocks of the gain kernel: ceil(T / threads_per_block).
std::uint64_t streamcluster_blocks(const StreamclusterKeys& keys, std::uint64_t threads_per_block);

/// The copies after one gain kernel: the work array, then the switch flags (when flag_bytes > 0);
/// none for copy=none.
std::vector<Operation> streamcluster_copies(const StreamclusterKeys& keys);

/// The `streamcluster` generator: keys points, dims (required), centers, rake, calls, copy,
/// flag_bytes, instr_per_dim, instr_per_point, dim_latency_cycles, ns_per_instr; threads default 256;
/// blocks/grid are errors (the grid follows from N, R and the threads).
KernelGeneratorInfo streamcluster_generator();

}  // namespace gpusched::workloads

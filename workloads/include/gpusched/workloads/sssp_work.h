// SsspWork: per-block work of the relax, minimum and update kernels of one SSSP iteration, from Crauser's sets.
#pragma once

#include <cstdint>
#include <array>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/support/time.h"
#include "gpusched/workloads/crauser_sssp.h"
#include "gpusched/workloads/cycle_latency.h"
#include "gpusched/workloads/gpu_bound_work.h"
#include "gpusched/workloads/graph.h"
#include "gpusched/workloads/kernel_launch.h"

namespace gpusched::workloads {

/// The three kernels of one iteration (Alg. 1 of the APSP paper, seed 002; reduce4 for the minimum).
enum class SsspKernel { relax, minimum, update };

/// "relax", "minimum", "update".
std::string sssp_kernel_name(SsspKernel kernel);

/// Threads per block of each kernel (the paper tunes them separately) and the model's other settings.
struct SsspKernelConfig {
    std::uint32_t relax_threads = 256;
    std::uint32_t min_threads = 256;
    std::uint32_t update_threads = 256;
    CrauserCriteria criteria = CrauserCriteria::out;
    double edge_latency_cycles = 0;  ///< relax: dependent-chain cycles per edge-loop trip (0: no latency bound)
    bool edge_latency_given = false; ///< edge_latency_cycles was given: the GPU does not derive it
    double ns_per_instr = 1;         ///< `fixed` model only: ns per warp-instruction of a block's busiest warp

    bool operator==(const SsspKernelConfig&) const = default;  ///< every field (the tables cache's key)
};

/// Blocks of each kernel's grid: ceil(n / T) for relax and update (a thread per node), ceil(n / 2T) for
/// the minimum (reduce4: each thread loads two elements).
std::uint64_t sssp_grid_blocks(SsspKernel kernel, std::uint32_t nodes, const SsspKernelConfig& config);

/// What one block of one kernel launch does, counted from the sets (docs/workloads.md, `sssp`).
struct SsspBlockCost {
    std::uint32_t active_threads = 0;  ///< threads whose node (first element) is inside the graph
    std::uint32_t active_warps = 0;    ///< ceil(active_threads / 32)
    double issue_slots = 0;            ///< warp-instructions of the whole block (SIMT: a warp runs the longest path of its threads)
    double busiest_warp_slots = 0;     ///< of its busiest warp (the `fixed` model's block duration)
    double dram_bytes = 0;             ///< device-memory bytes of the whole block (no cache modelled)
    double latency_cycles = 0;         ///< latency bound of each warp, SM clock cycles (given edge_latency_cycles)
    double latency_steps = 0;          ///< relax: edge-loop trips of the block's longest loop (latency = steps x edge latency)
    bool frontier = false;             ///< relax: the block holds a frontier node; update: a node of U_i
    int load_levels = 0;               ///< minimum: dependent loads of the block's longest warp (docs/workloads.md)
};

/// The kernels' chain segments on a GPU (sssp_chains), SM cycles: what a warp's floor is built of
/// when edge_latency_cycles is not given.
struct SsspLatency {
    double relax_entry = 0;
    double relax_frontier = 0;
    double edge = 0;           ///< one edge-loop trip
    double min_entry = 0;
    double min_level = 0;      ///< one level of the minimum's dependent loads
    double min_tree = 0;
    double update_entry = 0;
    double update_test = 0;
};

/// Everything the three kernels' per-block work depends on, for one SSSP instance: per block, the
/// iterations in which its nodes are frontier nodes (with warp-level out-degree maxima and edge counts)
/// and its nodes' settle iterations sorted (so |U_i| of a block and its warps holding a node of U_i are
/// binary searches). O(n) memory per instance, independent of the iteration count.
class SsspTables {
public:
    SsspTables(const Graph& graph, const SsspRun& run, const SsspKernelConfig& config);

    /// The cost of block `block` of `kernel` in iteration `iteration` (std::out_of_range past the grid).
    /// A block's cost is asked for several times (its warps at dispatch; its work, latency floor and
    /// warps when it starts), so recent answers are kept per thread: a small direct-mapped cache keyed
    /// by these tables' serial number, kernel, iteration and block, which returns the same values.
    [[nodiscard]] SsspBlockCost cost(SsspKernel kernel, std::uint32_t iteration, std::uint64_t block) const;
    /// The kernels' chain segments on `gpu` (derive_sssp_latency) and each kernel's derivation
    /// (sssp_latency_steps and the GPU numbers read): functions of the GPU and these tables alone, so
    /// derived once per GPU for every launch of the instance (thousands bind to one GPU); thread-safe.
    [[nodiscard]] SsspLatency latency_on(const hw::GpuSpec& gpu) const;
    [[nodiscard]] WorkDerivation derivation_on(const hw::GpuSpec& gpu, SsspKernel kernel) const;
    [[nodiscard]] const SsspKernelConfig& config() const { return config_; }
    [[nodiscard]] std::uint32_t nodes() const { return nodes_; }
    [[nodiscard]] std::uint64_t edges() const { return edges_; }
    [[nodiscard]] std::uint32_t source() const { return source_; }
    [[nodiscard]] const std::vector<SsspIteration>& iterations() const { return iterations_; }
    /// Bytes its tables hold (their vectors' elements; not the per-GPU derivations): what keeping it costs.
    [[nodiscard]] std::size_t table_bytes() const;

    /// Frontier nodes of a block in one iteration, aggregated over its warps.
    struct FrontierEntry {
        std::uint32_t iteration = 0;
        std::uint32_t nodes = 0;
        std::uint32_t warps = 0;          ///< warps holding at least one of those nodes
        std::uint32_t max_degree = 0;     ///< largest out-degree among them
        std::uint64_t sum_warp_max_degree = 0;  ///< over those warps, each warp's largest out-degree (its loop trips)
        std::uint64_t edges_scanned = 0;
        std::uint64_t edges_relaxed = 0;  ///< edges into nodes still unsettled in that iteration
    };
    /// Values per block, each block's run sorted ascending.
    struct SortedPerBlock {
        std::vector<std::uint32_t> values;
        std::vector<std::uint64_t> offsets;  ///< blocks + 1
        /// How many of block `block`'s values exceed `threshold`.
        [[nodiscard]] std::uint32_t count_above(std::uint64_t block, std::uint32_t threshold) const;
    };
    struct FrontierTable {
        std::vector<FrontierEntry> entries;  ///< by block, then iteration
        std::vector<std::uint32_t> iterations;  ///< entries' iterations: the same order, dense for the search
        std::vector<std::uint64_t> offsets;  ///< blocks + 1
        [[nodiscard]] const FrontierEntry* find(std::uint64_t block, std::uint32_t iteration) const;
    };

private:
    struct OnGpu {
        hw::GpuSpec gpu;
        std::optional<SsspLatency> latency;
        std::array<std::optional<WorkDerivation>, 3> derivation;  ///< by SsspKernel
    };
    /// The entry of `gpu` in on_gpu_ (added if absent); derived_mutex_ must be held.
    OnGpu& on_gpu(const hw::GpuSpec& gpu) const;
    [[nodiscard]] SsspBlockCost compute_cost(SsspKernel kernel, std::uint32_t iteration, std::uint64_t block) const;

    std::uint64_t serial_;  ///< unique per SsspTables object of the process: the cost cache's key
    SsspKernelConfig config_;
    std::uint32_t nodes_;
    std::uint64_t edges_;
    std::uint32_t source_;
    std::vector<SsspIteration> iterations_;
    FrontierTable relax_frontier_;   ///< blocks of relax_threads
    FrontierTable update_settled_;   ///< blocks of update_threads (F_{i+1} = the frontier entries of i + 1)
    SortedPerBlock update_nodes_;    ///< settle iterations of each update block's nodes
    SortedPerBlock update_warps_;    ///< per update warp, the largest settle iteration of its nodes
    SortedPerBlock min_elements_;    ///< settle iterations of each minimum block's 2T elements
    SortedPerBlock min_groups_;      ///< per (warp, load) group of 32 elements, the largest settle iteration
    /// Per minimum (warp, load) group, in block order: the iterations [begin, end) in which it holds
    /// a reached node of U_i (merged, ascending), and their offsets (groups + 1).
    std::vector<std::pair<std::uint32_t, std::uint32_t>> min_reached_;
    std::vector<std::uint64_t> min_reached_offsets_;
    mutable std::mutex derived_mutex_;
    mutable std::vector<OnGpu> on_gpu_;  ///< what latency_on and derivation_on derived, per GPU
    /// Per minimum (warp, load) group, in block order (slot 0's warps, then slot 1's): the largest
    /// settle iteration of its elements (0 when it has none).
    std::vector<std::uint32_t> min_group_settle_;
    /// The minimum's dependent loads in iteration `iteration` for the group `group`: 0 (no element),
    /// 1 (U), 2 (dist too: an element of U_i), 3 (the out-weight too: a reached element of U_i; OUT
    /// and both only).
    [[nodiscard]] int min_group_levels(std::uint64_t group, std::uint32_t iteration) const;
};

/// The BlockWork of one launch: kernel `kernel` of iteration `iteration` of an instance.
/// Bound to a GPU without edge_latency_cycles given, each kernel's floor is built from its chain
/// segments there (sssp_chains, sssp_edge_chain; L2 hits when the instance's arrays fit in L2).
class SsspWork final : public BlockWork, public CycleLatencyWork, public GpuBoundWork {
public:
    /// `derived`: the chain segments of a copy bound to a GPU.
    SsspWork(std::shared_ptr<const SsspTables> tables, SsspKernel kernel, std::uint32_t iteration,
             std::optional<SsspLatency> derived = std::nullopt);

    /// `fixed`: the busiest warp's issue slots x ns_per_instr.
    [[nodiscard]] Time duration(std::uint64_t block) const override;
    /// The block's active threads in warps of ceil(threads / warps_per_block) threads.
    [[nodiscard]] int active_warps(std::uint64_t block, int warps_per_block) const override;
    /// The block's issue slots and bytes spread evenly over its active 32-thread warps; latency 0 (cycles below).
    [[nodiscard]] std::optional<WarpWork> warp_work(std::uint64_t block) const override;
    [[nodiscard]] double latency_bound_cycles(std::uint64_t block) const override;
    /// The launch with its chain segments derived from the GPU; nullptr when edge_latency_cycles was given.
    [[nodiscard]] std::shared_ptr<const BlockWork> bind(const GpuContext& context) const override;
    [[nodiscard]] WorkDerivation derivation(const GpuContext& context) const override;
    /// e.g. "sssp relax, source 3, iteration 2 of 9: |F| 12, |U| 980, 240 edges".
    [[nodiscard]] std::string describe() const override;

    [[nodiscard]] SsspKernel kernel() const { return kernel_; }
    [[nodiscard]] std::uint32_t iteration() const { return iteration_; }
    [[nodiscard]] const SsspTables& tables() const { return *tables_; }

private:
    std::shared_ptr<const SsspTables> tables_;
    SsspKernel kernel_;
    std::uint32_t iteration_;
    std::optional<SsspLatency> derived_;
};

}  // namespace gpusched::workloads

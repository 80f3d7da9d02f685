// ApspWork: the block work of the APSP kernels (Min-plus, Floyd-Warshall), by block category, lazily.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gpusched/support/time.h"
#include "gpusched/workloads/apsp_grid.h"
#include "gpusched/workloads/cycle_latency.h"
#include "gpusched/workloads/gpu_bound_work.h"
#include "gpusched/workloads/generator_registry.h"
#include "gpusched/workloads/kernel_launch.h"

namespace gpusched::workloads {

/// What each active warp of an APSP kernel does; the same in every block (Alg. 2 and 4 run the
/// same loop in every thread that is inside the matrix).
struct ApspWarpCost {
    double issue_slots = 0;            ///< warp-instructions per active warp
    double latency_cycles = 0;         ///< dependency-chain bound per warp, SM clock cycles (0: none)
    double dram_bytes_per_thread = 0;  ///< device-memory bytes per active thread (eqs. 4-5, 23-24)
    double l2_bytes_per_thread = 0;    ///< bytes per active thread that hit in L2 (once bound to a GPU)
    double l1_wavefronts = 0;          ///< 128-byte L1/shared-memory accesses per warp (once bound)
    /// Every warp of every block runs the loop (once bound; Min-plus: a thread outside the matrix
    /// still loads its element of each shared tile and passes the barriers), so edge blocks have
    /// no inactive warps and their bytes are spread over all warps. Else (the paper's eqs. 7, 9,
    /// 11; Floyd-Warshall, whose threads outside return) only warps with a thread inside work.
    bool every_warp_active = false;
};

/// The cost of an APSP kernel's warps on a given GPU (ApspWork::bind); nullopt: nothing to bind.
/// The GPU numbers it reads go through GpuNumbers; it appends one line per derived part to the steps.
using ApspCostOnGpu =
    std::function<std::optional<ApspWarpCost>(const GpuContext&, GpuNumbers&, std::vector<std::string>&)>;

/// Block work of an APSP kernel launch. Per block it looks up the block's category (full, right,
/// bottom, last) and answers from four precomputed numbers: no per-block storage.
class ApspWork final : public BlockWork, public CycleLatencyWork, public GpuBoundWork {
public:
    /// `kernel` names it in describe(); `launches` is how many times the host launches it;
    /// `fixed_duration` is every block's duration in the `fixed` model; `on_gpu` (may be empty)
    /// gives the cost once the GPU is known (bind()).
    ApspWork(std::string kernel, ApspGrid grid, ApspWarpCost cost, std::uint64_t launches, Time fixed_duration,
             ApspCostOnGpu on_gpu = {});

    /// The `fixed` stand-in: issue_slots x ns_per_instr, the same for every block.
    [[nodiscard]] Time duration(std::uint64_t block) const override;
    /// Exact active warps of the block's category (ApspGrid::active_warps); every warp of the
    /// block when the cost says every_warp_active.
    [[nodiscard]] int active_warps(std::uint64_t block, int warps_per_block) const override;
    /// issue_slots; latency_bound 0 (see latency_bound_cycles); dram_bytes (and l2_bytes) = bytes
    /// per thread x the block's active threads / its active 32-thread warps (all its warps when
    /// every_warp_active; so the block's total is exact); l1_wavefronts per warp.
    [[nodiscard]] std::optional<WarpWork> warp_work(std::uint64_t block) const override;
    [[nodiscard]] double latency_bound_cycles(std::uint64_t block) const override;
    /// The same launch with the cost `on_gpu` gives for the GPU; nullptr without one.
    [[nodiscard]] std::shared_ptr<const BlockWork> bind(const GpuContext& context) const override;
    [[nodiscard]] WorkDerivation derivation(const GpuContext& context) const override;
    /// e.g. "apsp-minplus n=100 block=16: 7x7 grid, 7 launches; per warp 535 issue slots, 1848 B".
    [[nodiscard]] std::string describe() const override;

    [[nodiscard]] const ApspGrid& grid() const { return grid_; }
    [[nodiscard]] const ApspWarpCost& cost() const { return cost_; }
    [[nodiscard]] std::uint64_t launches() const { return launches_; }

private:
    std::string kernel_;
    ApspGrid grid_;
    ApspWarpCost cost_;
    std::uint64_t launches_;
    Time fixed_duration_;
    ApspCostOnGpu on_gpu_;
};

/// The launch count of a launch built by an APSP generator (KernelGeneratorInfo::launches).
std::uint64_t apsp_launch_count(const KernelLaunch& launch);

/// The keys both APSP generators take besides n and block, with their defaults.
struct ApspCommonKeys {
    double p_min = 0.5;        ///< probability that a thread updates D and P (the paper's P_min)
    double elem_bytes = 4;     ///< bytes per element of D and P
    double ns_per_instr = 1;   ///< `fixed` model only: nanoseconds per warp-instruction
};

/// Help for p_min, elem_bytes and ns_per_instr.
std::vector<SpecKeyInfo> apsp_common_key_info();

/// Reads p_min ([0, 1]), elem_bytes ([1, 1024]) and ns_per_instr ([0, 10^6]).
ApspCommonKeys parse_apsp_common_keys(SpecArgs& args);

/// The work of an APSP launch; fails naming ns_per_instr when issue_slots x ns_per_instr is
/// beyond 2^63 ps.
std::shared_ptr<const ApspWork> make_apsp_work(SpecArgs& args, ApspGrid grid, ApspWarpCost cost,
                                               std::uint64_t launches, double ns_per_instr,
                                               ApspCostOnGpu on_gpu = {});

}  // namespace gpusched::workloads

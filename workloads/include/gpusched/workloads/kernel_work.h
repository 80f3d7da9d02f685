// KernelWork and the generic `kernel` generator: a kernel the project did not write, described per warp or by a measured duration.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/support/time.h"
#include "gpusched/workloads/cycle_latency.h"
#include "gpusched/workloads/gpu_bound_work.h"
#include "gpusched/workloads/generator_registry.h"
#include "gpusched/workloads/kernel_launch.h"
#include "gpusched/workloads/measured_work.h"
#include "gpusched/workloads/work_notes.h"

namespace gpusched::workloads {

/// Every block identical: each active warp carries `warp` (latency in time) and `latency_cycles`
/// (converted at the GPU's clock); `fixed` runs every block for `fixed_duration`.
///
/// A measured launch whose grid is the reference GPU's resident-block capacity (`pool_blocks`:
/// a persistent kernel, e.g. cuBLAS's GEMMs with one block per SM and a tile scheduler) is one
/// pool of work: bound to a GPU with fewer resident blocks R, blocks 0..R-1 each carry
/// pool_blocks / R times the work and the others none (they start late and find no work left),
/// instead of a second wave (docs/workloads.md, "`kernel`: measured launches").
class KernelWork final : public BlockWork, public CycleLatencyWork, public WorkNotes, public GpuBoundWork {
public:
    struct Settings {
        WarpWork warp;
        double latency_cycles = 0;
        int active_warps = 0;        ///< 0: every warp of the block
        std::string active_warps_key;  ///< names the key in messages
        Time fixed_duration = 0;
        std::string description;
        std::vector<std::string> notes;  ///< notes that hold on any GPU (the duration-only rule)
        std::uint64_t pool_blocks = 0;   ///< the persistent-kernel rule applies: the grid's blocks (0: it does not)
        std::string reference_gpu;       ///< the GPU the pool was measured on (for the note)
        hw::OccupancyRequest request;    ///< the launch's blocks (for the note: resident blocks on a GPU)
        std::uint64_t pool_resident = 0; ///< bound: the blocks that share the pool (0: not pooled)
        /// The no-overlap rule (measured launches with DRAM bytes and a floor): memory_floor_ps of the
        /// floor (memory_floor_cycles of latency_cycles at the reference clock) is DRAM transfer time;
        /// bound to a GPU it becomes memory_floor_ps x (that GPU's DRAM time per wave / the reference's).
        double memory_floor_ps = 0;
        double memory_floor_cycles = 0;
        double reference_dram_wave_ps = 0;  ///< the launch's DRAM time per wave on the reference GPU
        std::uint64_t launch_blocks = 0;    ///< the launch's grid (for its DRAM time on another GPU)
        int launch_warps_per_block = 0;
        std::string reference_gpu_name;     ///< the GPU the transfer was measured on (for derivation())
        /// The compute part of the floor (measured launches with flops of a known dtype): compute_floor_cycles
        /// of latency_cycles at the reference clock are its FLOPs at reference_flops_per_sm_cycle; bound to a
        /// GPU they run at that GPU's rate for compute_dtype (compute_rate_on) and clock.
        double compute_floor_cycles = 0;
        double reference_flops_per_sm_cycle = 0;
        double compute_blocks_per_sm = 0;  ///< ceil(B / S) / waves on the reference GPU: blocks sharing an SM's rate
        std::string compute_dtype;
        /// The power-limited tensor clock (hw/tensor_clock.h): a launch with tensor FLOPs measured on a GPU that
        /// states the limit ran at reference_tensor_clock_mhz (its cycles are counted at reference_clock_mhz) with
        /// tensor_activity per SM; bound to a GPU, its floor's SM part runs at that GPU's power-limited clock for
        /// tensor_activity x min(B, S') busy SMs (tensor_clock_factor). 0: no such launch.
        double tensor_activity = 0;
        double reference_tensor_clock_mhz = 0;
        double reference_clock_mhz = 0;
        Time calibration_target = 0;        ///< a measured launch with a floor: its measured duration (else 0)
        std::string calibration_gpu;        ///< the preset it was measured on
        bool calibrate_bytes = false;       ///< a DRAM-term launch (no floor): calibration scales its DRAM bytes
        bool engine_calibrated = false;     ///< with_calibration() made it: no further calibration
        /// The engine calibration written into the workload by `gpusched import` (keys calibrated_floor and
        /// calibration): the scale the search found and the label it was found under. Not part of identity():
        /// sim/execution/measured_calibration.h uses the scale only when the label matches, and then the
        /// result is the search's.
        std::optional<double> stored_scale;
        std::string stored_label;
    };
    /// A measured launch whose floor the engine may calibrate: its measured duration on its reference GPU.
    struct CalibrationTarget {
        Time duration = 0;
        std::string reference_gpu;
    };
    /// The target when this is a measured launch with a latency floor, or DRAM-bound, not yet
    /// calibrated by the engine.
    [[nodiscard]] std::optional<CalibrationTarget> calibration_target() const;
    /// The same work with its floor (latency_cycles and its DRAM-transfer part), or for a DRAM-bound
    /// launch its DRAM bytes, times `scale`, marked calibrated (sim/execution/measured_calibration.h).
    /// `note` (when not empty) is added to its notes.
    [[nodiscard]] std::shared_ptr<const KernelWork> with_calibration(double scale, const std::string& note = {}) const;
    /// The calibration written into the workload (Settings::stored_scale and stored_label), if any.
    [[nodiscard]] std::optional<double> stored_scale() const { return s_.stored_scale; }
    [[nodiscard]] const std::string& stored_label() const { return s_.stored_label; }
    /// Every setting, exactly (numbers by their bits): two works with the same identity run alike on
    /// any GPU and describe themselves alike, so the engine calibration of one holds for the other
    /// (sim/execution/measured_calibration.h remembers calibrations by it). A field added to Settings must be
    /// added to it.
    [[nodiscard]] std::string identity() const;
    explicit KernelWork(Settings settings);

    [[nodiscard]] Time duration(std::uint64_t block) const override;
    /// Unless the persistent-kernel rule gave the work to some blocks only.
    [[nodiscard]] bool same_duration_for_every_block() const override { return s_.pool_resident == 0; }
    [[nodiscard]] int active_warps(std::uint64_t block, int warps_per_block) const override;
    void check_block_warps(int warps_per_block) const override;
    [[nodiscard]] std::optional<WarpWork> warp_work(std::uint64_t block) const override;
    [[nodiscard]] double latency_bound_cycles(std::uint64_t block) const override;
    [[nodiscard]] std::string describe() const override;
    [[nodiscard]] std::vector<std::string> notes(const hw::GpuSpec& gpu, const std::string& execution) const override;
    [[nodiscard]] std::shared_ptr<const BlockWork> bind(const GpuContext& context) const override;
    [[nodiscard]] WorkDerivation derivation(const GpuContext& context) const override;

private:
    /// Whether the persistent-kernel rule spreads the pool on `gpu` (fewer resident blocks than pool_blocks).
    [[nodiscard]] bool pooled_on(const hw::GpuSpec& gpu) const;
    /// The memory part of the floor on `context.gpu` in ps (the no-overlap rule), `pooled`: one wave.
    [[nodiscard]] double memory_floor_on(const GpuContext& context, bool pooled) const;
    /// The FLOPs per SM per cycle the compute part of the floor runs at on `gpu`: its tensor (or FP32 FMA)
    /// rate for compute_dtype; a GPU without that rate runs it on its FP32 FMA units (`rule` says so),
    /// a GPU with neither at the reference's rate.
    [[nodiscard]] double compute_rate_on(const hw::GpuSpec& gpu, std::string* rule = nullptr) const;
    /// The compute part of the floor bound to `context`, in its cycles: compute_floor_cycles x the blocks that
    /// share an SM's FLOP rate there (ceil(B / S') / waves', or the resident blocks per SM of a pooled launch)
    /// over the reference's x (reference rate / its rate for compute_dtype), x `share` (a pooled block's work).
    [[nodiscard]] double compute_cycles_on(const GpuContext& context, bool pooled, double share) const;
    /// What the floor's SM cycles (counted at the reference's clock_mhz) weigh on `gpu` for the power-limited
    /// tensor clock: (f_ref / c_ref) x (c / f) with f that GPU's tensor clock for the launch's busy SMs and c its
    /// clock_mhz; 1 for a launch without tensor activity, or on a GPU that states no limit (`rule` says so:
    /// the launch keeps the reference's fraction of the clock).
    [[nodiscard]] double tensor_clock_factor(const hw::GpuSpec& gpu, std::string* rule = nullptr) const;
    /// The launch's busy SMs on `gpu` (tensor_activity x min(B, S')) and that GPU's power-limited tensor clock for
    /// them (nullopt: the GPU states no limit).
    [[nodiscard]] double busy_tensor_sms(const hw::GpuSpec& gpu) const;
    [[nodiscard]] std::optional<double> tensor_clock_on(const hw::GpuSpec& gpu) const;
    Settings s_;
};

/// The `kernel` generator (docs/workloads.md, "`kernel`"): generic shape keys, and either the
/// work of each active warp (warp_instr, warp_latency or warp_latency_cycles, warp_dram_bytes,
/// warp_l2_bytes, warp_l1_wavefronts, active_warps, ns_per_instr) or a measured launch (measured,
/// measured_gpu, and optional totals instructions, dram_bytes, l2_bytes; fit_measured_work).
KernelGeneratorInfo kernel_generator();

}  // namespace gpusched::workloads

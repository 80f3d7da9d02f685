// Per-warp work of a launch known by its measured duration (and optional Nsight Compute totals) on a reference GPU.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/support/time.h"
#include "gpusched/workloads/kernel_launch.h"

namespace gpusched::workloads {

/// What a trace (and Nsight Compute) says about one launch on the reference GPU.
struct MeasuredLaunch {
    Time measured = 0;                   ///< the launch's duration: first block start to last block end
    std::optional<double> instructions;  ///< warp-instructions executed by the whole launch (smsp__inst_executed.sum)
    std::optional<double> dram_bytes;    ///< bytes read and written in device memory (dram__bytes.sum)
    std::optional<double> l2_bytes;      ///< bytes through L2, hits and misses (lts__t_bytes.sum)
    std::optional<double> flops;         ///< floating-point operations of the whole launch (from the profiler or shapes)
    std::string dtype;                   ///< the data type of its flops (measured_dtype_names()), "" unknown
    std::string family;                  ///< the importer's kernel family (kernel_family_names()), "" unknown
    std::string work_from;               ///< where the totals came from (work_from_names()), "" unknown
    [[nodiscard]] bool has_totals() const { return instructions || dram_bytes || l2_bytes; }
};

/// The kernel families an importer labels launches with, in the order of docs/importing.md "Kernel families".
const std::vector<std::string>& kernel_family_names();
/// The values of `work_from`: ncu, shapes, profiler-flops, bandwidth-rule, efficiency-rule, duration.
const std::vector<std::string>& work_from_names();
/// The values of `dtype`: fp64, fp32, tf32, fp16, bf16, fp8, int8.
const std::vector<std::string>& measured_dtype_names();

/// Which term of the `shared` model explains the reference wave time.
enum class MeasuredTerm { latency, issue, dram, l2 };

/// The launch turned into per-warp work (docs/workloads.md, "`kernel`: measured launches").
struct MeasuredWorkFit {
    WarpWork warp;               ///< per active warp; latency_bound 0 (the floor is latency_cycles)
    double latency_cycles = 0;   ///< the latency floor L in SM cycles of the reference GPU's clock
    int blocks_per_sm = 0;       ///< o_ref: the occupancy of the launch on the reference GPU
    int warps_per_block = 0;     ///< every warp is active
    std::uint64_t waves = 0;     ///< waves_ref = ceil(blocks / (o_ref x S_ref))
    Time overhead = 0;           ///< the reference GPU's dispatch overheads the launch pays (below)
    Time wave_time = 0;          ///< (measured - overhead) / waves_ref: the `fixed` model's block duration
    Time explained = 0;          ///< the longest of the issue, DRAM and L2 times of one full wave
    MeasuredTerm term = MeasuredTerm::latency;
    /// The part of the floor that is the launch's DRAM transfer: min(dram, L) in ps on the reference
    /// GPU (0 without DRAM bytes or floor). Bound to another GPU it is rescaled by that GPU's DRAM time
    /// (memory_floor_on), the rest of the floor by its clock: the two add up (no-overlap rule).
    double memory_floor_ps = 0;
    double reference_dram_ps = 0;  ///< the whole launch's DRAM time on the reference GPU (dram x waves)
    /// The part of the floor that is the launch's FLOPs (flops of a dtype the reference GPU has a rate
    /// for): min(compute, L - L_mem) in ps on the reference GPU, where compute is the busiest SM's FLOPs
    /// (ceil(B / S) blocks) at the reference's flops_per_sm_cycle per wave. 0 without flops or floor.
    double compute_floor_ps = 0;
    double reference_flops_per_sm_cycle = 0;  ///< that rate (0: no compute part)
    /// The power-limited tensor clock (hw/tensor_clock.h), for a compute part of a tensor dtype on a reference
    /// GPU that states the limit: the clock the launch ran at and its SMs' tensor activity, from its utilisation
    /// u = F / (R N measured f_t) on its N = min(B, S) SMs (tensor_load_from_utilisation). 0: none, and when u > 1
    /// (more FLOPs than the peak allows in the measured time: they do not fit the duration).
    double reference_tensor_clock_mhz = 0;
    double tensor_activity = 0;
};

/// FLOPs per SM per cycle of `gpu` for `dtype`: "fp32" its FP32 FMA rate (execution.fma_flops_per_sm_cycle),
/// any other its dense tensor-core rate (execution.tensor_flops_per_sm_cycle); nullopt when the spec has none.
std::optional<double> flops_per_sm_cycle(const hw::GpuSpec& gpu, const std::string& dtype);

/// The whole launch's DRAM time on `gpu`, in ps: max(B w bytes / B_dram, ceil(B / S) w bytes / B_SM),
/// the GPU's bandwidth or the busiest SM's at the per-SM cap (memory.sm_dram_bandwidth_gbps, when the
/// spec has the key). 0 when the GPU gives no DRAM bandwidth.
double launch_dram_time_ps(const hw::GpuSpec& gpu, std::uint64_t blocks, int warps_per_block, double dram_bytes_per_warp);

/// The closed-form rule. With S SMs, o = o_ref, B blocks of w warps, W = instructions / (B w) issue slots
/// per warp (1 without `instructions`: a token that makes the warp exist), bytes likewise per warp:
///
///   waves     = ceil(B / (o S)),   o1 = min(o, ceil(B / S))          (blocks per SM in a wave)
///   overhead  = (o1 - 1)(a + b w) + (waves - 1) D + [waves > 1] c min(o S, B - o S)
///   t_wave    = (measured - overhead) / waves
///   issue     = o1 w W / (C f)           dram = max(B w bytes / B_dram, ceil(B / S) w bytes / B_SM) / waves
///   l2        = B w (DRAM + L2-hit bytes) / B_L2 / waves         (B_SM: memory.sm_dram_bandwidth_gbps)
///   L         = 0 when max(issue, dram, l2) >= t_wave, else the floor that makes a scheduler's
///               ceil(o1 w / schedulers) warps (mean-value analysis of the `queue` issue model, or
///               the `share` model's min) finish W slots in t_wave
///   L_mem     = min(dram, L): the part of the floor that moves the launch's DRAM bytes
///   L_flop    = min(ceil(B / S) F_block / (R f) / waves, L - L_mem): the part that does the launch's F
///               FLOPs at the reference's rate R for their dtype (flops_per_sm_cycle); the rest,
///               L - L_mem - L_flop, is time no bandwidth or FLOP rate changes (docs/workloads.md, the
///               no-overlap rule)
///
/// (a, b: sm_block_launch_ns and sm_warp_launch_ns; D: block_dispatch_latency_ns; c:
/// block_completion_interval_ns; C: issue slots per cycle; f: clock.) Calibration on the same
/// measurement. InputError (naming `key`) when the reference GPU lacks a clock or the launch does not
/// fit it.
MeasuredWorkFit fit_measured_work(const MeasuredLaunch& measured, const hw::GpuSpec& reference,
                                  const KernelLaunch& launch, const std::string& key);

/// "latency", "issue", "dram", "l2".
std::string measured_term_name(MeasuredTerm term);

}  // namespace gpusched::workloads

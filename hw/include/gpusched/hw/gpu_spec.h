// GpuSpec: plain-data description of one GPU (limits, allocation rules, execution, memory, overheads).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/hw/cluster_spec.h"
#include "gpusched/hw/partition_spec.h"
#include "gpusched/hw/completion_sweep.h"
#include "gpusched/hw/dispatch_walk.h"
#include "gpusched/hw/stream_priority_range.h"

namespace gpusched::hw {

/// How registers are charged to a block.
/// `warp`: each warp's registers are rounded up to the allocation unit (cc >= 2.0).
/// `block`: the whole block's registers are rounded up once (cc 1.x).
enum class RegisterGranularity { warp, block };

/// Plain data; every number comes from a YAML preset or file, never from code.
/// Sizes are in bytes, times in nanoseconds, rates in the unit named by the field.
/// `std::optional` marks values that are unknown for some GPUs (left out, never invented).
struct GpuSpec {
    // --- identity ---
    std::string name;          ///< short name used on the command line, e.g. "h100"
    std::string full_name;     ///< vendor name, e.g. "NVIDIA H100 SXM5 80GB"
    int cc_major = 0;          ///< compute capability
    int cc_minor = 0;
    int sm_count = 0;
    /// The names cudaGetDeviceProperties (and so Kineto's deviceProperties) report for this GPU,
    /// e.g. "NVIDIA H100 80GB HBM3"; the importers match a trace's device on them first.
    std::vector<std::string> device_names;

    // --- topology ---
    std::optional<int> sms_per_tpc;
    std::optional<int> tpcs_per_gpc;
    /// SM ids in the order the hardware breaks dispatch ties; empty = 0,1,...,sm_count-1.
    std::vector<int> sm_order;
    /// The SMs a partition of K SMs gets (a CUDA green context): its first K entries, as measured;
    /// empty = unknown (hw::with_sm_count then keeps SMs 0..K-1).
    std::vector<int> partition_order;
    /// The measured first-wave walk of the block distributor (policy `walk`); absent = unknown.
    std::optional<DispatchWalk> dispatch_walk;
    /// The order in which the completion channel takes queued completions; absent = first come,
    /// first served. Inert without block_completion_interval_ns (no channel, no queue).
    std::optional<CompletionSweep> completion_sweep;
    /// Thread-block clusters (cc >= 9.0): limits and the SM groups that can host a cluster.
    std::optional<ClusterSpec> clusters;
    /// Green-context partitions: granularity and measured splits (with topology.partition_order).
    std::optional<PartitionSpec> partitions;

    // --- per-SM and per-block limits ---
    int warp_size = 32;
    int max_threads_per_sm = 0;
    int max_warps_per_sm = 0;
    int max_blocks_per_sm = 0;
    int max_threads_per_block = 0;
    int registers_per_sm = 0;
    int max_registers_per_block = 0;
    int max_registers_per_thread = 0;
    std::int64_t shared_memory_per_sm = 0;             ///< largest configurable shared memory per SM
    std::int64_t shared_memory_per_block = 0;          ///< default per-block limit (48 KiB on most)
    std::int64_t shared_memory_per_block_optin = 0;    ///< per-block limit after opt-in (= default where no opt-in)
    std::int64_t reserved_shared_memory_per_block = 0; ///< driver-reserved per block (cc >= 8.0)
    /// Shared-memory sizes per SM the L1/shared split can take, ascending, in bytes.
    /// cc >= 7.0: carveout steps (the driver rounds a request up to the next one);
    /// cc 2.x/3.x: the cache-config choices (16/48 KiB, 16/32/48 KiB); cc 1.x: one fixed size.
    std::vector<std::int64_t> shared_memory_configs;
    std::optional<int> barriers_per_sm;                ///< named barriers per SM, where they limit occupancy

    // --- allocation rules ---
    RegisterGranularity register_granularity = RegisterGranularity::warp;
    int register_allocation_unit = 256;                ///< registers
    /// Register counts per thread whose allocation unit differs (Fermi: 128 for some counts).
    std::map<int, int> register_allocation_unit_exceptions;
    int warp_allocation_granularity = 1;               ///< warps per block rounded up to this (block granularity)
    int register_sub_partitions = 1;                   ///< register file split across this many sub-partitions
    int shared_memory_allocation_unit = 256;           ///< bytes

    // --- execution resources ---
    int warp_schedulers_per_sm = 0;                    ///< sub-partitions that issue instructions
    int issue_width = 1;                               ///< warp-instructions per scheduler per cycle
    /// How the `shared` model lets an SM's warps share its issue slots (docs/scheduling.md):
    /// `share`: equal shares capped by each warp's latency bound; `queue`: one closed queue per
    /// warp scheduler (mean-value analysis), older blocks served first.
    enum class IssueModel { share, queue };
    IssueModel issue_model = IssueModel::share;
    /// Under the `queue` issue model: a warp scheduler holding at most this many warps serves
    /// them as one closed queue whatever their blocks' ages; older blocks first only beyond it
    /// (a whole number of warps; absent: older blocks first at any count)
    std::optional<double> issue_fair_warps;
    std::optional<int> fp32_lanes_per_sm;
    std::optional<double> clock_mhz;                   ///< boost clock
    /// FP32 non-tensor FLOPs per SM per cycle (an FMA counts 2: 2 x FP32 lanes); roofline.h
    std::optional<double> fma_flops_per_sm_cycle;
    /// Dense tensor-core FLOPs (int8: operations) per SM per cycle by dtype (fp64, tf32, fp16, bf16,
    /// fp8, int8; only those the tensor cores have; empty without tensor cores); roofline.h
    std::map<std::string, double> tensor_flops_per_sm_cycle;
    /// The fraction of that peak (at clock_mhz) the vendor libraries' kernels of each compute family
    /// (gemm, conv, attention) reach on this GPU, measured; the trace importer's FLOPs for a compute
    /// kernel whose trace has no shapes (docs/importing.md); roofline.h
    std::map<std::string, double> library_efficiency;
    /// The clock of tensor-core work when the board's power allows it (the clock the vendor states its tensor
    /// figures at, at most clock_mhz), and how many SMs at full tensor activity run at it within the power
    /// limit; more busy SMs run slower (tensor_clock.h). Both or neither.
    std::optional<double> tensor_clock_mhz;
    std::optional<double> tensor_power_sms;
    /// 128-byte L1/shared-memory accesses (wavefronts) an SM serves per cycle; shared-memory and
    /// global loads through L1 use the same data path (the `shared` model's per-SM L1 limit)
    std::optional<double> l1_wavefronts_per_cycle;
    /// How the `shared` model lets an SM's blocks share that L1 data path (docs/scheduling.md):
    /// `cap`: each block at its own pace until together they ask for more than the path serves,
    /// then all slowed in proportion; `queue`: the blocks as customers of one closed queue
    /// (mean-value analysis), so they delay each other before the path is full.
    enum class L1Model { cap, queue };
    L1Model l1_model = L1Model::cap;
    std::optional<double> alu_latency_cycles;           ///< a dependent integer instruction's latency
    std::optional<double> fma_latency_cycles;           ///< a dependent FP32 add/multiply/FMA's latency
    std::optional<double> sfu_latency_cycles;           ///< a dependent special-function (MUFU: rcp, sin, ...) result
    std::optional<double> conversion_latency_cycles;    ///< a dependent int <-> float conversion (I2F/F2I)
    std::optional<double> shared_memory_latency_cycles; ///< a dependent shared-memory load's latency
    std::optional<double> barrier_cycles;               ///< __syncthreads() of a block: this + per warp x warps
    std::optional<double> barrier_cycles_per_warp;

    // --- memory ---
    std::optional<double> dram_bandwidth_gbps;         ///< GB/s (10^9 bytes per second)
    /// The most device-memory bandwidth one SM can use alone, GB/s; absent: sm_dram_cap_gbps() derives it
    std::optional<double> sm_dram_bandwidth_gbps;
    std::optional<std::int64_t> l2_bytes;
    std::optional<double> l2_bandwidth_gbps;           ///< L2 -> SMs read bandwidth, GB/s (all SMs together)
    std::optional<double> l1_hit_latency_cycles;       ///< dependent global load that hits L1, SM cycles
    std::optional<double> l2_hit_latency_cycles;       ///< dependent global load that hits L2, SM cycles
    std::optional<double> dram_latency_cycles;         ///< dependent global load that misses L2, SM cycles
    std::optional<double> tile_fill_extra_cycles;      ///< a block's shared tile filled from L2 through a barrier: cycles beyond the load, barrier and wavefronts

    // --- host link ---
    std::optional<double> host_link_gbps;              ///< per direction, GB/s
    std::optional<double> host_link_pageable_gbps;     ///< copies from/to pageable host memory, GB/s
    std::optional<double> host_link_latency_ns;
    std::optional<int> copy_engines;

    // --- streams ---
    std::optional<StreamPriorityRange> stream_priority_range;  ///< `streams.priority_range`; absent = not stated

    // --- overheads ---
    std::optional<double> kernel_launch_ns;            ///< launch -> ready to dispatch (execution-engine queue)
    std::optional<double> block_dispatch_latency_ns;   ///< block dispatched -> running on an idle SM
    std::optional<double> block_dispatch_interval_ns;  ///< minimum gap between block dispatches (throughput)
    /// Per-SM block-launch pipeline: launching a block of w warps on an SM takes
    /// sm_block_launch_ns + w x sm_warp_launch_ns, one block at a time per SM.
    std::optional<double> sm_block_launch_ns;
    std::optional<double> sm_warp_launch_ns;
    /// Block completions reach the dispatcher one at a time, at most one per this interval;
    /// a finished block's resources are free for new blocks only then.
    std::optional<double> block_completion_interval_ns;
    /// Host time per API call when an application issues each operation as its own call from one
    /// host thread (workloads::HostIssue::calls): operation i in issue order is issued at i x this.
    std::optional<double> host_launch_interval_ns;
    /// Launch -> ready to dispatch for a kernel of a CUDA graph (workloads::HostIssue::graph), in
    /// place of kernel_launch_ns; absent: such kernels take kernel_launch_ns.
    std::optional<double> graph_kernel_launch_ns;
    /// A CUDA graph's kernel takes this much longer to become ready for every other kernel whose
    /// launch is under way (started, not yet ready) when it starts; absent: 0.
    std::optional<double> graph_launch_per_pending_kernel_ns;
    /// Kernels become ready to dispatch GPU-wide at most one per this interval (all streams and
    /// issue modes together); absent: no limit.
    std::optional<double> kernel_start_interval_ns;
    /// Launches a stream's hardware queue holds issued and not yet started; a host launch call
    /// on a full queue blocks until the oldest one starts. Absent: unbounded.
    std::optional<int> launch_queue_depth;

    // --- provenance and defaults (gpu_spec_provenance.h) ---
    /// Keys whose value comes from a documented rule rather than a source ("execution.fma_latency_cycles"
    /// -> "R2 ..."); a key not listed is data (its source is cited in the YAML beside it).
    std::map<std::string, std::string> rules;
    std::string default_policy;     ///< `defaults.policy`: dispatch policy when none is asked for; empty = none stated
    std::string default_execution;  ///< `defaults.execution`: execution model when none is asked for; empty = none stated

    /// The stream priorities: stream_priority_range, else CUDA's rule (StreamPriorityRange::stated).
    [[nodiscard]] StreamPriorityRange stream_priorities() const;
    /// The SM order to use for dispatch ties (sm_order, or identity when empty).
    [[nodiscard]] std::vector<int> dispatch_order() const;
    /// "9.0" style string.
    [[nodiscard]] std::string compute_capability() const;
    /// One SM's device-memory bandwidth, GB/s: memory.sm_dram_bandwidth_gbps (the `shared` model's per-SM
    /// cap, applied only when the spec gives it), else the documented rule's stand-in
    /// l1_wavefronts_per_cycle x 128 bytes x clock_mhz (an SM moves no more bytes than its L1 data path
    /// serves), which notes suggest until it is measured; nullopt when neither is known.
    [[nodiscard]] std::optional<double> sm_dram_cap_gbps() const;
    /// True when sm_dram_cap_gbps() comes from the rule rather than the spec's key.
    [[nodiscard]] bool sm_dram_cap_by_rule() const;
    /// C: warp-instructions an SM can issue per cycle (schedulers x issue width).
    [[nodiscard]] int issue_slots_per_cycle() const { return warp_schedulers_per_sm * issue_width; }
    /// T_launch of the closed-form models: a launch's time to its first running block.
    [[nodiscard]] double launch_to_first_block_ns() const {
        return kernel_launch_ns.value_or(0) + block_dispatch_latency_ns.value_or(0);
    }
    /// Volta and later choose shared memory per SM by carveout percentage; older GPUs by cache config.
    [[nodiscard]] bool has_carveout() const { return cc_major >= 7; }

    bool operator==(const GpuSpec&) const = default;
};

}  // namespace gpusched::hw

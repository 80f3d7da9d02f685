// KernelWork: per-warp work of a `kernel` launch, bound to a GPU (the persistent-kernel and no-overlap rules), notes, calibration.
#include "gpusched/workloads/kernel_work.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/occupancy.h"
#include "gpusched/hw/presets.h"
#include "gpusched/hw/tensor_clock.h"
#include "gpusched/support/checked_time.h"
#include "gpusched/support/input_error.h"
#include "gpusched/workloads/spec_numbers.h"
#include "gpusched/workloads/synthetic_work.h"

namespace gpusched::workloads {

KernelWork::KernelWork(Settings settings) : s_(std::move(settings)) {}

Time KernelWork::duration(std::uint64_t block) const {
    if (s_.pool_resident > 0 && block >= s_.pool_resident) return 0;
    return s_.fixed_duration;
}

int KernelWork::active_warps(std::uint64_t block, int warps_per_block) const {
    (void)block;
    if (s_.active_warps == 0) return warps_per_block;
    check_block_warps(warps_per_block);
    return s_.active_warps;
}

void KernelWork::check_block_warps(int warps_per_block) const {
    if (s_.active_warps > warps_per_block)
        throw InputError(s_.active_warps_key + ": " + std::to_string(s_.active_warps) + " exceeds the " +
                         std::to_string(warps_per_block) + " warps of each block on this GPU");
}

std::optional<WarpWork> KernelWork::warp_work(std::uint64_t block) const {
    if (s_.pool_resident > 0 && block >= s_.pool_resident) return WarpWork{};  // no work left: retires at once
    return s_.warp;
}

double KernelWork::latency_bound_cycles(std::uint64_t block) const {
    if (s_.pool_resident > 0 && block >= s_.pool_resident) return 0;
    return s_.latency_cycles;
}

double KernelWork::memory_floor_on(const GpuContext& context, bool pooled) const {
    const auto resident = static_cast<std::uint64_t>(std::max<std::int64_t>(1, context.resident_blocks));
    const double waves = pooled ? 1.0 : static_cast<double>((s_.launch_blocks + resident - 1) / resident);
    const double dram = launch_dram_time_ps(context.gpu, s_.launch_blocks, s_.launch_warps_per_block, s_.warp.dram_bytes);
    if (dram <= 0) return s_.memory_floor_ps;  // no DRAM bandwidth in the spec: the transfer as measured
    return s_.memory_floor_ps * (dram / waves) / s_.reference_dram_wave_ps;
}

double KernelWork::compute_rate_on(const hw::GpuSpec& gpu, std::string* rule) const {
    if (const auto rate = flops_per_sm_cycle(gpu, s_.compute_dtype); rate && *rate > 0) return *rate;
    if (gpu.fma_flops_per_sm_cycle && *gpu.fma_flops_per_sm_cycle > 0) {
        if (rule) *rule = gpu.name + " has no " + s_.compute_dtype + " tensor-core rate: the launch's " + s_.compute_dtype +
                          " FLOPs run on its FP32 FMA units (execution.fma_flops_per_sm_cycle), a rule";
        return *gpu.fma_flops_per_sm_cycle;
    }
    if (rule) *rule = gpu.name + " states no FLOP rate: the launch's FLOPs take as many cycles as on " + s_.reference_gpu_name;
    return s_.reference_flops_per_sm_cycle;
}

double KernelWork::compute_cycles_on(const GpuContext& context, bool pooled, double share) const {
    const double sms = std::max(1, context.gpu.sm_count);
    const double resident = static_cast<double>(std::max<std::int64_t>(1, context.resident_blocks));
    const double blocks = static_cast<double>(s_.launch_blocks);
    const double per_sm = pooled ? std::ceil(resident / sms) : std::ceil(blocks / sms) / std::ceil(blocks / resident);
    const double sharing = s_.compute_blocks_per_sm > 0 ? per_sm / s_.compute_blocks_per_sm : 1;
    return s_.compute_floor_cycles * share * sharing * s_.reference_flops_per_sm_cycle / compute_rate_on(context.gpu);
}

double KernelWork::busy_tensor_sms(const hw::GpuSpec& gpu) const {
    return static_cast<double>(std::min<std::uint64_t>(s_.launch_blocks, static_cast<std::uint64_t>(gpu.sm_count))) * s_.tensor_activity;
}

std::optional<double> KernelWork::tensor_clock_on(const hw::GpuSpec& gpu) const {
    return hw::power_limited_tensor_clock_mhz(gpu, busy_tensor_sms(gpu));
}

double KernelWork::tensor_clock_factor(const hw::GpuSpec& gpu, std::string* rule) const {
    if (s_.tensor_activity <= 0 || s_.reference_tensor_clock_mhz <= 0) return 1;
    const auto clock = tensor_clock_on(gpu);  // at most gpu.clock_mhz
    if (!clock) {
        if (rule) *rule = gpu.name + " states no power-limited tensor clock (execution.tensor_clock_mhz, tensor_power_sms): the "
                          "launch's tensor work keeps the fraction of the clock it ran at on " + s_.reference_gpu_name + ", a rule";
        return 1;
    }
    if (!gpu.clock_mhz) return 1;  // no clock to count cycles at: bind() leaves the floor as it is
    const double factor = (s_.reference_tensor_clock_mhz / s_.reference_clock_mhz) * (*gpu.clock_mhz / *clock);
    return std::abs(factor - 1) < 1e-9 ? 1 : factor;  // the reference itself: exactly as calibrated
}

std::shared_ptr<const BlockWork> KernelWork::bind(const GpuContext& context) const {
    const bool pooled = s_.pool_blocks > 0 && context.resident_blocks > 0 &&
                        static_cast<std::uint64_t>(context.resident_blocks) < s_.pool_blocks;
    const bool memory = s_.memory_floor_ps > 0 && s_.reference_dram_wave_ps > 0 && context.gpu.clock_mhz;
    const bool compute = s_.compute_floor_cycles > 0 && s_.reference_flops_per_sm_cycle > 0 && context.gpu.clock_mhz;
    if (!pooled && !memory && !compute) return nullptr;
    Settings bound = s_;
    double share = 1;
    if (pooled) {
        const auto resident = static_cast<std::uint64_t>(context.resident_blocks);
        share = static_cast<double>(s_.pool_blocks) / static_cast<double>(resident);
        bound.pool_blocks = 0;
        bound.pool_resident = resident;
        bound.warp.issue_slots *= share;
        bound.warp.latency_bound = static_cast<Time>(std::llround(static_cast<double>(s_.warp.latency_bound) * share));
        bound.warp.dram_bytes *= share;
        bound.warp.l2_bytes *= share;
        bound.warp.l1_wavefronts *= share;
        bound.latency_cycles *= share;
        bound.fixed_duration = static_cast<Time>(std::llround(static_cast<double>(s_.fixed_duration) * share));
        bound.description += "; persistent: " + std::to_string(s_.pool_blocks) + " blocks' work shared by " +
                             std::to_string(resident) + " resident blocks";
    }
    if (memory || compute) {
        // The no-overlap rule: the floor's other part at this GPU's clock, plus its DRAM transfer here,
        // plus its FLOPs at this GPU's rate for their dtype.
        // Tensor work: the SM cycles at this GPU's power-limited clock for the launch's busy SMs.
        const double clock = *context.gpu.clock_mhz;
        const double tensor = tensor_clock_factor(context.gpu);
        const double other_cycles =
            std::max(0.0, s_.latency_cycles - (memory ? s_.memory_floor_cycles : 0) - (compute ? s_.compute_floor_cycles : 0)) * share;
        std::optional<Time> floor = cycles_to_time(other_cycles * tensor, clock);
        if (memory) floor = time_sum(*floor, static_cast<Time>(std::llround(memory_floor_on(context, pooled))));
        if (compute && floor) {
            floor = time_sum(*floor, cycles_to_time(compute_cycles_on(context, pooled, share) * tensor, clock));
        }
        bound.warp.latency_bound = floor.value_or(kTimeLimit);
        bound.latency_cycles = 0;
        bound.memory_floor_ps = 0;
        bound.memory_floor_cycles = 0;
        bound.compute_floor_cycles = 0;
    }
    return std::make_shared<const KernelWork>(std::move(bound));
}

WorkDerivation KernelWork::derivation(const GpuContext& context) const {
    WorkDerivation d;
    if (s_.memory_floor_ps > 0 && s_.reference_dram_wave_ps > 0) {
        const bool pooled = s_.pool_blocks > 0 && static_cast<std::uint64_t>(context.resident_blocks) < s_.pool_blocks;
        d.steps.push_back("no-overlap rule: of the floor's " + format_spec_number(std::round(s_.latency_cycles)) +
                          " cycles, " + format_spec_number(std::round(s_.memory_floor_cycles)) +
                          " are the launch's DRAM transfer (" + format_ns(static_cast<Time>(std::llround(s_.memory_floor_ps))) +
                          " ns per wave on " + s_.reference_gpu_name + "); on " + context.gpu.name + " that part takes " +
                          format_ns(static_cast<Time>(std::llround(memory_floor_on(context, pooled)))) +
                          " ns (its DRAM time per wave there) and the rest runs at its clock");
    }
    if (s_.compute_floor_cycles > 0 && s_.reference_flops_per_sm_cycle > 0) {
        std::string rule;
        const double rate = compute_rate_on(context.gpu, &rule);
        d.steps.push_back("no-overlap rule: " + format_spec_number(std::round(s_.compute_floor_cycles)) +
                          " cycles of the floor are the launch's " + s_.compute_dtype + " FLOPs at " +
                          format_spec_number(s_.reference_flops_per_sm_cycle) + " FLOPs per SM per cycle on " +
                          s_.reference_gpu_name + "; on " + context.gpu.name + " they run at " + format_spec_number(rate) +
                          " FLOPs per SM per cycle, shared by its blocks on an SM: " +
                          format_spec_number(std::round(compute_cycles_on(context, false, 1.0))) + " cycles per block" +
                          (rule.empty() ? "" : "; " + rule));
    }
    if (s_.tensor_activity > 0 && s_.reference_tensor_clock_mhz > 0) {
        std::string rule;
        static_cast<void>(tensor_clock_factor(context.gpu, &rule));
        const auto clock = tensor_clock_on(context.gpu);
        d.steps.push_back("power-limited tensor clock: on " + s_.reference_gpu_name + " the launch's SMs ran at " +
                          format_spec_number(std::round(s_.reference_tensor_clock_mhz)) + " MHz with a tensor activity of " +
                          format_spec_number(std::round(s_.tensor_activity * 1000) / 1000) + " per SM; on " + context.gpu.name +
                          (clock ? " its " + format_spec_number(std::round(busy_tensor_sms(context.gpu) * 10) / 10) +
                                       " busy SMs run at " + format_spec_number(std::round(*clock)) +
                                       " MHz (the f^3 power rule, docs/gpu-spec.md)"
                                 : ": " + rule));
    }
    if (s_.pool_blocks == 0) return d;
    if (static_cast<std::uint64_t>(context.resident_blocks) >= s_.pool_blocks) {
        d.steps.push_back("persistent launch of " + std::to_string(s_.pool_blocks) + " blocks: all resident on " +
                          context.gpu.name + ", the work as measured");
        return d;
    }
    d.steps.push_back("persistent launch of " + std::to_string(s_.pool_blocks) + " blocks (the resident-block capacity of " +
                      s_.reference_gpu + "): its work is one pool; on " + context.gpu.name + " the " +
                      std::to_string(context.resident_blocks) + " resident blocks each take " +
                      std::to_string(s_.pool_blocks) + "/" + std::to_string(context.resident_blocks) +
                      " of a block's work, the other blocks none");
    return d;
}

std::string KernelWork::describe() const { return s_.description; }

std::optional<KernelWork::CalibrationTarget> KernelWork::calibration_target() const {
    if (s_.calibration_target == 0 || s_.engine_calibrated || (s_.latency_cycles <= 0 && !s_.calibrate_bytes))
        return std::nullopt;
    return CalibrationTarget{s_.calibration_target, s_.calibration_gpu};
}

std::shared_ptr<const KernelWork> KernelWork::with_calibration(double scale, const std::string& note) const {
    Settings s = s_;
    s.engine_calibrated = true;
    if (!note.empty()) s.notes.push_back(note);
    const std::string times = " x" + format_spec_number(std::round(scale * 1000) / 1000);
    if (s_.calibrate_bytes) {
        s.warp.dram_bytes *= scale;
        s.description += "; DRAM bytes" + times + " so that the engine reproduces it on " + s_.calibration_gpu;
        return std::make_shared<const KernelWork>(std::move(s));
    }
    s.latency_cycles *= scale;
    s.memory_floor_ps *= scale;
    s.memory_floor_cycles *= scale;
    s.compute_floor_cycles *= scale;
    s.description += "; floor" + times + " so that the engine reproduces it on " + s_.calibration_gpu;
    return std::make_shared<const KernelWork>(std::move(s));
}

namespace {

/// Appends fields to an exact key: numbers by their bits, text with its length (no two field lists collide).
class ExactKey {
public:
    ExactKey& operator<<(double v) {
        std::uint64_t bits = 0;  // the double's bits (std::memcpy: the lab's emscripten libc++ has no std::bit_cast)
        std::memcpy(&bits, &v, sizeof bits);
        return *this << bits;
    }
    ExactKey& operator<<(std::uint64_t v) {
        out_ += std::to_string(v) + ',';
        return *this;
    }
    ExactKey& operator<<(std::int64_t v) { return *this << static_cast<std::uint64_t>(v); }
    ExactKey& operator<<(int v) { return *this << static_cast<std::uint64_t>(static_cast<std::int64_t>(v)); }
    ExactKey& operator<<(bool v) { return *this << (v ? 1 : 0); }
    ExactKey& operator<<(const std::string& v) {
        out_ += std::to_string(v.size()) + ':' + v;
        return *this;
    }
    [[nodiscard]] const std::string& text() const { return out_; }

private:
    std::string out_;
};

}  // namespace

std::string KernelWork::identity() const {
    ExactKey k;
    k << s_.warp.issue_slots << static_cast<std::int64_t>(s_.warp.latency_bound) << s_.warp.dram_bytes << s_.warp.l2_bytes
      << s_.warp.l1_wavefronts << s_.latency_cycles << s_.active_warps << s_.active_warps_key
      << static_cast<std::int64_t>(s_.fixed_duration) << s_.description << static_cast<std::uint64_t>(s_.notes.size());
    for (const auto& note : s_.notes) k << note;
    k << s_.pool_blocks << s_.reference_gpu << s_.request.threads_per_block << s_.request.registers_per_thread
      << s_.request.static_shared_bytes << s_.request.dynamic_shared_bytes << s_.request.barriers_per_block
      << static_cast<int>(s_.request.carveout.kind) << s_.request.carveout.percent << s_.pool_resident << s_.memory_floor_ps
      << s_.memory_floor_cycles << s_.reference_dram_wave_ps << s_.launch_blocks << s_.launch_warps_per_block
      << s_.reference_gpu_name << static_cast<std::int64_t>(s_.calibration_target) << s_.calibration_gpu << s_.calibrate_bytes
      << s_.engine_calibrated << s_.compute_floor_cycles << s_.reference_flops_per_sm_cycle << s_.compute_blocks_per_sm
      << s_.compute_dtype << s_.tensor_activity << s_.reference_tensor_clock_mhz << s_.reference_clock_mhz;
    return k.text();
}

bool KernelWork::pooled_on(const hw::GpuSpec& gpu) const {
    try {
        const auto per_sm = std::max(1, hw::compute_occupancy(gpu, s_.request).blocks_per_sm);
        return static_cast<std::uint64_t>(per_sm) * static_cast<std::uint64_t>(gpu.sm_count) < s_.pool_blocks;
    } catch (const InputError&) {
        return false;  // the launch does not fit: the simulation reports it
    }
}

std::vector<std::string> KernelWork::notes(const hw::GpuSpec& gpu, const std::string& execution) const {
    std::vector<std::string> out = s_.notes;
    if (s_.compute_floor_cycles > 0 && s_.reference_flops_per_sm_cycle > 0 && execution == "shared") {
        std::string rule;
        static_cast<void>(compute_rate_on(gpu, &rule));
        if (!rule.empty()) out.push_back(rule);
    }
    if (s_.tensor_activity > 0 && execution == "shared") {
        std::string rule;
        const double factor = tensor_clock_factor(gpu, &rule);
        if (!rule.empty()) out.push_back(rule);
        else if (factor != 1)
            out.push_back("power-limited tensor clock: tensor work runs at " + gpu.name + "'s clock for its busy SMs, not the one it "
                          "ran at on " + s_.reference_gpu_name + " (docs/gpu-spec.md \"Power-limited tensor clock\"; gpusched show "
                          "work gives both)");
    }
    if (s_.pool_blocks > 0 && execution == "shared" && pooled_on(gpu))
        out.push_back("persistent-kernel rule: a measured launch whose grid is " + s_.reference_gpu +
                      "'s resident-block capacity runs as one pool of work shared by the blocks resident on " + gpu.name +
                      " when they are fewer, not as a second wave (docs/workloads.md, \"`kernel`: measured launches\")");
    if (execution == "shared" && s_.warp.dram_bytes > 0 && gpu.dram_bandwidth_gbps && !gpu.sm_dram_bandwidth_gbps)
        out.push_back(gpu.name + " has no memory.sm_dram_bandwidth_gbps, so one SM may use all of the DRAM bandwidth "
                      "(optimistic for a DRAM-bound launch on few SMs)" +
                      (gpu.sm_dram_cap_by_rule() ? "; the rule l1_wavefronts_per_cycle x 128 bytes x clock_mhz gives " +
                                                       format_spec_number(std::round(*gpu.sm_dram_cap_gbps())) +
                                                       " GB/s (to apply it, set the GPU key memory.sm_dram_bandwidth_gbps=" +
                                                       format_spec_number(std::round(*gpu.sm_dram_cap_gbps())) + ")"
                                                 : std::string()));
    return out;
}

}  // namespace gpusched::workloads

// The CUDA occupancy rules (as in the toolkit's cuda_occupancy.h, plus the cc 1.x/2.x rules of
// the CUDA Occupancy Calculator), driven entirely by GpuSpec data.
#include "gpusched/hw/occupancy.h"

#include <algorithm>
#include <climits>

#include "gpusched/support/input_error.h"
#include "gpusched/support/key_error.h"
#include "gpusched/support/yaml_fields.h"

namespace gpusched::hw {

namespace {

std::int64_t divide_round_up(std::int64_t x, std::int64_t y) { return (x + y - 1) / y; }
std::int64_t round_up(std::int64_t x, std::int64_t y) { return y * divide_round_up(x, y); }

[[noreturn]] void cannot_launch(const GpuSpec& spec, const std::string& what) {
    throw InputError("cannot launch on " + spec.name + ": " + what);
}

std::string kib(std::int64_t bytes) { return std::to_string(bytes) + " bytes"; }

/// Registers: the per-block hardware check and blocks per SM.
/// Warp granularity (cc >= 2.0): each warp's registers are rounded up to the allocation unit;
/// the register file is split into sub-partitions and a warp lives in one of them, so
///   warps_per_sub_partition = floor((registers_per_sm / sub_partitions) / registers_per_warp)
///   blocks = floor(warps_per_sub_partition * sub_partitions / warps_per_block).
/// A block must also fit max_registers_per_block with its warps rounded up to the sub-partitions.
/// Block granularity (cc 1.x): warps rounded up to warp_allocation_granularity, the block's
/// registers rounded up to the unit once; blocks = floor(registers_per_sm / registers_per_block).
void apply_register_limit(const GpuSpec& spec, const OccupancyRequest& req, OccupancyResult& r) {
    const int regs = req.registers_per_thread;
    if (regs > spec.max_registers_per_thread)
        throw KeyError("regs", std::to_string(regs),
                       "cannot launch on " + spec.name + ": the maximum is " +
                           std::to_string(spec.max_registers_per_thread) + " registers per thread");
    const int warps = r.warps_per_block;
    if (spec.register_granularity == RegisterGranularity::block) {
        const std::int64_t allocated_warps = round_up(warps, spec.warp_allocation_granularity);
        const std::int64_t per_block =
            round_up(std::int64_t{regs} * spec.warp_size * allocated_warps, spec.register_allocation_unit);
        r.registers_per_warp = regs * spec.warp_size;
        r.registers_per_block = static_cast<int>(per_block);
        if (per_block > spec.max_registers_per_block)
            cannot_launch(spec, std::to_string(regs) + " registers x " + std::to_string(req.threads_per_block) +
                                    " threads need " + std::to_string(per_block) +
                                    " registers per block; the maximum is " +
                                    std::to_string(spec.max_registers_per_block));
        if (per_block > 0) r.limit_registers = static_cast<int>(spec.registers_per_sm / per_block);
        return;
    }
    const auto exception = spec.register_allocation_unit_exceptions.find(regs);
    const int unit = exception != spec.register_allocation_unit_exceptions.end() ? exception->second
                                                                                  : spec.register_allocation_unit;
    const std::int64_t per_warp = round_up(std::int64_t{regs} * spec.warp_size, unit);
    const std::int64_t per_block = per_warp * warps;
    const std::int64_t assumed_per_block = per_warp * round_up(warps, spec.register_sub_partitions);
    r.registers_per_warp = static_cast<int>(per_warp);
    r.registers_per_block = static_cast<int>(per_block);
    if (assumed_per_block > spec.max_registers_per_block || per_block > spec.max_registers_per_block)
        cannot_launch(spec, std::to_string(regs) + " registers x " + std::to_string(req.threads_per_block) +
                                " threads need " + std::to_string(assumed_per_block) +
                                " registers per block (after rounding); the maximum is " +
                                std::to_string(spec.max_registers_per_block));
    if (per_warp > 0) {
        const std::int64_t per_sub_partition = spec.registers_per_sm / spec.register_sub_partitions;
        const std::int64_t warps_per_sub_partition = per_sub_partition / per_warp;
        r.limit_registers = static_cast<int>(warps_per_sub_partition * spec.register_sub_partitions / warps);
    }
}

/// The shared memory per SM the carveout asks for, before the driver adjusts it to the kernel.
std::int64_t preferred_shared_per_sm(const GpuSpec& spec, const Carveout& carveout) {
    const auto& configs = spec.shared_memory_configs;
    if (spec.has_carveout()) {
        int percent = -1;
        switch (carveout.kind) {
            case Carveout::Kind::device_default: break;
            case Carveout::Kind::max_shared: percent = 100; break;
            case Carveout::Kind::max_l1: percent = 0; break;
            case Carveout::Kind::equal: percent = 50; break;
            case Carveout::Kind::percent: percent = carveout.percent; break;
        }
        if (percent < 0) return spec.shared_memory_per_sm;
        const std::int64_t wanted = percent * spec.shared_memory_per_sm / 100;
        const auto it = std::lower_bound(configs.begin(), configs.end(), wanted);
        return it == configs.end() ? configs.back() : *it;
    }
    switch (carveout.kind) {
        case Carveout::Kind::device_default:
        case Carveout::Kind::max_shared: return configs.back();
        case Carveout::Kind::max_l1: return configs.front();
        case Carveout::Kind::equal: {
            const std::int64_t middle = (configs.front() + configs.back()) / 2;
            if (std::find(configs.begin(), configs.end(), middle) == configs.end())
                throw KeyError("carveout", "equal",
                               spec.name + " has no equal L1/shared split (choices: default, max-shared, max-l1)");
            return middle;
        }
        case Carveout::Kind::percent:
            throw KeyError("carveout", std::to_string(carveout.percent),
                           "a percentage needs compute capability 7.0 or later; " + spec.name + " (" +
                               spec.compute_capability() + ") takes default, max-shared, max-l1 or equal");
    }
    return configs.back();
}

/// Shared memory: static + dynamic + reserved, rounded to the allocation unit, must fit the
/// per-block limit (the opt-in limit when over the default one); the SM's split is the
/// carveout's size, or (cc >= 7.0) the smallest supported size that holds one block when the
/// carveout's is too small (cc < 7.0: the largest).
void apply_shared_memory_limit(const GpuSpec& spec, const OccupancyRequest& req, OccupancyResult& r) {
    const std::int64_t static_bytes = req.static_shared_bytes + spec.reserved_shared_memory_per_block;
    const std::int64_t total = static_bytes + req.dynamic_shared_bytes;
    const std::int64_t allocated = round_up(total, spec.shared_memory_allocation_unit);
    r.shared_bytes_per_block = allocated;
    const std::int64_t user_bytes = req.static_shared_bytes + req.dynamic_shared_bytes;
    r.needs_shared_optin = user_bytes > spec.shared_memory_per_block;
    const std::int64_t per_block_limit =
        (r.needs_shared_optin ? spec.shared_memory_per_block_optin : spec.shared_memory_per_block) +
        spec.reserved_shared_memory_per_block;
    if (allocated > per_block_limit)
        cannot_launch(spec, "shared memory per block (" + kib(user_bytes) + " static + dynamic" +
                                (spec.reserved_shared_memory_per_block
                                     ? " + " + kib(spec.reserved_shared_memory_per_block) + " reserved"
                                     : std::string()) +
                                ", " + kib(allocated) + " allocated) exceeds the per-block limit of " +
                                kib(spec.shared_memory_per_block_optin) +
                                (spec.reserved_shared_memory_per_block ? " + reserved" : ""));
    std::int64_t per_sm = preferred_shared_per_sm(spec, req.carveout);
    if (per_sm < allocated) {
        if (spec.has_carveout()) {
            const auto& configs = spec.shared_memory_configs;
            per_sm = *std::lower_bound(configs.begin(), configs.end(), allocated);
        } else {
            per_sm = spec.shared_memory_per_sm;
        }
    }
    r.shared_bytes_per_sm = per_sm;
    if (allocated > 0) r.limit_shared_memory = static_cast<int>(per_sm / allocated);
}

}  // namespace

Carveout Carveout::parse(const std::string& text, const std::string& where) {
    if (text == "default") return {Kind::device_default, 0};
    if (text == "max-shared") return {Kind::max_shared, 100};
    if (text == "max-l1") return {Kind::max_l1, 0};
    if (text == "equal") return {Kind::equal, 50};
    const auto value = parse_integer(text);
    if (!value || *value < 0 || *value > 100)
        throw InputError(where + ": expected default, max-shared, max-l1, equal or a percentage 0..100, got '" +
                         text + "'");
    return {Kind::percent, static_cast<int>(*value)};
}

std::string Carveout::to_string() const {
    switch (kind) {
        case Kind::device_default: return "default";
        case Kind::max_shared: return "max-shared";
        case Kind::max_l1: return "max-l1";
        case Kind::equal: return "equal";
        case Kind::percent: return std::to_string(percent);
    }
    return "default";
}

const char* to_string(Limiter limiter) {
    switch (limiter) {
        case Limiter::warps: return "warps";
        case Limiter::registers: return "registers";
        case Limiter::shared_memory: return "shared_memory";
        case Limiter::blocks: return "blocks";
        case Limiter::barriers: return "barriers";
    }
    return "?";
}

OccupancyResult compute_occupancy(const GpuSpec& spec, const OccupancyRequest& req) {
    if (req.threads_per_block < 1)
        throw KeyError("threads", "expected at least 1 thread per block, got " + std::to_string(req.threads_per_block));
    if (req.threads_per_block > spec.max_threads_per_block)
        throw KeyError("threads", std::to_string(req.threads_per_block),
                       "cannot launch on " + spec.name + ": the maximum is " +
                           std::to_string(spec.max_threads_per_block) + " threads per block");
    if (req.registers_per_thread < 0)
        throw KeyError("regs", "expected 0 or more registers per thread, got " + std::to_string(req.registers_per_thread));
    constexpr std::int64_t kMaxShared = std::int64_t{1} << 40;
    if (req.static_shared_bytes < 0 || req.static_shared_bytes > kMaxShared)
        throw KeyError("static_smem", std::to_string(req.static_shared_bytes),
                       "expected 0 to 2^40 bytes of static shared memory per block");
    if (req.dynamic_shared_bytes < 0 || req.dynamic_shared_bytes > kMaxShared)
        throw KeyError("smem", "expected 0 to 2^40 bytes of shared memory per block, got " +
                                   std::to_string(req.static_shared_bytes) + " static + " +
                                   std::to_string(req.dynamic_shared_bytes) + " dynamic");
    if (req.barriers_per_block < 0) throw KeyError("barriers", "expected 0 or more barriers per block");

    OccupancyResult r;
    r.warps_per_block = static_cast<int>(divide_round_up(req.threads_per_block, spec.warp_size));
    r.limit_warps = spec.max_warps_per_sm / r.warps_per_block;
    r.limit_blocks = spec.max_blocks_per_sm;
    apply_register_limit(spec, req, r);
    apply_shared_memory_limit(spec, req, r);
    if (spec.barriers_per_sm && req.barriers_per_block > 0) {
        if (req.barriers_per_block > *spec.barriers_per_sm)
            throw KeyError("barriers", std::to_string(req.barriers_per_block),
                           "cannot launch on " + spec.name + ": the maximum is " +
                               std::to_string(*spec.barriers_per_sm) + " barriers per SM");
        r.limit_barriers = *spec.barriers_per_sm / req.barriers_per_block;
    }

    r.blocks_per_sm = std::min({r.limit_warps, r.limit_registers, r.limit_shared_memory, r.limit_blocks,
                                r.limit_barriers});
    const std::pair<int, Limiter> limits[] = {{r.limit_warps, Limiter::warps},
                                              {r.limit_registers, Limiter::registers},
                                              {r.limit_shared_memory, Limiter::shared_memory},
                                              {r.limit_blocks, Limiter::blocks},
                                              {r.limit_barriers, Limiter::barriers}};
    for (const auto& [limit, limiter] : limits)
        if (limit == r.blocks_per_sm) r.limited_by.push_back(limiter);
    if (r.blocks_per_sm < 1) {
        std::string names;
        for (auto l : r.limited_by) names += (names.empty() ? "" : ", ") + std::string(to_string(l));
        cannot_launch(spec, "not even one block fits on an SM (limited by " + names + ")");
    }
    r.warps_per_sm = r.blocks_per_sm * r.warps_per_block;
    r.occupancy = static_cast<double>(r.warps_per_sm) / spec.max_warps_per_sm;
    return r;
}

}  // namespace gpusched::hw

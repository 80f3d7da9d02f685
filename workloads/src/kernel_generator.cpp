// The generic `kernel` generator: a spec's keys read into KernelWork, hand-described per-warp work or a measured launch.
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/presets.h"
#include "gpusched/support/checked_time.h"
#include "gpusched/support/input_error.h"
#include "gpusched/workloads/kernel_work.h"
#include "gpusched/workloads/measured_work.h"
#include "gpusched/workloads/spec_numbers.h"
#include "gpusched/workloads/synthetic_work.h"

namespace gpusched::workloads {

namespace {

constexpr double kMaxCount = 1e18;  // instructions, bytes: far beyond any kernel, below double's exact range issues

/// Built-in presets by name, parsed once (an imported trace has thousands of launches of one GPU).
const hw::GpuSpec& reference_gpu(SpecArgs& args) {
    static std::mutex mutex;
    static std::map<std::string, hw::GpuSpec> cache;
    const std::string name = args.text("measured_gpu");
    const std::lock_guard lock(mutex);
    if (const auto it = cache.find(name); it != cache.end()) return it->second;
    if (!hw::preset_yaml(name)) {
        std::string known;
        for (const auto& preset : hw::preset_names()) known += (known.empty() ? "" : ", ") + preset;
        args.fail("measured_gpu", "expected the preset name of the GPU the duration was measured on (" + known +
                                      "), got '" + name + "'");
    }
    return cache.emplace(name, hw::resolve_gpu(name)).first->second;
}

std::string per_warp_text(const WarpWork& w, double latency_cycles) {
    std::string out = format_spec_number(w.issue_slots) + " issue slots";
    if (w.latency_bound > 0) out += ", latency " + format_duration(w.latency_bound);
    if (latency_cycles > 0) out += ", latency " + format_spec_number(std::round(latency_cycles)) + " cycles";
    if (w.dram_bytes > 0) out += ", " + format_spec_number(w.dram_bytes) + " DRAM bytes";
    if (w.l2_bytes > 0) out += ", " + format_spec_number(w.l2_bytes) + " L2-hit bytes";
    if (w.l1_wavefronts > 0) out += ", " + format_spec_number(w.l1_wavefronts) + " L1 wavefronts";
    return out + " per warp";
}

const char* const kHandKeys[] = {"warp_instr",      "warp_latency",       "warp_latency_cycles", "warp_dram_bytes",
                                 "warp_l2_bytes",   "warp_l1_wavefronts", "active_warps",        "ns_per_instr"};
const char* const kMeasuredKeys[] = {"measured_gpu", "instructions", "dram_bytes", "l2_bytes", "flops",
                                     "dtype",        "family",       "work_from",  "calibrated_floor", "calibration"};

/// A label key's value, one of `names`, or an InputError naming the key and listing them.
std::string label_key(SpecArgs& args, const std::string& key, const std::vector<std::string>& names) {
    const std::string value = args.text(key);
    for (const auto& name : names)
        if (name == value) return value;
    std::string list;
    for (const auto& name : names) list += (list.empty() ? "" : ", ") + name;
    args.fail(key, "expected one of " + list + ", got '" + value + "'");
}

Time duration_key(SpecArgs& args, const std::string& key) {
    return parse_duration(args.text(key), args.where(key) + ": key '" + args.key_path(key) + "'");
}

KernelWork::Settings hand_described(SpecArgs& args, const KernelLaunch& launch) {
    for (const char* key : kMeasuredKeys)
        if (args.has(key)) args.fail(key, "belongs to a measured launch: give 'measured' and 'measured_gpu' with it");
    if (!args.has("warp_instr") && !args.has("warp_latency") && !args.has("warp_latency_cycles"))
        args.fail_spec("give each warp's work (warp_instr, warp_latency or warp_latency_cycles), or a measured launch "
                       "(measured, measured_gpu)");
    args.reject_both("warp_latency", "warp_latency_cycles");
    KernelWork::Settings s;
    // Without warp_instr a warp issues one slot: a token that makes it exist, so its time is its latency.
    s.warp.issue_slots = spec_number(args, "warp_instr", 0, 1e12, 1);
    if (args.has("warp_latency")) s.warp.latency_bound = duration_key(args, "warp_latency");
    s.latency_cycles = spec_number(args, "warp_latency_cycles", 0, 1e12, 0);
    s.warp.dram_bytes = spec_number(args, "warp_dram_bytes", 0, 1e15, 0);
    s.warp.l2_bytes = spec_number(args, "warp_l2_bytes", 0, 1e15, 0);
    s.warp.l1_wavefronts = spec_number(args, "warp_l1_wavefronts", 0, 1e12, 0);
    if (args.has("active_warps")) s.active_warps = static_cast<int>(args.integer("active_warps", 1, launch.threads_per_block()));
    s.active_warps_key = args.where("active_warps") + ": key '" + args.key_path("active_warps") + "'";
    const double ns_per_instr = spec_number(args, "ns_per_instr", 0, 1e6, 1);
    const auto issue = instruction_time(args.has("warp_instr") ? s.warp.issue_slots : 0, ns_per_instr);
    if (!issue)
        args.fail("ns_per_instr", format_spec_number(s.warp.issue_slots) + " issue slots x " +
                                      format_spec_number(ns_per_instr) + " ns is beyond the longest duration (2^63 ps)");
    s.fixed_duration = std::max(s.warp.latency_bound, *issue);
    s.description = "kernel: " + per_warp_text(s.warp, s.latency_cycles);
    if (s.active_warps > 0) s.description += ", " + std::to_string(s.active_warps) + " active warps";
    return s;
}

KernelWork::Settings measured(SpecArgs& args, const KernelLaunch& launch) {
    for (const char* key : kHandKeys)
        if (args.has(key))
            args.fail(key, "describes the work by hand; a measured launch takes the totals instructions, dram_bytes "
                           "and l2_bytes instead");
    if (!args.has("measured_gpu")) args.fail_spec("required key 'measured_gpu' is missing (the preset of the GPU 'measured' comes from)");
    MeasuredLaunch m;
    m.measured = duration_key(args, "measured");
    if (m.measured == 0) args.fail("measured", "expected a duration above 0, got '" + args.text("measured") + "'");
    if (args.has("instructions")) m.instructions = spec_number(args, "instructions", 1, kMaxCount, 0);
    if (args.has("dram_bytes")) m.dram_bytes = spec_number(args, "dram_bytes", 0, kMaxCount, 0);
    if (args.has("l2_bytes")) m.l2_bytes = spec_number(args, "l2_bytes", 0, kMaxCount, 0);
    // What the importer writes (docs/importing.md): flops and dtype give the floor's compute part; family and
    // work_from are labels the notes and the summary report.
    if (args.has("flops")) m.flops = spec_number(args, "flops", 0, kMaxCount, 0);
    if (args.has("dtype")) m.dtype = label_key(args, "dtype", measured_dtype_names());
    if (args.has("family")) m.family = label_key(args, "family", kernel_family_names());
    if (args.has("work_from")) m.work_from = label_key(args, "work_from", work_from_names());
    const hw::GpuSpec& reference = reference_gpu(args);
    const MeasuredWorkFit fit =
        fit_measured_work(m, reference, launch, args.where("measured_gpu") + ": key '" + args.key_path("measured_gpu") + "'");
    KernelWork::Settings s;
    s.warp = fit.warp;
    s.latency_cycles = fit.latency_cycles;
    s.fixed_duration = fit.wave_time;
    if (fit.memory_floor_ps > 0 && fit.reference_dram_ps > 0) {
        s.memory_floor_ps = fit.memory_floor_ps;
        s.memory_floor_cycles = std::min(fit.latency_cycles, fit.memory_floor_ps * *reference.clock_mhz * 1e-6);
        s.reference_dram_wave_ps = fit.reference_dram_ps / static_cast<double>(fit.waves);
        s.launch_blocks = launch.blocks();
        s.launch_warps_per_block = fit.warps_per_block;
        s.reference_gpu_name = reference.name;
    }
    if (fit.compute_floor_ps > 0) {
        s.compute_floor_cycles = std::min(fit.latency_cycles - s.memory_floor_cycles, fit.compute_floor_ps * *reference.clock_mhz * 1e-6);
        s.reference_flops_per_sm_cycle = fit.reference_flops_per_sm_cycle;
        s.compute_dtype = m.dtype;
        s.tensor_activity = fit.tensor_activity;
        s.reference_tensor_clock_mhz = fit.reference_tensor_clock_mhz;
        s.reference_clock_mhz = *reference.clock_mhz;
        s.compute_blocks_per_sm = std::ceil(static_cast<double>(launch.blocks()) / reference.sm_count) / static_cast<double>(fit.waves);
        s.launch_blocks = launch.blocks();
        s.launch_warps_per_block = fit.warps_per_block;
        s.reference_gpu_name = reference.name;
    }
    if (fit.latency_cycles > 0 || fit.term == MeasuredTerm::dram) {
        s.calibrate_bytes = fit.latency_cycles <= 0;
        s.calibration_target = m.measured;
        s.calibration_gpu = args.text("measured_gpu");
    }
    // The engine calibration `gpusched import` wrote: checked against its label when a run uses it.
    if (args.has("calibrated_floor") != args.has("calibration"))
        args.fail(args.has("calibration") ? "calibration" : "calibrated_floor",
                  "calibrated_floor and calibration go together (gpusched import writes both)");
    if (args.has("calibrated_floor")) {
        s.stored_scale = spec_number(args, "calibrated_floor", 0.05, 20, 1);
        s.stored_label = args.text("calibration");
    }
    // The persistent-kernel rule: one wave that fills every resident slot of the reference GPU exactly.
    if (fit.waves == 1 && launch.blocks() == static_cast<std::uint64_t>(fit.blocks_per_sm) * static_cast<std::uint64_t>(reference.sm_count)) {
        s.pool_blocks = launch.blocks();
        s.reference_gpu = reference.name;
        s.request = launch.occupancy_request();
    }
    s.description = "measured " + format_duration(m.measured) + " on " + reference.name +
                    " (calibrated on that measurement): " + std::to_string(fit.waves) + " wave" +
                    (fit.waves == 1 ? "" : "s") + " of " + std::to_string(fit.blocks_per_sm) + " blocks/SM, " +
                    measured_term_name(fit.term) + " term; " + per_warp_text(s.warp, s.latency_cycles);
    if (m.work_from == "bandwidth-rule")
        s.notes.push_back("bandwidth rule: a memory-family launch without shapes in the trace moved its measured duration's "
                          "worth of DRAM bytes at " + reference.name + "'s sustained bandwidth (docs/importing.md)");
    if (m.work_from == "efficiency-rule")
        s.notes.push_back("efficiency rule: a compute-family launch without shapes in the trace did its measured duration's "
                          "worth of " + m.dtype + " FLOPs at " + reference.name + "'s execution.library_efficiency of the peak "
                          "(its dtype from its name; docs/importing.md)");
    if (!m.has_totals() && !m.flops)
        s.notes.push_back("duration-only rule (a duration measured on " + reference.name +
                          ", no instruction or byte totals): every block's wave time is latency, so the time scales "
                          "with the waves; right for latency-bound and one-block-per-SM kernels, pessimistic for "
                          "bandwidth-bound ones");
    else if (m.work_from != "bandwidth-rule" && fit.explained > fit.wave_time + fit.wave_time / 50)  // the rule's bytes are the duration's
        s.notes.push_back("the totals take longer per wave on " + reference.name +
                          " than the measured duration: the simulation on that GPU is longer than the measurement" +
                          std::string(kNoteDetail) + format_ns(fit.explained) + " ns per wave against " +
                          format_ns(fit.wave_time) + " ns measured");
    return s;
}

void build_kernel(SpecArgs& args, KernelLaunch& launch) {
    if (!args.has("blocks") && !args.has("grid")) args.fail_spec("required key 'blocks' (or 'grid') is missing");
    if (!args.has("threads") && !args.has("block")) args.fail_spec("required key 'threads' (or 'block') is missing");
    KernelWork::Settings s = args.has("measured") ? measured(args, launch) : hand_described(args, launch);
    launch.work = std::make_shared<const KernelWork>(std::move(s));
    if (args.has("family")) launch.family = args.text("family");  // checked by measured()
    if (args.has("work_from")) launch.work_from = args.text("work_from");
}

}  // namespace

KernelGeneratorInfo kernel_generator() {
    KernelGeneratorInfo info;
    info.name = "kernel";
    info.description = "any kernel: its work per warp by hand, or a measured duration (+ Nsight Compute totals) on a GPU";
    info.keys = {
        {"warp_instr", "N", "issue slots (warp-instructions) of each active warp, 0..10^12 (default 1: a token)"},
        {"warp_latency", "D", "latency floor of each warp, a duration (or warp_latency_cycles)"},
        {"warp_latency_cycles", "C", "latency floor of each warp in SM cycles, 0..10^12, at the GPU's clock"},
        {"warp_dram_bytes", "B", "device-memory bytes each warp moves, 0..10^15 (default 0)"},
        {"warp_l2_bytes", "B", "further bytes each warp moves that hit L2, 0..10^15 (default 0)"},
        {"warp_l1_wavefronts", "N", "128-byte L1/shared accesses of each warp, 0..10^12 (default 0)"},
        {"active_warps", "W", "warps of every block that do work, 1..warps per block (default all)"},
        {"ns_per_instr", "NS", "`fixed` model only: a block runs max(warp_latency, warp_instr x this) (default 1)"},
        {"measured", "D", "the launch's measured duration on measured_gpu (instead of the warp_* keys)"},
        {"measured_gpu", "PRESET", "the preset of the GPU 'measured' comes from, e.g. h100 (required with measured)"},
        {"instructions", "N", "measured: warp-instructions the launch executed (Nsight Compute), 1..10^18"},
        {"dram_bytes", "B", "measured: device-memory bytes the launch moved (Nsight Compute), 0..10^18"},
        {"l2_bytes", "B", "measured: bytes through L2, hits and misses (Nsight Compute), 0..10^18"},
        {"flops", "N", "measured: floating-point operations of the launch (profiler or shapes), 0..10^18"},
        {"dtype", "T", "measured: the data type of its flops: fp64, fp32, tf32, fp16, bf16, fp8, int8"},
        {"family", "F", "measured: the importer's kernel family (gpusched list kernel-families)"},
        {"work_from", "S", "measured: where the totals came from: ncu, shapes, profiler-flops, bandwidth-rule, duration"},
        {"calibrated_floor", "K", "measured: the engine calibration's scale of the floor (or DRAM bytes), 0.05..20 (written by import)"},
        {"calibration", "LABEL", "measured: what calibrated_floor was found under: version, policy, fingerprint (written by import)"},
    };
    info.example = "kernel:blocks=128,threads=256,smem=200000,measured=120us,measured_gpu=h100";
    info.build = build_kernel;
    return info;
}

}  // namespace gpusched::workloads

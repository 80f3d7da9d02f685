// YAML <-> GpuSpec: strict field-by-field parsing, cross-field checks, and a round-tripping writer.
#include "gpusched/hw/gpu_spec_io.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include "cluster_spec_io.h"
#include "stream_priority_range_io.h"
#include "partition_spec_io.h"
#include "roofline_io.h"
#include "yaml_quoted.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/key_error.h"
#include "gpusched/hw/gpu_spec_provenance.h"
#include "gpusched/hw/presets.h"
#include "gpusched/support/yaml_fields.h"
#include "gpusched/support/text_file.h"

namespace gpusched::hw {

namespace {

constexpr std::int64_t kMaxBytes = std::int64_t{1} << 40;  // 1 TiB: beyond any GPU, catches unit mix-ups
constexpr double kMaxRate = 1e9;

int as_int(std::int64_t v) { return static_cast<int>(v); }

void parse_identity(YamlFields& top, GpuSpec& spec) {
    spec.name = top.string("name");
    for (char c : spec.name) {
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'))
            top.fail("name", "expected letters, digits, '-', '_' or '.', got '" + spec.name + "'");
    }
    spec.full_name = top.string("full_name");
    const std::string cc = top.string("compute_capability");
    const auto dot = cc.find('.');
    const auto major = dot == std::string::npos ? std::nullopt : parse_integer(cc.substr(0, dot));
    const auto minor = dot == std::string::npos ? std::nullopt : parse_integer(cc.substr(dot + 1));
    if (!major || !minor || *major < 1 || *major > 12 || *minor < 0 || *minor > 9)
        top.fail("compute_capability", "expected MAJOR.MINOR with MAJOR in [1, 12] and MINOR in [0, 9], got '" + cc + "'");
    spec.cc_major = as_int(*major);
    spec.cc_minor = as_int(*minor);
    spec.sm_count = as_int(top.integer("sm_count", 1, 100000));
    parse_device_names(top, spec);
}

/// A list of SM-id lists (dispatch_walk.rows / groups), each entry checked like integer_list.
std::vector<std::vector<int>> sm_lists(YamlFields& f, const YAML::Node& node, const std::string& key,
                                       const std::string& path, int sm_count) {
    if (!node.IsSequence()) f.fail(key, "expected a list of SM-id lists, e.g. [[0, 1], [2, 3]]");
    std::vector<std::vector<int>> out;
    for (std::size_t r = 0; r < node.size(); ++r) {
        YAML::Node holder;
        holder["list"] = node[r];
        YamlFields entry(holder, f.source(), path + "." + key + "[" + std::to_string(r) + "]");
        std::vector<int> list;
        for (auto sm : entry.integer_list("list", 0, sm_count - 1)) list.push_back(as_int(sm));
        out.push_back(std::move(list));
    }
    return out;
}

/// topology.dispatch_walk: lead (SM list), rows and groups (lists of SM lists), gaps, start state.
DispatchWalk parse_dispatch_walk(const YAML::Node& node, const std::string& source, int sm_count) {
    const std::string path = "topology.dispatch_walk";
    YamlFields f(node, source, path);
    DispatchWalk walk;
    for (auto sm : f.integer_list("lead", 0, sm_count - 1)) walk.lead.push_back(as_int(sm));
    walk.rows = sm_lists(f, f.child("rows"), "rows", path, sm_count);
    if (auto groups = f.optional_child("groups")) walk.groups = sm_lists(f, *groups, "groups", path, sm_count);
    walk.lead_first_gap = as_int(f.integer("lead_first_gap", 1, 1 << 20));
    walk.lead_gap = as_int(f.integer("lead_gap", 1, 1 << 20));
    walk.start_row = as_int(f.optional_integer("start_row", 0, 1 << 20).value_or(0));
    walk.lead_start = as_int(f.optional_integer("lead_start", 0, 1 << 20).value_or(0));
    walk.lead_step = as_int(f.optional_integer("lead_step", 1, 1 << 20).value_or(1));
    f.finish();
    if (const auto problem = dispatch_walk_problem(walk, sm_count, path); !problem.empty())
        throw InputError(yaml_location(node, source) + ": " + problem);
    return walk;
}

/// topology.completion_sweep: a list of visits {sms: [SM ids], releases: N}.
CompletionSweep parse_completion_sweep(YamlFields& f, const YAML::Node& node, int sm_count) {
    const std::string path = "topology.completion_sweep";
    if (!node.IsSequence()) f.fail("completion_sweep", "expected a list of visits, e.g. [{sms: [0, 1], releases: 3}]");
    CompletionSweep sweep;
    for (std::size_t v = 0; v < node.size(); ++v) {
        const std::string where = path + "[" + std::to_string(v) + "]";
        if (!node[v].IsMap()) throw InputError(yaml_location(node[v], f.source()) + ": " + where + ": expected {sms: [SM ids], releases: N}");
        YamlFields entry(node[v], f.source(), where);
        CompletionSweepVisit visit;
        for (auto sm : entry.integer_list("sms", 0, sm_count - 1)) visit.sms.push_back(as_int(sm));
        visit.releases = entry.number("releases", 0.01, 1e6);
        entry.finish();
        sweep.visits.push_back(std::move(visit));
    }
    if (const auto problem = completion_sweep_problem(sweep, sm_count, path); !problem.empty())
        throw InputError(yaml_location(node, f.source()) + ": " + problem);
    return sweep;
}

void parse_topology(YamlFields& top, GpuSpec& spec) {
    const auto node = top.optional_child("topology");
    if (!node) return;
    YamlFields f(*node, top.source(), "topology");
    if (auto v = f.optional_integer("sms_per_tpc", 1, 64)) spec.sms_per_tpc = as_int(*v);
    if (auto v = f.optional_integer("tpcs_per_gpc", 1, 1024)) spec.tpcs_per_gpc = as_int(*v);
    if (f.has("sm_order")) {
        for (auto id : f.integer_list("sm_order", 0, spec.sm_count - 1)) spec.sm_order.push_back(as_int(id));
        const std::string expected = "expected each SM id 0.." + std::to_string(spec.sm_count - 1) + " exactly once (" +
                                     std::to_string(spec.sm_count) + " entries)";
        std::vector<std::size_t> position(static_cast<std::size_t>(spec.sm_count), 0);  // 1-based entry, 0 = not seen
        for (std::size_t i = 0; i < spec.sm_order.size(); ++i) {
            std::size_t& first = position[static_cast<std::size_t>(spec.sm_order[i])];
            if (first != 0)
                f.fail("sm_order", expected + ", got SM " + std::to_string(spec.sm_order[i]) + " twice (entries " +
                                       std::to_string(first) + " and " + std::to_string(i + 1) + ")");
            first = i + 1;
        }
        if (static_cast<int>(spec.sm_order.size()) != spec.sm_count) {
            std::string missing;
            for (std::size_t sm = 0; sm < position.size() && missing.empty(); ++sm)
                if (position[sm] == 0) missing = std::to_string(sm);
            f.fail("sm_order", expected + ", got " + std::to_string(spec.sm_order.size()) + " entries (SM " + missing +
                                   " missing)");
        }
    } else {
        (void)f.optional_child("sm_order");
    }
    if (f.has("partition_order")) {
        for (auto id : f.integer_list("partition_order", 0, spec.sm_count - 1)) spec.partition_order.push_back(as_int(id));
        std::vector<bool> seen(static_cast<std::size_t>(spec.sm_count), false);
        for (std::size_t i = 0; i < spec.partition_order.size(); ++i) {
            const auto sm = static_cast<std::size_t>(spec.partition_order[i]);
            if (seen[sm])
                f.fail("partition_order", "expected distinct SM ids, got SM " + std::to_string(sm) + " twice (entry " +
                                              std::to_string(i + 1) + ")");
            seen[sm] = true;
        }
    } else {
        (void)f.optional_child("partition_order");
    }
    if (auto node = f.optional_child("dispatch_walk")) spec.dispatch_walk = parse_dispatch_walk(*node, top.source(), spec.sm_count);
    if (auto node = f.optional_child("completion_sweep")) spec.completion_sweep = parse_completion_sweep(f, *node, spec.sm_count);
    f.finish();
}

void parse_limits(YamlFields& top, GpuSpec& spec) {
    YamlFields f(top.child("limits"), top.source(), "limits");
    spec.warp_size = as_int(f.integer("warp_size", 1, 64));
    spec.max_threads_per_sm = as_int(f.integer("max_threads_per_sm", 1, 1 << 20));
    spec.max_warps_per_sm = as_int(f.integer("max_warps_per_sm", 1, 1 << 15));
    spec.max_blocks_per_sm = as_int(f.integer("max_blocks_per_sm", 1, 4096));
    spec.max_threads_per_block = as_int(f.integer("max_threads_per_block", 1, 1 << 20));
    spec.registers_per_sm = as_int(f.integer("registers_per_sm", 1, 1 << 26));
    spec.max_registers_per_block = as_int(f.integer("max_registers_per_block", 1, 1 << 26));
    spec.max_registers_per_thread = as_int(f.integer("max_registers_per_thread", 1, 65536));
    spec.shared_memory_per_sm = f.integer("shared_memory_per_sm", 1, kMaxBytes);
    spec.shared_memory_per_block = f.integer("shared_memory_per_block", 1, kMaxBytes);
    spec.shared_memory_per_block_optin = f.integer("shared_memory_per_block_optin", 1, kMaxBytes);
    spec.reserved_shared_memory_per_block = f.integer("reserved_shared_memory_per_block", 0, kMaxBytes);
    for (auto kib : f.integer_list("shared_memory_configs_kib", 0, kMaxBytes / 1024))
        spec.shared_memory_configs.push_back(kib * 1024);
    if (auto v = f.optional_integer("barriers_per_sm", 1, 1 << 20)) spec.barriers_per_sm = as_int(*v);
    f.finish();
}

void parse_allocation(YamlFields& top, GpuSpec& spec) {
    YamlFields f(top.child("allocation"), top.source(), "allocation");
    spec.register_granularity =
        f.choice("register_granularity", {"warp", "block"}) == "warp" ? RegisterGranularity::warp
                                                                       : RegisterGranularity::block;
    spec.register_allocation_unit = as_int(f.integer("register_allocation_unit", 1, 1 << 16));
    if (auto node = f.optional_child("register_allocation_unit_exceptions")) {
        if (!node->IsMap())
            f.fail("register_allocation_unit_exceptions", "expected a mapping REGISTERS: UNIT");
        for (auto it = node->begin(); it != node->end(); ++it) {
            const std::int64_t regs = parse_integer(it->first.Scalar()).value_or(0);
            const std::int64_t unit = it->second.IsScalar() ? parse_integer(it->second.Scalar()).value_or(0) : 0;
            if (regs < 1 || regs > 65536 || unit < 1 || unit > (1 << 16))
                throw InputError(yaml_location(it->first, top.source()) +
                                 ": key 'allocation.register_allocation_unit_exceptions': expected entries "
                                 "REGISTERS: UNIT with REGISTERS in [1, 65536] and UNIT in [1, 65536]");
            spec.register_allocation_unit_exceptions[as_int(regs)] = as_int(unit);
        }
    }
    spec.warp_allocation_granularity =
        as_int(f.optional_integer("warp_allocation_granularity", 1, 64).value_or(1));
    spec.register_sub_partitions = as_int(f.integer("register_sub_partitions", 1, 64));
    spec.shared_memory_allocation_unit = as_int(f.integer("shared_memory_allocation_unit", 1, 1 << 20));
    f.finish();
}

void parse_execution(YamlFields& top, GpuSpec& spec) {
    YamlFields f(top.child("execution"), top.source(), "execution");
    spec.warp_schedulers_per_sm = as_int(f.integer("warp_schedulers_per_sm", 1, 64));
    spec.issue_width = as_int(f.integer("issue_width", 1, 16));
    if (f.has("issue_model"))
        spec.issue_model = f.choice("issue_model", {"share", "queue"}) == "queue" ? GpuSpec::IssueModel::queue
                                                                                 : GpuSpec::IssueModel::share;
    if (auto v = f.optional_integer("issue_fair_warps", 1, 1024)) spec.issue_fair_warps = static_cast<double>(*v);
    if (auto v = f.optional_integer("fp32_lanes_per_sm", 1, 1 << 16)) spec.fp32_lanes_per_sm = as_int(*v);
    spec.clock_mhz = f.optional_number("clock_mhz", 1, 1e5);
    parse_roofline(f, spec);
    spec.tensor_clock_mhz = f.optional_number("tensor_clock_mhz", 1, 1e5);
    spec.tensor_power_sms = f.optional_number("tensor_power_sms", 1e-3, 1e6);
    if (spec.tensor_clock_mhz.has_value() != spec.tensor_power_sms.has_value())
        f.fail(spec.tensor_clock_mhz ? "tensor_clock_mhz" : "tensor_power_sms",
               "tensor_clock_mhz and tensor_power_sms go together (the power-limited tensor clock, docs/gpu-spec.md)");
    spec.l1_wavefronts_per_cycle = f.optional_number("l1_wavefronts_per_cycle", 1e-3, 1024);
    if (f.has("l1_model"))
        spec.l1_model = f.choice("l1_model", {"cap", "queue"}) == "queue" ? GpuSpec::L1Model::queue : GpuSpec::L1Model::cap;
    spec.alu_latency_cycles = f.optional_number("alu_latency_cycles", 1, 1e6);
    spec.fma_latency_cycles = f.optional_number("fma_latency_cycles", 1, 1e6);
    spec.sfu_latency_cycles = f.optional_number("sfu_latency_cycles", 1, 1e6);
    spec.conversion_latency_cycles = f.optional_number("conversion_latency_cycles", 1, 1e6);
    spec.shared_memory_latency_cycles = f.optional_number("shared_memory_latency_cycles", 1, 1e6);
    spec.barrier_cycles = f.optional_number("barrier_cycles", 0, 1e6);
    spec.barrier_cycles_per_warp = f.optional_number("barrier_cycles_per_warp", 0, 1e6);
    f.finish();
}

void parse_optional_sections(YamlFields& top, GpuSpec& spec) {
    if (auto node = top.optional_child("memory")) {
        YamlFields f(*node, top.source(), "memory");
        spec.dram_bandwidth_gbps = f.optional_number("dram_bandwidth_gbps", 1e-3, kMaxRate);
        spec.sm_dram_bandwidth_gbps = f.optional_number("sm_dram_bandwidth_gbps", 1e-3, kMaxRate);
        spec.l2_bytes = f.optional_integer("l2_bytes", 0, kMaxBytes);
        spec.l2_bandwidth_gbps = f.optional_number("l2_bandwidth_gbps", 1e-3, kMaxRate);
        spec.l1_hit_latency_cycles = f.optional_number("l1_hit_latency_cycles", 1, 1e6);
        spec.l2_hit_latency_cycles = f.optional_number("l2_hit_latency_cycles", 1, 1e6);
        spec.dram_latency_cycles = f.optional_number("dram_latency_cycles", 1, 1e6);
        spec.tile_fill_extra_cycles = f.optional_number("tile_fill_extra_cycles", 0, 1e6);
        f.finish();
    }
    if (auto node = top.optional_child("host_link")) {
        YamlFields f(*node, top.source(), "host_link");
        spec.host_link_gbps = f.optional_number("bandwidth_gbps", 1e-3, kMaxRate);
        spec.host_link_pageable_gbps = f.optional_number("pageable_bandwidth_gbps", 1e-3, kMaxRate);
        spec.host_link_latency_ns = f.optional_number("latency_ns", 0, 1e12);
        if (auto v = f.optional_integer("copy_engines", 0, 64)) spec.copy_engines = as_int(*v);
        f.finish();
    }
    if (auto node = top.optional_child("overheads")) {
        YamlFields f(*node, top.source(), "overheads");
        spec.kernel_launch_ns = f.optional_number("kernel_launch_ns", 0, 1e12);
        spec.block_dispatch_latency_ns = f.optional_number("block_dispatch_latency_ns", 0, 1e12);
        spec.block_dispatch_interval_ns = f.optional_number("block_dispatch_interval_ns", 0, 1e12);
        spec.sm_block_launch_ns = f.optional_number("sm_block_launch_ns", 0, 1e6);
        spec.sm_warp_launch_ns = f.optional_number("sm_warp_launch_ns", 0, 1e6);
        spec.block_completion_interval_ns = f.optional_number("block_completion_interval_ns", 0, 1e6);
        spec.host_launch_interval_ns = f.optional_number("host_launch_interval_ns", 0, 1e9);
        spec.graph_kernel_launch_ns = f.optional_number("graph_kernel_launch_ns", 0, 1e12);
        spec.graph_launch_per_pending_kernel_ns = f.optional_number("graph_launch_per_pending_kernel_ns", 0, 1e9);
        spec.kernel_start_interval_ns = f.optional_number("kernel_start_interval_ns", 0, 1e9);
        if (auto v = f.optional_integer("launch_queue_depth", 1, 1'000'000'000)) spec.launch_queue_depth = as_int(*v);
        f.finish();
    }
}

[[noreturn]] void inconsistent(const std::string& source, const std::string& what) {
    throw InconsistentSpecError(source + ": inconsistent spec: " + what);
}



}  // namespace

void validate_gpu_spec(const GpuSpec& s, const std::string& source) {
    const auto n = [](auto v) { return std::to_string(v); };
    if (std::int64_t{s.max_warps_per_sm} * s.warp_size < s.max_threads_per_sm)
        inconsistent(source, "limits.max_warps_per_sm x limits.warp_size (" + n(s.max_warps_per_sm) + " x " +
                                  n(s.warp_size) + ") must be >= limits.max_threads_per_sm (" +
                                  n(s.max_threads_per_sm) + ")");
    if (s.max_threads_per_block > s.max_threads_per_sm)
        inconsistent(source, "limits.max_threads_per_block (" + n(s.max_threads_per_block) +
                                  ") must be <= limits.max_threads_per_sm (" + n(s.max_threads_per_sm) + ")");
    if (s.max_threads_per_block % s.warp_size != 0)
        inconsistent(source, "limits.max_threads_per_block (" + n(s.max_threads_per_block) +
                                  ") must be a multiple of limits.warp_size (" + n(s.warp_size) + ")");
    if (s.max_registers_per_block > s.registers_per_sm)
        inconsistent(source, "limits.max_registers_per_block (" + n(s.max_registers_per_block) +
                                  ") must be <= limits.registers_per_sm (" + n(s.registers_per_sm) + ")");
    if (s.registers_per_sm % s.register_sub_partitions != 0)
        inconsistent(source, "limits.registers_per_sm (" + n(s.registers_per_sm) +
                                  ") must divide evenly over allocation.register_sub_partitions (" +
                                  n(s.register_sub_partitions) + ")");
    if (s.shared_memory_per_block > s.shared_memory_per_block_optin)
        inconsistent(source, "limits.shared_memory_per_block (" + n(s.shared_memory_per_block) +
                                  ") must be <= limits.shared_memory_per_block_optin (" +
                                  n(s.shared_memory_per_block_optin) + ")");
    if (s.shared_memory_per_block_optin > s.shared_memory_per_sm)
        inconsistent(source, "limits.shared_memory_per_block_optin (" + n(s.shared_memory_per_block_optin) +
                                  ") must be <= limits.shared_memory_per_sm (" + n(s.shared_memory_per_sm) + ")");
    if (s.shared_memory_configs.empty())
        inconsistent(source, "limits.shared_memory_configs_kib must list at least one size");
    if (!std::is_sorted(s.shared_memory_configs.begin(), s.shared_memory_configs.end()) ||
        std::adjacent_find(s.shared_memory_configs.begin(), s.shared_memory_configs.end()) !=
            s.shared_memory_configs.end())
        inconsistent(source, "limits.shared_memory_configs_kib must be strictly ascending");
    if (s.shared_memory_configs.back() != s.shared_memory_per_sm)
        inconsistent(source, "the last limits.shared_memory_configs_kib entry (" +
                                  n(s.shared_memory_configs.back() / 1024) +
                                  " KiB) must equal limits.shared_memory_per_sm (" + n(s.shared_memory_per_sm) +
                                  " bytes)");
    if (!s.sm_order.empty() && static_cast<int>(s.sm_order.size()) != s.sm_count)
        inconsistent(source, "topology.sm_order must list all " + n(s.sm_count) + " SMs");
}

GpuSpec parse_gpu_spec(const std::string& yaml_text, const std::string& source) {
    const YAML::Node root = parse_yaml_document(yaml_text, source);
    YamlFields top(root, source, "");
    GpuSpec spec;
    parse_identity(top, spec);
    parse_topology(top, spec);
    parse_limits(top, spec);
    parse_allocation(top, spec);
    parse_execution(top, spec);
    parse_optional_sections(top, spec);
    spec.clusters = parse_cluster_spec(top, spec.sm_count);
    spec.stream_priority_range = parse_stream_priority_range(top);
    spec.partitions = parse_partition_spec(top, spec.sm_count);
    parse_gpu_provenance(top, spec);
    top.finish();
    validate_gpu_spec(spec, source);
    return spec;
}

GpuSpec load_gpu_spec_file(const std::string& path) {
    return parse_gpu_spec(read_text_file(path, "GPU spec file", kMaxGpuSpecFileBytes), path);
}

GpuSpec resolve_gpu(const std::string& name_or_path) {
    if (auto yaml = preset_yaml(name_or_path))
        return parse_gpu_spec(std::string(*yaml), "preset " + *canonical_preset_name(name_or_path));
    const bool looks_like_path = name_or_path.find('/') != std::string::npos ||
                                 name_or_path.ends_with(".yaml") || name_or_path.ends_with(".yml");
    if (looks_like_path) return load_gpu_spec_file(name_or_path);
    std::string known;
    for (const auto& name : preset_names()) known += (known.empty() ? "" : ", ") + name;
    throw KeyError("gpu", "unknown GPU '" + name_or_path + "' (presets: " + known + "; or a path to a .yaml file)");
}

namespace {

void write_int_list(std::ostream& y, const std::vector<int>& list) {
    y << "[";
    for (std::size_t i = 0; i < list.size(); ++i) y << (i ? ", " : "") << list[i];
    y << "]";
}

void write_dispatch_walk(std::ostream& y, const DispatchWalk& w) {
    y << "  dispatch_walk:\n    lead: ";
    write_int_list(y, w.lead);
    for (const auto* lists : {&w.rows, &w.groups}) {
        if (lists->empty()) continue;
        y << (lists == &w.rows ? "\n    rows:\n" : "    groups:\n");
        for (const auto& list : *lists) {
            y << "      - ";
            write_int_list(y, list);
            y << "\n";
        }
    }
    y << "    lead_first_gap: " << w.lead_first_gap << "\n    lead_gap: " << w.lead_gap << "\n    start_row: "
      << w.start_row << "\n    lead_start: " << w.lead_start << "\n    lead_step: " << w.lead_step << "\n";
}

void write_completion_sweep(std::ostream& y, const CompletionSweep& sweep) {
    y << "  completion_sweep:\n";
    for (const auto& visit : sweep.visits) {
        y << "    - {sms: ";
        write_int_list(y, visit.sms);
        y << ", releases: " << number_text(visit.releases) << "}\n";
    }
}

}  // namespace

std::string to_yaml(const GpuSpec& s) {
    std::ostringstream y;
    const auto opt_num = [&](const char* indent_key, const std::optional<double>& v) {
        if (v) y << indent_key << ": " << number_text(*v) << "\n";
    };
    const auto opt_int = [&](const char* indent_key, const auto& v) {
        if (v) y << indent_key << ": " << *v << "\n";
    };
    y << "name: " << s.name << "\n";
    y << "full_name: " << yaml_quoted(s.full_name) << "\n";
    y << "compute_capability: \"" << s.compute_capability() << "\"\n";
    y << "sm_count: " << s.sm_count << "\n";
    write_device_names(y, s);
    if (s.sms_per_tpc || s.tpcs_per_gpc || !s.sm_order.empty() || !s.partition_order.empty() || s.dispatch_walk ||
        s.completion_sweep) {
        y << "topology:\n";
        opt_int("  sms_per_tpc", s.sms_per_tpc);
        opt_int("  tpcs_per_gpc", s.tpcs_per_gpc);
        if (!s.sm_order.empty()) {
            y << "  sm_order: [";
            for (std::size_t i = 0; i < s.sm_order.size(); ++i) y << (i ? ", " : "") << s.sm_order[i];
            y << "]\n";
        }
        if (!s.partition_order.empty()) {
            y << "  partition_order: [";
            for (std::size_t i = 0; i < s.partition_order.size(); ++i) y << (i ? ", " : "") << s.partition_order[i];
            y << "]\n";
        }
        if (s.dispatch_walk) write_dispatch_walk(y, *s.dispatch_walk);
        if (s.completion_sweep) write_completion_sweep(y, *s.completion_sweep);
    }
    y << "limits:\n"
      << "  warp_size: " << s.warp_size << "\n"
      << "  max_threads_per_sm: " << s.max_threads_per_sm << "\n"
      << "  max_warps_per_sm: " << s.max_warps_per_sm << "\n"
      << "  max_blocks_per_sm: " << s.max_blocks_per_sm << "\n"
      << "  max_threads_per_block: " << s.max_threads_per_block << "\n"
      << "  registers_per_sm: " << s.registers_per_sm << "\n"
      << "  max_registers_per_block: " << s.max_registers_per_block << "\n"
      << "  max_registers_per_thread: " << s.max_registers_per_thread << "\n"
      << "  shared_memory_per_sm: " << s.shared_memory_per_sm << "\n"
      << "  shared_memory_per_block: " << s.shared_memory_per_block << "\n"
      << "  shared_memory_per_block_optin: " << s.shared_memory_per_block_optin << "\n"
      << "  reserved_shared_memory_per_block: " << s.reserved_shared_memory_per_block << "\n"
      << "  shared_memory_configs_kib: [";
    for (std::size_t i = 0; i < s.shared_memory_configs.size(); ++i)
        y << (i ? ", " : "") << s.shared_memory_configs[i] / 1024;
    y << "]\n";
    opt_int("  barriers_per_sm", s.barriers_per_sm);
    y << "allocation:\n"
      << "  register_granularity: " << (s.register_granularity == RegisterGranularity::warp ? "warp" : "block") << "\n"
      << "  register_allocation_unit: " << s.register_allocation_unit << "\n";
    if (!s.register_allocation_unit_exceptions.empty()) {
        y << "  register_allocation_unit_exceptions: {";
        bool first = true;
        for (const auto& [regs, unit] : s.register_allocation_unit_exceptions) {
            y << (first ? "" : ", ") << regs << ": " << unit;
            first = false;
        }
        y << "}\n";
    }
    y << "  warp_allocation_granularity: " << s.warp_allocation_granularity << "\n"
      << "  register_sub_partitions: " << s.register_sub_partitions << "\n"
      << "  shared_memory_allocation_unit: " << s.shared_memory_allocation_unit << "\n";
    y << "execution:\n"
      << "  warp_schedulers_per_sm: " << s.warp_schedulers_per_sm << "\n"
      << "  issue_width: " << s.issue_width << "\n";
    if (s.issue_model == GpuSpec::IssueModel::queue) y << "  issue_model: queue\n";
    opt_num("  issue_fair_warps", s.issue_fair_warps);
    opt_int("  fp32_lanes_per_sm", s.fp32_lanes_per_sm);
    opt_num("  clock_mhz", s.clock_mhz);
    write_roofline(y, s);
    opt_num("  tensor_clock_mhz", s.tensor_clock_mhz);
    opt_num("  tensor_power_sms", s.tensor_power_sms);
    opt_num("  l1_wavefronts_per_cycle", s.l1_wavefronts_per_cycle);
    if (s.l1_model == GpuSpec::L1Model::queue) y << "  l1_model: queue\n";
    opt_num("  alu_latency_cycles", s.alu_latency_cycles);
    opt_num("  fma_latency_cycles", s.fma_latency_cycles);
    opt_num("  sfu_latency_cycles", s.sfu_latency_cycles);
    opt_num("  conversion_latency_cycles", s.conversion_latency_cycles);
    opt_num("  shared_memory_latency_cycles", s.shared_memory_latency_cycles);
    opt_num("  barrier_cycles", s.barrier_cycles);
    opt_num("  barrier_cycles_per_warp", s.barrier_cycles_per_warp);
    if (s.dram_bandwidth_gbps || s.sm_dram_bandwidth_gbps || s.l2_bytes || s.l2_bandwidth_gbps ||
        s.l1_hit_latency_cycles || s.l2_hit_latency_cycles || s.dram_latency_cycles || s.tile_fill_extra_cycles) {
        y << "memory:\n";
        opt_num("  dram_bandwidth_gbps", s.dram_bandwidth_gbps);
        opt_num("  sm_dram_bandwidth_gbps", s.sm_dram_bandwidth_gbps);
        opt_int("  l2_bytes", s.l2_bytes);
        opt_num("  l2_bandwidth_gbps", s.l2_bandwidth_gbps);
        opt_num("  l1_hit_latency_cycles", s.l1_hit_latency_cycles);
        opt_num("  l2_hit_latency_cycles", s.l2_hit_latency_cycles);
        opt_num("  dram_latency_cycles", s.dram_latency_cycles);
        opt_num("  tile_fill_extra_cycles", s.tile_fill_extra_cycles);
    }
    if (s.host_link_gbps || s.host_link_pageable_gbps || s.host_link_latency_ns || s.copy_engines) {
        y << "host_link:\n";
        opt_num("  bandwidth_gbps", s.host_link_gbps);
        opt_num("  pageable_bandwidth_gbps", s.host_link_pageable_gbps);
        opt_num("  latency_ns", s.host_link_latency_ns);
        opt_int("  copy_engines", s.copy_engines);
    }
    if (s.kernel_launch_ns || s.block_dispatch_latency_ns || s.block_dispatch_interval_ns || s.sm_block_launch_ns ||
        s.sm_warp_launch_ns || s.block_completion_interval_ns || s.host_launch_interval_ns || s.graph_kernel_launch_ns ||
        s.graph_launch_per_pending_kernel_ns || s.kernel_start_interval_ns || s.launch_queue_depth) {
        y << "overheads:\n";
        opt_num("  kernel_launch_ns", s.kernel_launch_ns);
        opt_num("  block_dispatch_latency_ns", s.block_dispatch_latency_ns);
        opt_num("  block_dispatch_interval_ns", s.block_dispatch_interval_ns);
        opt_num("  sm_block_launch_ns", s.sm_block_launch_ns);
        opt_num("  sm_warp_launch_ns", s.sm_warp_launch_ns);
        opt_num("  block_completion_interval_ns", s.block_completion_interval_ns);
        opt_num("  host_launch_interval_ns", s.host_launch_interval_ns);
        opt_num("  graph_kernel_launch_ns", s.graph_kernel_launch_ns);
        opt_num("  graph_launch_per_pending_kernel_ns", s.graph_launch_per_pending_kernel_ns);
        opt_num("  kernel_start_interval_ns", s.kernel_start_interval_ns);
        opt_int("  launch_queue_depth", s.launch_queue_depth);
    }
    if (s.clusters) write_cluster_spec(y, *s.clusters);
    if (s.stream_priority_range) write_stream_priority_range(y, *s.stream_priority_range);
    if (s.partitions) write_partition_spec(y, *s.partitions);
    write_gpu_provenance(y, s);
    return y.str();
}

}  // namespace gpusched::hw

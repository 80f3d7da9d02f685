// streamcluster's gain kernel with rake size R: per-block work from its loops, and the copies after each call.
#include "gpusched/workloads/streamcluster.h"

#include <algorithm>
#include <memory>

#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/latency_chains.h"
#include "gpusched/workloads/spec_numbers.h"
#include "warp_arithmetic.h"

namespace gpusched::workloads {

namespace {
constexpr std::uint64_t kFloatBytes = 4;          // coordinates, weights, costs and the work array are floats
constexpr std::uint64_t kPointScalarBytes = 12;   // weight[p], cost[p], assign[p]: one float or int each
constexpr std::uint32_t kStreamclusterThreads = 256;    // Rodinia's and the measured runner's block size
constexpr std::int64_t kMaxPoints = std::int64_t{1} << 40;
constexpr std::int64_t kMaxDims = std::int64_t{1} << 20;
constexpr std::int64_t kMaxCenters = std::int64_t{1} << 20;
constexpr std::int64_t kMaxCalls = 1'000'000;
}  // namespace

std::uint64_t StreamclusterKeys::points_of_thread(std::uint64_t t) const {
    const std::uint64_t t_count = tines();
    if (t >= t_count) return 0;
    return points / t_count + (t < points % t_count ? 1 : 0);
}

std::uint64_t StreamclusterKeys::points_of_threads(std::uint64_t t0, std::uint64_t t1) const {
    const std::uint64_t t_count = tines();
    t1 = std::min(t1, t_count);
    if (t0 >= t1) return 0;
    const std::uint64_t rem = points % t_count;
    const std::uint64_t extra = std::min(t1, rem) > t0 ? std::min(t1, rem) - t0 : 0;
    return (t1 - t0) * (points / t_count) + extra;
}

StreamclusterWork::StreamclusterWork(StreamclusterKeys keys, std::uint64_t threads_per_block)
    : keys_(keys), threads_per_block_(threads_per_block) {}

std::uint64_t StreamclusterWork::active_threads(std::uint64_t block) const {
    const std::uint64_t first = block * threads_per_block_;
    const std::uint64_t t_count = keys_.tines();
    return first >= t_count ? 0 : std::min(threads_per_block_, t_count - first);
}

std::uint64_t StreamclusterWork::busiest_points(std::uint64_t block) const {
    return keys_.points_of_thread(block * threads_per_block_);
}

double StreamclusterWork::issue_slots(std::uint64_t block) const {
    return static_cast<double>(busiest_points(block)) *
           (static_cast<double>(keys_.dims) * keys_.instr_per_dim + keys_.instr_per_point);
}

double StreamclusterWork::block_dram_bytes(std::uint64_t block) const {
    const std::uint64_t first = block * threads_per_block_;
    const auto points = static_cast<double>(keys_.points_of_threads(first, first + threads_per_block_));
    const double per_point = static_cast<double>(kFloatBytes * keys_.dims + kPointScalarBytes);
    const double per_thread = static_cast<double>(kFloatBytes * (keys_.centers + 1));
    return points * per_point + static_cast<double>(active_threads(block)) * per_thread;
}

Time StreamclusterWork::duration(std::uint64_t block) const {
    return instruction_time(issue_slots(block), keys_.ns_per_instr).value_or(0);
}

int StreamclusterWork::active_warps(std::uint64_t block, int warps_per_block) const {
    const std::uint64_t warps = ceil_div(active_threads(block), kCudaWarpSize);
    return static_cast<int>(std::min<std::uint64_t>(warps, static_cast<std::uint64_t>(warps_per_block)));
}

std::optional<WarpWork> StreamclusterWork::warp_work(std::uint64_t block) const {
    const std::uint64_t warps = ceil_div(active_threads(block), kCudaWarpSize);
    WarpWork w;
    w.issue_slots = issue_slots(block);
    w.latency_bound = 0;  // cycles: latency_bound_cycles()
    w.dram_bytes = warps == 0 ? 0 : block_dram_bytes(block) / static_cast<double>(warps);
    return w;
}

double StreamclusterWork::latency_bound_cycles(std::uint64_t block) const {
    return static_cast<double>(busiest_points(block)) * static_cast<double>(keys_.dims) * keys_.dim_latency_cycles;
}

std::string StreamclusterWork::describe() const {
    std::string out = "streamcluster pgain, " + std::to_string(keys_.points) + " points x " +
                      std::to_string(keys_.dims) + " dims, K " + std::to_string(keys_.centers) + ", rake " +
                      std::to_string(keys_.rake) + ": " + std::to_string(keys_.tines()) + " threads, " +
                      format_spec_number(issue_slots(0)) + " issue slots per warp";
    if (keys_.dim_latency_cycles > 0) out += ", latency " + format_spec_number(latency_bound_cycles(0)) + " cycles";
    return out;
}

namespace {
/// Whether the points' coordinates (N x D floats) fit in the GPU's L2.
bool coordinates_in_l2(const StreamclusterKeys& keys, const hw::GpuSpec& gpu) {
    return gpu.l2_bytes && static_cast<double>(keys.points) * static_cast<double>(keys.dims) * kFloatBytes <=
                               static_cast<double>(*gpu.l2_bytes);
}
}  // namespace

std::shared_ptr<const BlockWork> StreamclusterWork::bind(const GpuContext& context) const {
    if (keys_.dim_latency_given) return nullptr;
    GpuNumbers numbers(context.gpu, "streamcluster", "dim_latency_cycles");
    StreamclusterKeys keys = keys_;
    keys.dim_latency_cycles = streamcluster_trip_chain(numbers, coordinates_in_l2(keys_, context.gpu)).cycles_per_step;
    keys.dim_latency_given = true;
    return std::make_shared<const StreamclusterWork>(keys, threads_per_block_);
}

WorkDerivation StreamclusterWork::derivation(const GpuContext& context) const {
    WorkDerivation out;
    out.steps.push_back("issue slots of block 0's busiest warp = p x (D x instr_per_dim + instr_per_point) = " +
                        format_spec_number(issue_slots(0)));
    const double trips = static_cast<double>(busiest_points(0)) * static_cast<double>(keys_.dims);
    if (keys_.dim_latency_given) {
        out.steps.push_back("latency floor = p x D x dim_latency_cycles (given) = " +
                            format_spec_number(latency_bound_cycles(0)) + " cycles");
        return out;
    }
    GpuNumbers numbers(context.gpu, "streamcluster", "dim_latency_cycles");
    const bool in_l2 = coordinates_in_l2(keys_, context.gpu);
    const StepChain chain = streamcluster_trip_chain(numbers, in_l2);
    out.steps.push_back(std::string("coordinates (N x D x 4 B) ") + (in_l2 ? "fit in L2" : "do not fit in L2: DRAM"));
    out.steps.push_back(describe_step_chain(chain, "trip"));
    out.steps.push_back("latency floor = p x D x " + format_spec_number(chain.cycles_per_step) + " = " +
                        format_spec_number(trips * chain.cycles_per_step) + " cycles (derived from the GPU)");
    out.gpu_numbers = numbers.used();
    return out;
}

std::uint64_t streamcluster_blocks(const StreamclusterKeys& keys, std::uint64_t threads_per_block) {
    return (keys.tines() + threads_per_block - 1) / threads_per_block;
}

std::vector<Operation> streamcluster_copies(const StreamclusterKeys& keys) {
    std::vector<Operation> ops;
    if (keys.copy == StreamclusterCopy::none) return ops;
    for (const std::uint64_t bytes : {keys.work_bytes(), keys.switch_bytes()}) {
        if (bytes == 0) continue;
        Operation op;
        op.kind = Operation::Kind::copy;
        op.copy.direction = CopyDirection::device_to_host;
        op.copy.bytes = bytes;
        op.copy.pinned = keys.copy == StreamclusterCopy::pinned;
        ops.push_back(op);
    }
    return ops;
}

namespace {

StreamclusterCopy parse_copy(SpecArgs& args) {
    const std::string text = args.optional_text("copy").value_or("pinned");
    if (text == "pinned") return StreamclusterCopy::pinned;
    if (text == "pageable") return StreamclusterCopy::pageable;
    if (text == "none") return StreamclusterCopy::none;
    args.fail("copy", "expected pinned, pageable or none, got '" + text + "'");
}

void build_streamcluster(SpecArgs& args, KernelLaunch& launch) {
    if (args.has("blocks") || args.has("grid"))
        args.fail(args.has("blocks") ? "blocks" : "grid",
                  "streamcluster sizes its grid from points, rake and threads; leave it out");
    if (!args.has("points")) args.fail_spec("required key 'points' is missing");
    if (!args.has("dims")) args.fail_spec("required key 'dims' is missing");
    StreamclusterKeys keys;
    keys.points = static_cast<std::uint64_t>(args.integer("points", 1, kMaxPoints));
    keys.dims = static_cast<std::uint64_t>(args.integer("dims", 1, kMaxDims));
    keys.centers = static_cast<std::uint64_t>(args.optional_integer("centers", 1, kMaxCenters).value_or(20));
    keys.rake = static_cast<std::uint64_t>(
        args.optional_integer("rake", 1, static_cast<std::int64_t>(keys.points)).value_or(1));
    keys.calls = static_cast<std::uint64_t>(args.optional_integer("calls", 1, kMaxCalls).value_or(1));
    keys.copy = parse_copy(args);
    keys.flag_bytes = static_cast<std::uint64_t>(args.optional_integer("flag_bytes", 0, 8).value_or(1));
    keys.instr_per_dim = spec_number(args, "instr_per_dim", 0, 1e6, keys.instr_per_dim);
    keys.instr_per_point = spec_number(args, "instr_per_point", 0, 1e6, keys.instr_per_point);
    keys.dim_latency_given = args.has("dim_latency_cycles");
    keys.dim_latency_cycles = spec_number(args, "dim_latency_cycles", 0, 1e9, keys.dim_latency_cycles);
    keys.ns_per_instr = spec_number(args, "ns_per_instr", 0, 1e6, keys.ns_per_instr);
    if (!args.has("threads") && !args.has("block")) launch.block = Dim3{kStreamclusterThreads, 1, 1};
    const std::uint64_t threads = launch.block.count();
    const std::uint64_t blocks = streamcluster_blocks(keys, threads);
    const auto grid = grid_for_blocks(blocks);
    if (!grid) args.fail_spec(std::to_string(blocks) + " blocks cannot form a grid; choose another rake or threads");
    launch.grid = *grid;
    StreamclusterWork work(keys, threads);
    const double slots = work.issue_slots(0);
    if (!instruction_time(slots, keys.ns_per_instr))
        args.fail(args.has("ns_per_instr") ? "ns_per_instr" : "dims",
                  format_spec_number(slots) + " issue slots x " + format_spec_number(keys.ns_per_instr) +
                      " ns per instruction is beyond the longest duration (2^63 ps)");
    launch.work = std::make_shared<const StreamclusterWork>(std::move(work));
}

const StreamclusterKeys& keys_of(const KernelLaunch& launch) {
    return dynamic_cast<const StreamclusterWork&>(*launch.work).keys();
}

}  // namespace

KernelGeneratorInfo streamcluster_generator() {
    KernelGeneratorInfo info;
    info.name = "streamcluster";
    info.description = "streamcluster's gain kernel with rake size R (each thread R points) and its device-to-host copies";
    info.keys = {
        {"points", "N", "points of the pass, 1..2^40 (required)"},
        {"dims", "D", "coordinates per point, 1..2^20 (required)"},
        {"centers", "K", "open centres, 1..2^20 (default 20); each thread's work row is K + 1 floats"},
        {"rake", "R", "points per thread, 1..N (default 1): T = ceil(N / R) threads"},
        {"calls", "C", "gain-kernel calls, each followed by its copies, 1..10^6 (default 1)"},
        {"copy", "pinned|pageable|none", "copies of the work array and flags after each call (default pinned)"},
        {"flag_bytes", "B", "bytes per point of the switch flags copied back, 0..8 (default 1; 0: no flag copy)"},
        {"instr_per_dim", "I", "warp-instructions per distance-loop trip, 0..10^6 (default 6)"},
        {"instr_per_point", "I", "other warp-instructions per point, 0..10^6 (default 20)"},
        {"dim_latency_cycles", "C", "latency-bound cycles per distance-loop trip, 0..10^9 (default: the loop's dependency chain on the GPU)"},
        {"ns_per_instr", "NS", "`fixed` model only: nanoseconds per warp-instruction, 0..10^6 (default 1)"},
    };
    info.example = "streamcluster:points=65536,dims=256,centers=20,rake=8,regs=40";
    info.build = build_streamcluster;
    info.launches = [](const KernelLaunch& launch) { return keys_of(launch).calls; };
    info.after_each = [](const KernelLaunch& launch) { return streamcluster_copies(keys_of(launch)); };
    return info;
}

}  // namespace gpusched::workloads

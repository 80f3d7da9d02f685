// SsspWork: the relax, minimum and update kernels' per-block instructions and bytes from one instance's sets.
#include "gpusched/workloads/sssp_work.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <stdexcept>
#include <utility>

#include "gpusched/support/checked_time.h"
#include "gpusched/support/key_error.h"
#include "gpusched/workloads/sssp_latency.h"
#include "gpusched/workloads/spec_numbers.h"
#include "warp_arithmetic.h"
#include "sssp_element_bytes.h"

namespace gpusched::workloads {

namespace {

/// The first of the sorted [first, first + n) not below `key` when `below(x, key)` says x is below it:
/// std::lower_bound's answer, found with a conditional move per halving instead of a branch (the
/// tables are searched at every block's cost, at unpredictable places).
template <typename Below>
const std::uint32_t* search_sorted(const std::uint32_t* first, std::size_t n, std::uint32_t key, Below below) {
    if (n == 0) return first;
    while (n > 1) {
        const std::size_t half = n / 2;
        first = below(first[half], key) ? first + half : first;
        n -= half;
    }
    return first + (below(*first, key) ? 1 : 0);
}

/// 1, 2, ...: a key no other SsspTables object of the process shares (the cost cache's).
std::uint64_t next_tables_serial() {
    static std::atomic<std::uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

// Warp-instruction counts read off the kernels (docs/workloads.md, `sssp`, lists them line by line).
// relax (Alg. 1 left): tid = S2R, S2R, IMAD; tid < n: ISETP, EXIT; F[tid]: LDG.U8, ISETP, EXIT.
constexpr double kRelaxThread = 8;
// a frontier thread: LDG dist[tid], LDG row[tid], LDG row[tid+1], loop test ISETP, BRA.
constexpr double kRelaxFrontier = 5;
// one trip of the edge loop: LDG col[e], LDG w[e], IMAD address, LDG.U8 U[j], ISETP, IADD, RED.MIN, IADD e, ISETP, BRA.
constexpr double kRelaxEdge = 10;
// minimum (reduce4): S2R, S2R, IMAD index, MOV inf; per element: ISETP bound, LDG.U8 U, ISETP (x2); STS, BAR.
constexpr double kMinThread = 12;
// per tree step with a barrier (stride >= 32): loop ISETP, BRA, BAR in every warp.
constexpr double kMinBarrierStep = 3;
// per tree step and reduced value in a warp that adds: LDS partner, IMNMX, STS.
constexpr double kMinTreeStep = 3;
// thread 0 publishes the block's minimum: ISETP, and per value LDS, RED.MIN.
constexpr double kMinPublish = 1;
constexpr double kMinPublishPerValue = 2;
// update (Alg. 1 right): tid, bound (5); F[tid] = false: STG.U8; U[tid]: LDG.U8, ISETP, EXIT.
constexpr double kUpdateThread = 9;
// settle: U[tid] = false, F[tid] = true: STG.U8 x2.
constexpr double kUpdateSettle = 2;

/// Values the minimum kernel reduces: OUT's dist + w_out, IN's plain dist, or both.
double min_values(CrauserCriteria c) { return c == CrauserCriteria::both ? 2 : 1; }
/// Per 32-element group holding an unsettled element: LDG dist, [LDG w_out, IADD], IMNMX per value.
double min_value_instr(CrauserCriteria c) {
    return c == CrauserCriteria::out ? 4 : c == CrauserCriteria::in ? 2 : 5;
}
/// Bytes per unsettled element in the minimum kernel: dist, and w_out for OUT.
double min_value_bytes(CrauserCriteria c) { return c == CrauserCriteria::in ? kSsspWordBytes : 2 * kSsspWordBytes; }
/// update, per warp holding an unsettled node: OUT LDG dist, LDG delta, ISETP, EXIT; IN also LDG w_in,
/// IADD (and its own threshold); both: LDG dist, LDG w_in, 2 LDG thresholds, IADD, 2 ISETP, PLOP3, EXIT.
double update_test_instr(CrauserCriteria c) {
    return c == CrauserCriteria::out ? 4 : c == CrauserCriteria::in ? 6 : 9;
}
double update_test_bytes(CrauserCriteria c) { return c == CrauserCriteria::out ? kSsspWordBytes : 2 * kSsspWordBytes; }

/// Node ranges [begin, end) of each warp's load slot: relax/update threads hold one node each, the
/// minimum's threads two (`slots` = 2: the second at +T).
template <typename Visit>
void for_each_warp_range(std::uint32_t nodes, std::uint32_t threads, std::uint32_t slots, std::uint64_t block,
                         const Visit& visit) {
    const std::uint64_t base = block * threads * slots;
    const std::uint32_t warps = static_cast<std::uint32_t>(ceil_div(threads, kCudaWarpSize));
    for (std::uint32_t slot = 0; slot < slots; ++slot)
        for (std::uint32_t w = 0; w < warps; ++w) {
            const std::uint64_t begin = base + std::uint64_t{slot} * threads + std::uint64_t{w} * kCudaWarpSize;
            const std::uint64_t end =
                std::min<std::uint64_t>(base + std::uint64_t{slot} * threads + std::min(std::uint64_t{w + 1} * kCudaWarpSize,
                                                                                      std::uint64_t{threads}),
                                        nodes);
            if (begin < end) visit(static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end));
        }
}

/// Per block: the settle iterations of its nodes (`per_group` false) or, per warp range, the largest one.
SsspTables::SortedPerBlock sorted_per_block(const std::vector<std::uint32_t>& settle, std::uint32_t threads,
                                            std::uint32_t slots, bool per_group) {
    const auto nodes = static_cast<std::uint32_t>(settle.size());
    const std::uint64_t blocks = ceil_div(nodes, std::uint64_t{threads} * slots);
    SsspTables::SortedPerBlock out;
    out.offsets.reserve(blocks + 1);
    out.offsets.push_back(0);
    for (std::uint64_t b = 0; b < blocks; ++b) {
        const std::size_t first = out.values.size();
        for_each_warp_range(nodes, threads, slots, b, [&](std::uint32_t begin, std::uint32_t end) {
            if (per_group)
                out.values.push_back(*std::max_element(settle.begin() + begin, settle.begin() + end));
            else
                out.values.insert(out.values.end(), settle.begin() + begin, settle.begin() + end);
        });
        std::sort(out.values.begin() + static_cast<std::ptrdiff_t>(first), out.values.end());
        out.offsets.push_back(out.values.size());
    }
    return out;
}

SsspTables::FrontierTable frontier_table(const std::vector<std::uint32_t>& settle,
                                         const std::vector<std::uint32_t>& degree,
                                         const std::vector<std::uint32_t>& relaxed, std::uint32_t threads) {
    using Entry = SsspTables::FrontierEntry;
    const auto nodes = static_cast<std::uint32_t>(settle.size());
    const std::uint64_t blocks = ceil_div(nodes, threads);
    SsspTables::FrontierTable out;
    out.offsets.reserve(blocks + 1);
    out.offsets.push_back(0);
    std::vector<std::uint32_t> warp_nodes;
    std::vector<Entry> block_entries;
    const auto by_iteration = [](const Entry& a, const Entry& b) { return a.iteration < b.iteration; };
    for (std::uint64_t b = 0; b < blocks; ++b) {
        block_entries.clear();
        for_each_warp_range(nodes, threads, 1, b, [&](std::uint32_t begin, std::uint32_t end) {
            warp_nodes.clear();
            for (std::uint32_t v = begin; v < end; ++v)
                if (settle[v] != kNeverSettled) warp_nodes.push_back(v);
            std::sort(warp_nodes.begin(), warp_nodes.end(),
                      [&](std::uint32_t x, std::uint32_t y) { return settle[x] < settle[y]; });
            for (std::size_t k = 0; k < warp_nodes.size(); ++k) {
                const std::uint32_t v = warp_nodes[k];
                if (k == 0 || settle[warp_nodes[k - 1]] != settle[v]) block_entries.push_back(Entry{settle[v], 0, 1});
                Entry& e = block_entries.back();
                ++e.nodes;
                e.max_degree = std::max(e.max_degree, degree[v]);
                e.edges_scanned += degree[v];
                e.edges_relaxed += relaxed[v];
            }
        });
        for (auto& e : block_entries) e.sum_warp_max_degree = e.max_degree;  // one warp each so far
        std::stable_sort(block_entries.begin(), block_entries.end(), by_iteration);
        for (const Entry& e : block_entries) {
            const bool merge = out.entries.size() > out.offsets.back() && out.entries.back().iteration == e.iteration;
            if (!merge) {
                out.entries.push_back(e);
                continue;
            }
            Entry& m = out.entries.back();
            m.nodes += e.nodes;
            m.warps += e.warps;
            m.max_degree = std::max(m.max_degree, e.max_degree);
            m.sum_warp_max_degree += e.sum_warp_max_degree;
            m.edges_scanned += e.edges_scanned;
            m.edges_relaxed += e.edges_relaxed;
        }
        out.offsets.push_back(out.entries.size());
    }
    out.iterations.reserve(out.entries.size());
    for (const Entry& e : out.entries) out.iterations.push_back(e.iteration);
    return out;
}

}  // namespace

std::string sssp_kernel_name(SsspKernel kernel) {
    switch (kernel) {
        case SsspKernel::relax: return "relax";
        case SsspKernel::minimum: return "minimum";
        case SsspKernel::update: return "update";
    }
    return "?";
}

std::uint64_t sssp_grid_blocks(SsspKernel kernel, std::uint32_t nodes, const SsspKernelConfig& config) {
    switch (kernel) {
        case SsspKernel::relax: return ceil_div(nodes, config.relax_threads);
        case SsspKernel::minimum: return ceil_div(nodes, 2 * std::uint64_t{config.min_threads});
        case SsspKernel::update: return ceil_div(nodes, config.update_threads);
    }
    return 0;
}

std::uint32_t SsspTables::SortedPerBlock::count_above(std::uint64_t block, std::uint32_t threshold) const {
    const std::size_t begin = offsets.at(block), end = offsets.at(block + 1);
    // The first value above the threshold (std::upper_bound): values not above it are "below".
    const std::uint32_t* first = values.data() + begin;
    const std::uint32_t* above =
        search_sorted(first, end - begin, threshold, [](std::uint32_t x, std::uint32_t t) { return x <= t; });
    return static_cast<std::uint32_t>(end - begin - static_cast<std::size_t>(above - first));
}

const SsspTables::FrontierEntry* SsspTables::FrontierTable::find(std::uint64_t block, std::uint32_t iteration) const {
    const std::size_t begin = offsets.at(block), end = offsets.at(block + 1);
    const std::uint32_t* first = iterations.data() + begin;
    const std::uint32_t* at =
        search_sorted(first, end - begin, iteration, [](std::uint32_t x, std::uint32_t i) { return x < i; });
    const std::size_t index = begin + static_cast<std::size_t>(at - first);
    return index != end && *at == iteration ? &entries[index] : nullptr;
}

SsspTables::SsspTables(const Graph& graph, const SsspRun& run, const SsspKernelConfig& config)
    : serial_(next_tables_serial()), config_(config), nodes_(graph.nodes()), edges_(graph.edges()), source_(run.source), iterations_(run.iterations) {
    if (config.relax_threads == 0 || config.min_threads == 0 || config.update_threads == 0)
        throw std::invalid_argument("SsspTables: zero threads per block");
    if (run.settle_iteration.size() != nodes_) throw std::invalid_argument("SsspTables: run of another graph");
    const std::vector<std::uint32_t>& settle = run.settle_iteration;
    std::vector<std::uint32_t> degree(nodes_), relaxed(nodes_, 0);
    // reach[v]: the first iteration whose minimum sees dist(v) finite (the source's 0; a node whose
    // predecessor u is settled in iteration s(u) is relaxed in that iteration).
    std::vector<std::uint32_t> reach(nodes_, kNeverSettled);
    reach[source_] = 0;
    const CsrGraph& g = graph.csr();
    for (std::uint32_t v = 0; v < nodes_; ++v) {
        degree[v] = graph.out_degree(v);
        if (settle[v] == kNeverSettled) continue;
        for (const auto e : boost::make_iterator_range(boost::out_edges(v, g))) {
            const auto t = static_cast<std::uint32_t>(boost::target(e, g));
            if (settle[t] > settle[v]) ++relaxed[v];
            reach[t] = std::min(reach[t], settle[v]);
        }
    }
    relax_frontier_ = frontier_table(settle, degree, relaxed, config.relax_threads);
    update_settled_ = frontier_table(settle, degree, relaxed, config.update_threads);
    update_nodes_ = sorted_per_block(settle, config.update_threads, 1, false);
    update_warps_ = sorted_per_block(settle, config.update_threads, 1, true);
    min_elements_ = sorted_per_block(settle, config.min_threads, 2, false);
    min_groups_ = sorted_per_block(settle, config.min_threads, 2, true);
    min_reached_offsets_.push_back(0);
    const std::uint32_t warps = static_cast<std::uint32_t>(ceil_div(config.min_threads, kCudaWarpSize));
    const std::uint64_t min_blocks = sssp_grid_blocks(SsspKernel::minimum, nodes_, config);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> intervals;
    for (std::uint64_t b = 0; b < min_blocks; ++b)
        for (std::uint32_t slot = 0; slot < 2; ++slot)
            for (std::uint32_t w = 0; w < warps; ++w) {
                const std::uint64_t base = b * 2 * config.min_threads + std::uint64_t{slot} * config.min_threads;
                const std::uint64_t begin = base + std::uint64_t{w} * kCudaWarpSize;
                const std::uint64_t end =
                    std::min<std::uint64_t>(base + std::min<std::uint64_t>(std::uint64_t{w + 1} * kCudaWarpSize, config.min_threads), nodes_);
                std::uint32_t largest = 0;
                intervals.clear();
                for (std::uint64_t v = begin; v < end; ++v) {
                    largest = std::max(largest, settle[v]);
                    if (reach[v] < settle[v]) intervals.emplace_back(reach[v], settle[v]);
                }
                std::sort(intervals.begin(), intervals.end());
                for (const auto& [lo, hi] : intervals) {
                    const bool merge = min_reached_.size() > min_reached_offsets_.back() && min_reached_.back().second >= lo;
                    if (merge)
                        min_reached_.back().second = std::max(min_reached_.back().second, hi);
                    else
                        min_reached_.emplace_back(lo, hi);
                }
                min_group_settle_.push_back(largest);
                min_reached_offsets_.push_back(min_reached_.size());
            }
}

int SsspTables::min_group_levels(std::uint64_t group, std::uint32_t iteration) const {
    // Group g of block b = g / (2 W) holds elements from b x 2T + slot x T + w x 32 on (slot, w from g).
    const std::uint64_t threads = config_.min_threads;
    const std::uint64_t warps = ceil_div(threads, kCudaWarpSize);
    const std::uint64_t slot = group / warps % 2, w = group % warps;
    if (group / (2 * warps) * 2 * threads + slot * threads + w * kCudaWarpSize >= nodes_) return 0;
    if (min_group_settle_.at(group) <= iteration) return 1;
    if (config_.criteria == CrauserCriteria::in) return 2;
    const auto begin = min_reached_.begin() + static_cast<std::ptrdiff_t>(min_reached_offsets_[group]);
    const auto end = min_reached_.begin() + static_cast<std::ptrdiff_t>(min_reached_offsets_[group + 1]);
    // The last interval starting at or before `iteration`: does it reach past it?
    const auto after = std::upper_bound(begin, end, iteration,
                                        [](std::uint32_t i, const std::pair<std::uint32_t, std::uint32_t>& r) { return i < r.first; });
    return after != begin && std::prev(after)->second > iteration ? 3 : 2;
}

std::size_t SsspTables::table_bytes() const {
    const auto bytes = [](const auto& v) { return v.size() * sizeof(v[0]); };
    const auto frontier = [&](const FrontierTable& t) { return bytes(t.entries) + bytes(t.iterations) + bytes(t.offsets); };
    const auto sorted = [&](const SortedPerBlock& t) { return bytes(t.values) + bytes(t.offsets); };
    return bytes(iterations_) + frontier(relax_frontier_) + frontier(update_settled_) + sorted(update_nodes_) +
           sorted(update_warps_) + sorted(min_elements_) + sorted(min_groups_) + bytes(min_reached_) +
           bytes(min_reached_offsets_) + bytes(min_group_settle_);
}

SsspBlockCost SsspTables::cost(SsspKernel kernel, std::uint32_t iteration, std::uint64_t block) const {
    // Direct-mapped by block: the blocks of one launch in flight at a time take distinct entries.
    struct Entry {
        std::uint64_t serial = 0;  // 0: empty (serial numbers start at 1)
        SsspKernel kernel = SsspKernel::relax;
        std::uint32_t iteration = 0;
        std::uint64_t block = 0;
        SsspBlockCost cost;
    };
    constexpr std::size_t kEntries = 512;
    thread_local std::array<Entry, kEntries> cache;
    Entry& e = cache[(block ^ (static_cast<std::uint64_t>(iteration) * 0x9e3779b1u)) % kEntries];
    if (e.serial == serial_ && e.kernel == kernel && e.iteration == iteration && e.block == block) return e.cost;
    const SsspBlockCost c = compute_cost(kernel, iteration, block);  // throws past the grid: nothing cached
    e = Entry{serial_, kernel, iteration, block, c};
    return c;
}

SsspBlockCost SsspTables::compute_cost(SsspKernel kernel, std::uint32_t iteration, std::uint64_t block) const {
    const std::uint64_t blocks = sssp_grid_blocks(kernel, nodes_, config_);
    if (block >= blocks)
        throw std::out_of_range("SsspTables: block " + std::to_string(block) + " of a grid of " +
                                std::to_string(blocks));
    const CrauserCriteria criteria = config_.criteria;
    SsspBlockCost c;
    switch (kernel) {
        case SsspKernel::relax: {
            const std::uint64_t first = block * config_.relax_threads;
            c.active_threads = static_cast<std::uint32_t>(std::min<std::uint64_t>(config_.relax_threads, nodes_ - first));
            c.active_warps = static_cast<std::uint32_t>(ceil_div(c.active_threads, kCudaWarpSize));
            c.issue_slots = c.active_warps * kRelaxThread;
            c.busiest_warp_slots = kRelaxThread;
            c.dram_bytes = c.active_threads * kSsspFlagBytes;
            if (const FrontierEntry* e = relax_frontier_.find(block, iteration)) {
                c.issue_slots += e->warps * kRelaxFrontier + static_cast<double>(e->sum_warp_max_degree) * kRelaxEdge;
                c.busiest_warp_slots += kRelaxFrontier + e->max_degree * kRelaxEdge;
                c.dram_bytes += e->nodes * 3 * kSsspWordBytes +
                                static_cast<double>(e->edges_scanned) * (2 * kSsspWordBytes + kSsspFlagBytes) +
                                static_cast<double>(e->edges_relaxed) * 2 * kSsspWordBytes;
                c.latency_steps = e->max_degree;
                c.latency_cycles = e->max_degree * config_.edge_latency_cycles;
                c.frontier = true;
            }
            break;
        }
        case SsspKernel::minimum: {
            const std::uint64_t threads = config_.min_threads;
            const std::uint64_t first = block * 2 * threads;
            const std::uint64_t elements = std::min<std::uint64_t>(2 * threads, nodes_ - first);
            c.active_threads = static_cast<std::uint32_t>(std::min<std::uint64_t>(threads, elements));
            c.active_warps = static_cast<std::uint32_t>(ceil_div(c.active_threads, kCudaWarpSize));
            const double values = min_values(criteria);
            const std::uint32_t unsettled = min_elements_.count_above(block, iteration);
            const std::uint32_t groups = min_groups_.count_above(block, iteration);
            double tree = 0, warp0_tree = 0;  // reduce4's shared-memory tree over T partial values
            for (std::uint64_t s = std::bit_ceil(threads) / 2; s >= 1; s /= 2) {
                const std::uint64_t pairs = threads > s ? std::min(s, threads - s) : 0;
                tree += static_cast<double>(ceil_div(pairs, kCudaWarpSize)) * kMinTreeStep * values;
                warp0_tree += pairs > 0 ? kMinTreeStep * values : 0;
                if (s >= kCudaWarpSize) {
                    tree += c.active_warps * kMinBarrierStep;
                    warp0_tree += kMinBarrierStep;
                }
            }
            const double publish = kMinPublish + kMinPublishPerValue * values;
            c.issue_slots = c.active_warps * kMinThread + groups * min_value_instr(criteria) + tree + publish;
            c.busiest_warp_slots = kMinThread + (groups > 0 ? 2 * min_value_instr(criteria) : 0) + warp0_tree + publish;
            c.dram_bytes = static_cast<double>(elements) * kSsspFlagBytes + unsettled * min_value_bytes(criteria) +
                           values * 2 * kSsspWordBytes;
            // Thread t loads element t, then t + T: a warp's loads are its two groups' levels in turn.
            const std::uint64_t warps = ceil_div(threads, kCudaWarpSize);
            for (std::uint64_t w = 0; w < warps; ++w)
                c.load_levels = std::max(c.load_levels, min_group_levels(block * 2 * warps + w, iteration) +
                                                            min_group_levels(block * 2 * warps + warps + w, iteration));
            break;
        }
        case SsspKernel::update: {
            const std::uint64_t first = block * config_.update_threads;
            c.active_threads = static_cast<std::uint32_t>(std::min<std::uint64_t>(config_.update_threads, nodes_ - first));
            c.active_warps = static_cast<std::uint32_t>(ceil_div(c.active_threads, kCudaWarpSize));
            const std::uint32_t unsettled = update_nodes_.count_above(block, iteration);
            const std::uint32_t testing_warps = update_warps_.count_above(block, iteration);
            const FrontierEntry* settled = update_settled_.find(block, iteration + 1);
            c.issue_slots = c.active_warps * kUpdateThread + testing_warps * update_test_instr(criteria) +
                            (settled ? settled->warps * kUpdateSettle : 0);
            c.busiest_warp_slots = kUpdateThread + (testing_warps > 0 ? update_test_instr(criteria) : 0) +
                                   (settled ? kUpdateSettle : 0);
            c.dram_bytes = c.active_threads * 2 * kSsspFlagBytes + unsettled * update_test_bytes(criteria) +
                           (settled ? settled->nodes * 2 * kSsspFlagBytes : 0);
            c.frontier = testing_warps > 0;
            break;
        }
    }
    return c;
}

SsspWork::SsspWork(std::shared_ptr<const SsspTables> tables, SsspKernel kernel, std::uint32_t iteration,
                   std::optional<SsspLatency> derived)
    : tables_(std::move(tables)), kernel_(kernel), iteration_(iteration), derived_(derived) {
    if (!tables_) throw std::invalid_argument("SsspWork: no tables");
}

Time SsspWork::duration(std::uint64_t block) const {
    const SsspBlockCost c = tables_->cost(kernel_, iteration_, block);
    const auto time = instruction_time(c.busiest_warp_slots, tables_->config().ns_per_instr);
    if (!time)
        throw KeyError("ns_per_instr", describe() + ", block " + std::to_string(block) + ": " +
                                           format_spec_number(c.busiest_warp_slots) + " issue slots x " +
                                           format_spec_number(tables_->config().ns_per_instr) +
                                           " ns per instruction passes " + time_limit_text());
    return *time;
}

int SsspWork::active_warps(std::uint64_t block, int warps_per_block) const {
    if (warps_per_block <= 0) return 0;
    const SsspKernelConfig& config = tables_->config();
    const std::uint64_t threads = kernel_ == SsspKernel::relax     ? config.relax_threads
                                  : kernel_ == SsspKernel::minimum ? config.min_threads
                                                                   : config.update_threads;
    const std::uint64_t per_warp = ceil_div(threads, static_cast<std::uint64_t>(warps_per_block));
    const SsspBlockCost c = tables_->cost(kernel_, iteration_, block);
    return static_cast<int>(std::min<std::uint64_t>(ceil_div(c.active_threads, per_warp),
                                                    static_cast<std::uint64_t>(warps_per_block)));
}

std::optional<WarpWork> SsspWork::warp_work(std::uint64_t block) const {
    const SsspBlockCost c = tables_->cost(kernel_, iteration_, block);
    WarpWork w;
    w.issue_slots = c.issue_slots / c.active_warps;
    w.dram_bytes = c.dram_bytes / c.active_warps;
    return w;
}

double SsspWork::latency_bound_cycles(std::uint64_t block) const {
    const SsspBlockCost c = tables_->cost(kernel_, iteration_, block);
    return derived_ ? sssp_latency_cycles(*derived_, kernel_, c) : c.latency_cycles;
}

SsspTables::OnGpu& SsspTables::on_gpu(const hw::GpuSpec& gpu) const {
    for (OnGpu& entry : on_gpu_)
        if (entry.gpu == gpu) return entry;
    if (on_gpu_.size() >= 8) on_gpu_.erase(on_gpu_.begin());  // a handful of GPUs per run: keep it bounded
    return on_gpu_.emplace_back(OnGpu{gpu, std::nullopt, {}});
}

SsspLatency SsspTables::latency_on(const hw::GpuSpec& gpu) const {
    const std::lock_guard<std::mutex> lock(derived_mutex_);
    OnGpu& entry = on_gpu(gpu);
    if (!entry.latency) {  // a GPU that lacks a number throws here, every time: nothing is kept
        GpuNumbers numbers(gpu, "sssp", "edge_latency_cycles");
        entry.latency = derive_sssp_latency(numbers, *this, gpu);
    }
    return *entry.latency;
}

WorkDerivation SsspTables::derivation_on(const hw::GpuSpec& gpu, SsspKernel kernel) const {
    const std::lock_guard<std::mutex> lock(derived_mutex_);
    std::optional<WorkDerivation>& kept = on_gpu(gpu).derivation.at(static_cast<std::size_t>(kernel));
    if (!kept) {
        GpuNumbers numbers(gpu, "sssp", "edge_latency_cycles");
        WorkDerivation out;
        out.steps = sssp_latency_steps(numbers, *this, gpu, kernel);
        out.gpu_numbers = numbers.used();
        kept = std::move(out);
    }
    return *kept;
}

std::shared_ptr<const BlockWork> SsspWork::bind(const GpuContext& context) const {
    if (tables_->config().edge_latency_given || derived_) return nullptr;
    return std::make_shared<const SsspWork>(tables_, kernel_, iteration_, tables_->latency_on(context.gpu));
}

WorkDerivation SsspWork::derivation(const GpuContext& context) const {
    WorkDerivation out;
    if (tables_->config().edge_latency_given) {
        out.steps.push_back(kernel_ == SsspKernel::relax
                                ? "latency floor = longest edge loop x edge_latency_cycles (given: " +
                                      format_spec_number(tables_->config().edge_latency_cycles) + ")"
                                : "no latency floor: edge_latency_cycles is given, which replaces the derived floors");
        return out;
    }
    return tables_->derivation_on(context.gpu, kernel_);
}

std::string SsspWork::describe() const {
    const auto& its = tables_->iterations();
    const SsspIteration& it = its.at(iteration_);
    std::string out = "sssp " + sssp_kernel_name(kernel_) + ", source " + std::to_string(tables_->source()) +
                      ", iteration " + std::to_string(iteration_ + 1) + " of " + std::to_string(its.size()) +
                      ": |F| " + std::to_string(it.frontier) + ", |U| " + std::to_string(it.unsettled);
    if (kernel_ == SsspKernel::relax) out += ", " + std::to_string(it.edges_scanned) + " edges";
    if (kernel_ == SsspKernel::update) out += ", settles " + std::to_string(it.settled);
    return out;
}

}  // namespace gpusched::workloads

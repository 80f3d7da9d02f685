// The generators' loop bodies as dependency chains, with each instruction's latency from the GPU.
#include "gpusched/workloads/latency_chains.h"

#include <algorithm>

#include "gpusched/workloads/spec_numbers.h"

namespace gpusched::workloads {

namespace {

constexpr const char* kAlu = "execution.alu_latency_cycles";
constexpr const char* kFma = "execution.fma_latency_cycles";
constexpr const char* kSfu = "execution.sfu_latency_cycles";
constexpr const char* kConversion = "execution.conversion_latency_cycles";
constexpr const char* kShared = "execution.shared_memory_latency_cycles";
constexpr const char* kL1 = "memory.l1_hit_latency_cycles";
constexpr const char* kL2 = "memory.l2_hit_latency_cycles";
constexpr const char* kDram = "memory.dram_latency_cycles";

/// Builds a body whose instructions name their pipe's key; latencies read from the GPU once each.
class BodyBuilder {
public:
    explicit BodyBuilder(GpuNumbers& gpu) : gpu_(gpu) {}
    /// Adds an instruction on the pipe `key` (a GPU latency key, or "issue" for one that nothing waits on).
    int add(const std::string& op, const std::string& key, std::vector<int> deps = {}, std::vector<int> carried = {}) {
        body_.push_back({op, key, latency(key), std::move(deps), std::move(carried)});
        return static_cast<int>(body_.size()) - 1;
    }
    /// Adds an instruction whose latency the caller computed from GPU numbers (a barrier of `pipe` keys).
    int add_cycles(const std::string& op, const std::string& pipe, double cycles, std::vector<int> deps = {}) {
        body_.push_back({op, pipe, cycles, std::move(deps), {}});
        return static_cast<int>(body_.size()) - 1;
    }
    /// The index the next add() returns.
    [[nodiscard]] int next() const { return static_cast<int>(body_.size()); }
    std::vector<ChainInstruction> take() { return std::move(body_); }

private:
    double latency(const std::string& key) {
        if (key == "issue") return 0;
        if (key == kL2) return gpu_.l2_hit_latency();
        if (key == kL1) {
            // GT200 has no L1 for global memory: the load goes to DRAM.
            if (auto l1 = gpu_.maybe(kL1)) return *l1;
            return gpu_.l2_hit_latency();
        }
        return gpu_.need(key);
    }
    GpuNumbers& gpu_;
    std::vector<ChainInstruction> body_;
};

StepChain finish(std::vector<ChainInstruction> body, double unroll) {
    StepChain chain;
    chain.body = std::move(body);
    chain.unroll = unroll;
    chain.cycles_per_step = in_order_cycles_per_iteration(chain.body) / unroll;
    return chain;
}

/// In-order cycles of `body` run once from idle, up to the last result (a prologue or epilogue).
double once_cycles(const std::vector<ChainInstruction>& body) {
    double issue = -1, last_ready = 0;
    std::vector<double> ready(body.size(), 0.0);
    for (std::size_t i = 0; i < body.size(); ++i) {
        double t = issue + 1;
        for (int d : body[i].deps) t = std::max(t, ready[static_cast<std::size_t>(d)]);
        issue = t;
        ready[i] = t + body[i].latency;
        last_ready = std::max(last_ready, ready[i]);
    }
    return last_ready;
}

/// A segment run once by a warp: its body and its cycles from idle to its last result.
StepChain segment(std::vector<ChainInstruction> body) {
    StepChain chain;
    chain.cycles_per_step = once_cycles(body);
    chain.body = std::move(body);
    chain.once = true;
    return chain;
}

}  // namespace

StepChain binomial_term_chain(GpuNumbers& gpu) {
    BodyBuilder b(gpu);
    // term *= (a - k + 1) * x / k; sum += term; ++k (fast-math division: MUFU.RCP and a multiply).
    const int i2f = b.add("I2F k", kConversion, {}, {1});
    const int iadd = b.add("IADD k+1", kAlu, {}, {1});
    const int rcp = b.add("MUFU.RCP 1/k", kSfu, {i2f});
    const int fadd = b.add("FADD a+1-k", kFma, {i2f});
    const int isetp = b.add("ISETP k<=K", kAlu, {iadd});
    const int fmul_x = b.add("FMUL *x", kFma, {fadd});
    const int fmul_r = b.add("FMUL *1/k", kFma, {fmul_x, rcp});
    const int term = b.add("FMUL term", kFma, {fmul_r}, {6});
    b.add("FADD sum", kFma, {term}, {8});
    b.add("BRA", kAlu, {isetp});
    return finish(b.take(), 1);
}

StepChain streamcluster_trip_chain(GpuNumbers& gpu, bool coordinates_in_l2) {
    BodyBuilder b(gpu);
    const char* coordinate = coordinates_in_l2 ? kL2 : kDram;
    constexpr int kUnroll = 4;
    // Body indices: 2 U loads, U (FADD, FFMA) pairs, then the address add at 4 U and the branch.
    const int address_index = 4 * kUnroll;
    const int last_acc_index = 4 * kUnroll - 1;
    std::vector<int> point_loads, centre_loads;
    for (int u = 0; u < kUnroll; ++u) {
        point_loads.push_back(b.add("LDG coord", coordinate, {}, {address_index}));
        centre_loads.push_back(b.add("LDG centre", kL1, {}, {address_index}));
    }
    int acc = -1;
    for (int u = 0; u < kUnroll; ++u) {
        const int diff = b.add("FADD diff", kFma, {point_loads[static_cast<std::size_t>(u)], centre_loads[static_cast<std::size_t>(u)]});
        std::vector<int> deps{diff};
        std::vector<int> carried;
        if (acc >= 0) deps.push_back(acc); else carried.push_back(last_acc_index);
        acc = b.add("FFMA acc", kFma, deps, carried);
    }
    const int address = b.add("IADD address", kAlu, {}, {address_index});
    b.add("BRA", kAlu, {address});
    return finish(b.take(), kUnroll);
}

namespace {

constexpr const char* kParams =
    "LDC params (the launch's first constant-bank read: a miss, one L2 round trip)";

/// Every kernel's first instructions: the parameters from the constant bank (the first read of a
/// launch misses to L2: validation/data/h100/memory/README.md, fw_block, 289 cycles from the
/// block's entry to its first indices), then the thread's index and its bound test.
int add_entry(BodyBuilder& b) {
    const int params = b.add(kParams, kL2);
    const int index = b.add("IMAD index", kAlu, {params});
    return b.add("ISETP bound", kAlu, {index});
}

/// SpMV's step with entries: the index load, the address of x[col] after it, the gathered x, the
/// value (after the padding test in ELL), FFMA; not unrolled (nvcc's remainder loop).
StepChain spmv_single(GpuNumbers& gpu, const char* matrix, bool padding_test) {
    BodyBuilder b(gpu);
    const int col = b.add("LDG col", matrix);
    const int test = padding_test ? b.add("ISETP col>=0", kAlu, {col}) : b.add("LDG val", matrix);
    const int address = b.add("IMAD.WIDE &x[col]", kAlu, {col});
    const int x = b.add("LDG x[col]", kL2, {address});
    const int val = padding_test ? b.add("LDG val", matrix, {test}) : test;
    b.add("FFMA sum", kFma, {val, x}, {b.next()});
    const int next = b.add("IADD index", kAlu, {}, {b.next()});
    b.add("BRA", kAlu, {next});
    std::vector<ChainInstruction> body = b.take();
    // The index load waits for the previous step's index add (second to last).
    body.front().carried = {static_cast<int>(body.size()) - 2};
    return finish(std::move(body), 1);
}

/// Four steps unrolled: the four index loads issue together, then (ELL: after each padding test)
/// the four gathers and values, then the FFMA chain.
StepChain spmv_group(GpuNumbers& gpu, const char* matrix, bool padding_test) {
    constexpr int kUnroll = 4;
    BodyBuilder b(gpu);
    const int index_add = padding_test ? 6 * kUnroll : 5 * kUnroll;  // body index of the index add
    std::vector<int> cols, tests, xs, vals;
    for (int u = 0; u < kUnroll; ++u) cols.push_back(b.add("LDG col", matrix, {}, {index_add}));
    for (int u = 0; u < kUnroll; ++u) {
        if (padding_test)
            tests.push_back(b.add("ISETP col>=0", kAlu, {cols[static_cast<std::size_t>(u)]}));
        else
            vals.push_back(b.add("LDG val", matrix, {}, {index_add}));
    }
    for (int u = 0; u < kUnroll; ++u) {
        const int address = b.add("IMAD.WIDE &x[col]", kAlu, {cols[static_cast<std::size_t>(u)]});
        xs.push_back(b.add("LDG x[col]", kL2, {address}));
    }
    if (padding_test)
        for (int u = 0; u < kUnroll; ++u) vals.push_back(b.add("LDG val", matrix, {tests[static_cast<std::size_t>(u)]}));
    int acc = -1;
    for (int u = 0; u < kUnroll; ++u) {
        std::vector<int> deps{vals[static_cast<std::size_t>(u)], xs[static_cast<std::size_t>(u)]};
        std::vector<int> carried;
        if (acc >= 0) deps.push_back(acc); else carried.push_back(index_add - 1);
        acc = b.add("FFMA sum", kFma, deps, carried);
    }
    const int next = b.add("IADD index", kAlu, {}, {index_add});
    b.add("BRA", kAlu, {next});
    return finish(b.take(), kUnroll);
}

/// ELL steps whose lanes are all padding: the index loads and tests only.
StepChain spmv_padding(GpuNumbers& gpu, const char* matrix, int unroll) {
    BodyBuilder b(gpu);
    const int index_add = 2 * unroll;
    std::vector<int> cols;
    for (int u = 0; u < unroll; ++u) cols.push_back(b.add("LDG col", matrix, {}, {index_add}));
    for (int u = 0; u < unroll; ++u) b.add("ISETP col>=0", kAlu, {cols[static_cast<std::size_t>(u)]});
    const int next = b.add("IADD index", kAlu, {}, {index_add});
    b.add("BRA", kAlu, {next});
    return finish(b.take(), unroll);
}

}  // namespace

SpmvChain spmv_chain(GpuNumbers& gpu, SpmvChainKernel kernel, bool matrix_in_l2) {
    const char* matrix = matrix_in_l2 ? kL2 : kDram;
    SpmvChain c;
    BodyBuilder entry(gpu), exit(gpu);
    if (kernel == SpmvChainKernel::csr) {
        const int bound = add_entry(entry);
        const int start = entry.add("LDG row_start", matrix, {bound});
        const int end = entry.add("LDG row_end", matrix, {bound});
        const int first = entry.add("IADD start+lane", kAlu, {start});
        const int test = entry.add("ISETP j<end", kAlu, {first, end});
        entry.add("BRA", kAlu, {test});
        // The warp's sum: five SHFL.DOWN (the shared-memory pipe) and FADD steps, then lane 0's store.
        int sum = -1;
        for (int step = 0; step < 5; ++step) {
            const int shfl = exit.add("SHFL.DOWN sum", kShared, sum >= 0 ? std::vector<int>{sum} : std::vector<int>{});
            sum = exit.add("FADD sum", kFma, {shfl});
        }
        exit.add("STG y", "issue", {sum});
        c.single = spmv_single(gpu, matrix, false);
        c.group = spmv_group(gpu, matrix, false);
    } else if (kernel == SpmvChainKernel::ell) {
        add_entry(entry);
        exit.add("STG y", "issue");
        c.single = spmv_single(gpu, matrix, true);
        c.group = spmv_group(gpu, matrix, true);
        c.single_empty = spmv_padding(gpu, matrix, 1);
        c.group_empty = spmv_padding(gpu, matrix, 4);
    } else {
        const int bound = add_entry(entry);
        const int row = entry.add("LDG row", matrix, {bound});
        const int col = entry.add("LDG col", matrix, {bound});
        const int val = entry.add("LDG val", matrix, {bound});
        const int address = entry.add("IMAD.WIDE &x[col]", kAlu, {col});
        const int x = entry.add("LDG x[col]", kL2, {address});
        entry.add("FMUL", kFma, {val, x, row});
        // One step of the warp's segmented scan: the partial sum and the row from lane - 2^k
        // (SHFL.UP, the shared-memory pipe), the rows' compare, the add, the select.
        BodyBuilder scan(gpu);
        const int shfl_v = scan.add("SHFL.UP sum", kShared, {}, {4});
        const int shfl_row = scan.add("SHFL.UP row", kShared);
        const int same = scan.add("ISETP rows equal", kAlu, {shfl_row});
        const int add = scan.add("FADD", kFma, {shfl_v});
        scan.add("SEL", kAlu, {add, same});
        c.single = finish(scan.take(), 1);
        // After the scan: the next lane's row (SHFL.DOWN), the segment-end test, atomicAdd to y.
        const int next_row = exit.add("SHFL.DOWN row", kShared);
        const int end = exit.add("ISETP segment end", kAlu, {next_row});
        exit.add("RED.ADD y", "issue", {end});
    }
    c.entry = segment(entry.take());
    c.exit = segment(exit.take());
    return c;
}

StepChain sssp_edge_chain(GpuNumbers& gpu, bool graph_in_l2) {
    BodyBuilder b(gpu);
    const char* memory = graph_in_l2 ? kL2 : kDram;
    const int col = b.add("LDG col[e]", memory, {}, {6});
    const int weight = b.add("LDG w[e]", memory, {}, {6});
    const int flag = b.add("LDG U[j]", memory, {col});
    const int test = b.add("ISETP U[j]", kAlu, {flag});
    const int sum = b.add("IADD d+w", kAlu, {weight});
    b.add("RED.MIN dist[j]", "issue", {test, sum});
    const int next = b.add("IADD e", kAlu, {}, {6});
    b.add("BRA", kAlu, {next});
    return finish(b.take(), 1);
}

SsspChains sssp_chains(GpuNumbers& gpu, bool graph_in_l2, int min_tree_steps, int min_warps) {
    const char* memory = graph_in_l2 ? kL2 : kDram;
    SsspChains c;
    {
        BodyBuilder b(gpu);
        const int bound = add_entry(b);
        const int flag = b.add("LDG.U8 F[tid]", memory, {bound});
        const int test = b.add("ISETP F[tid]", kAlu, {flag});
        b.add("BRA", kAlu, {test});
        c.relax_entry = segment(b.take());
    }
    {
        BodyBuilder b(gpu);
        b.add("LDG dist[tid]", memory);
        const int start = b.add("LDG row[tid]", memory);
        const int end = b.add("LDG row[tid+1]", memory);
        const int test = b.add("ISETP e<end", kAlu, {start, end});
        b.add("BRA", kAlu, {test});
        c.relax_frontier = segment(b.take());
    }
    {
        BodyBuilder b(gpu);
        const int bound = add_entry(b);
        b.add("BRA", kAlu, {bound});
        c.min_entry = segment(b.take());
    }
    {
        BodyBuilder b(gpu);
        const int load = b.add("LDG U / dist / out-weight", memory);
        const int test = b.add("ISETP", kAlu, {load});
        b.add("BRA", kAlu, {test});
        c.min_level = segment(b.take());
    }
    {
        // reduce4's tail: the partial minimum to shared memory, a barrier, per stride >= 32 a shared
        // load, IMNMX, store and barrier, then five SHFL.DOWN (the shared-memory pipe) and IMNMX, and
        // thread 0's atomicMin (nothing waits for it). A barrier: barrier_cycles + per warp.
        const double barrier = gpu.need("execution.barrier_cycles") +
                               min_warps * gpu.need("execution.barrier_cycles_per_warp");
        const std::string barrier_pipe = "execution.barrier_cycles + " + std::to_string(min_warps) +
                                         " x execution.barrier_cycles_per_warp";
        BodyBuilder b(gpu);
        int value = b.add("STS", "issue");
        value = b.add_cycles("BAR", barrier_pipe, barrier, {value});
        for (int step = 0; step < min_tree_steps; ++step) {
            const int load = b.add("LDS partner", kShared, {value});
            const int min = b.add("IMNMX", kAlu, {load});
            const int store = b.add("STS", "issue", {min});
            value = b.add_cycles("BAR", barrier_pipe, barrier, {store});
        }
        for (int step = 0; step < 5; ++step) {
            const int shfl = b.add("SHFL.DOWN", kShared, {value});
            value = b.add("IMNMX", kAlu, {shfl});
        }
        b.add("RED.MIN delta", "issue", {value});
        c.min_tree = segment(b.take());
    }
    {
        BodyBuilder b(gpu);
        const int bound = add_entry(b);
        b.add("STG.U8 F[tid]=0", "issue", {bound});
        const int flag = b.add("LDG.U8 U[tid]", memory, {bound});
        const int test = b.add("ISETP U[tid]", kAlu, {flag});
        b.add("BRA", kAlu, {test});
        c.update_entry = segment(b.take());
    }
    {
        BodyBuilder b(gpu);
        const int dist = b.add("LDG dist[tid]", memory);
        const int threshold = b.add("LDG threshold", memory);
        const int test = b.add("ISETP dist<=threshold", kAlu, {dist, threshold});
        b.add("STG.U8 U, F; RED.ADD count", "issue", {test});
        c.update_test = segment(b.take());
    }
    return c;
}

std::string describe_step_chain(const StepChain& chain, const std::string& step) {
    std::string out = (chain.once ? step + ": " : "per " + step + ": ") + describe_chain(chain.body);
    if (chain.unroll != 1) out += ", unrolled " + format_spec_number(chain.unroll) + "x";
    out += " -> " + format_spec_number(chain.cycles_per_step) + (chain.once ? " cycles (once, from idle)" : " cycles (one warp, in order)");
    return out;
}

}  // namespace gpusched::workloads

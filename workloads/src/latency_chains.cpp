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

StepChain finish(std::vector<ChainInstruction> body, double unroll, double fixed = 0, std::string fixed_what = "") {
    StepChain chain;
    chain.body = std::move(body);
    chain.unroll = unroll;
    chain.cycles_per_step = in_order_cycles_per_iteration(chain.body) / unroll;
    chain.fixed_cycles = fixed;
    chain.fixed_what = std::move(fixed_what);
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

/// The 5-step shared-memory tree of the CSR vector kernel's warp reduction (store, load, add).
double warp_reduction_cycles(GpuNumbers& gpu) {
    BodyBuilder step(gpu);
    step.add("STS", "issue", {}, {2});
    step.add("LDS", kShared, {0});
    step.add("FADD", kFma, {1});
    return 5 * in_order_cycles_per_iteration(step.take());
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

StepChain spmv_step_chain(GpuNumbers& gpu, SpmvChainKernel kernel, bool matrix_in_l2) {
    BodyBuilder b(gpu);
    const char* matrix = matrix_in_l2 ? kL2 : kDram;
    if (kernel == SpmvChainKernel::csr) {
        const int col = b.add("LDG col", matrix, {}, {4});
        const int val = b.add("LDG val", matrix, {}, {4});
        const int x = b.add("LDG x[col]", kL2, {col});
        b.add("FFMA sum", kFma, {val, x}, {3});
        const int next = b.add("IADD jj", kAlu, {}, {4});
        b.add("BRA", kAlu, {next});
        BodyBuilder prologue(gpu);
        prologue.add("LDG row_start", matrix);
        prologue.add("LDG row_end", matrix);
        const double fixed = once_cycles(prologue.take()) + warp_reduction_cycles(gpu);
        return finish(b.take(), 1, fixed, "the row offsets' load and the 5-step warp reduction");
    }
    if (kernel == SpmvChainKernel::ell) {
        // Unrolled 4x like the distance loop of streamcluster (nvcc's choice for a runtime trip
        // count): four slots' index and value loads issue together, then the gathers, then the FFMAs.
        constexpr int kUnroll = 4;
        const int index_add = 4 * kUnroll;  // body index of the index add
        std::vector<int> cols, vals, xs;
        for (int u = 0; u < kUnroll; ++u) {
            cols.push_back(b.add("LDG col", matrix, {}, {index_add}));
            vals.push_back(b.add("LDG val", matrix, {}, {index_add}));
        }
        for (int u = 0; u < kUnroll; ++u) xs.push_back(b.add("LDG x[col]", kL2, {cols[static_cast<std::size_t>(u)]}));
        int acc = -1;
        for (int u = 0; u < kUnroll; ++u) {
            std::vector<int> deps{vals[static_cast<std::size_t>(u)], xs[static_cast<std::size_t>(u)]};
            std::vector<int> carried;
            if (acc >= 0) deps.push_back(acc); else carried.push_back(index_add - 1);
            acc = b.add("FFMA sum", kFma, deps, carried);
        }
        const int next = b.add("IADD jj", kAlu, {}, {index_add});
        b.add("BRA", kAlu, {next});
        return finish(b.take(), kUnroll);
    }
    // COO: the loads and the multiply before the scan, once ...
    BodyBuilder loads(gpu);
    const int row = loads.add("LDG row", matrix);
    const int col = loads.add("LDG col", matrix);
    const int val = loads.add("LDG val", matrix);
    const int x = loads.add("LDG x[col]", kL2, {col});
    const int mul = loads.add("FMUL", kFma, {val, x});
    loads.add("STS", "issue", {row, mul});
    const double fixed = once_cycles(loads.take());
    // ... and one of the five scan steps as the loop body.
    const int lds = b.add("LDS vals[t-k]", kShared, {}, {3});
    const int cmp = b.add("ISETP rows equal", kAlu, {lds});
    const int add = b.add("FADD", kFma, {lds, cmp});
    b.add("STS vals[t]", "issue", {add});
    return finish(b.take(), 1, fixed, "the loads and multiply before the scan");
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

std::string describe_step_chain(const StepChain& chain, const std::string& step) {
    std::string out = "per " + step + ": " + describe_chain(chain.body);
    if (chain.unroll != 1) out += ", unrolled " + format_spec_number(chain.unroll) + "x";
    out += " -> " + format_spec_number(chain.cycles_per_step) + " cycles (one warp, in order)";
    if (chain.fixed_cycles > 0)
        out += "; plus once per warp " + format_spec_number(chain.fixed_cycles) + " cycles for " + chain.fixed_what;
    return out;
}

}  // namespace gpusched::workloads

// In-order issue of a loop body by one warp: steady-state cycles per iteration.
#include "gpusched/workloads/in_order_chain.h"

#include <algorithm>
#include <stdexcept>

#include "gpusched/workloads/spec_numbers.h"

namespace gpusched::workloads {

namespace {
constexpr int kIterations = 24;
constexpr int kWarmup = 8;
}  // namespace

double in_order_cycles_per_iteration(const std::vector<ChainInstruction>& body) {
    const auto size = static_cast<int>(body.size());
    if (size == 0) return 0;
    for (int i = 0; i < size; ++i) {
        for (int d : body[static_cast<std::size_t>(i)].deps)
            if (d < 0 || d >= i) throw std::invalid_argument("in_order_cycles_per_iteration: bad dependency");
        for (int d : body[static_cast<std::size_t>(i)].carried)
            if (d < 0 || d >= size) throw std::invalid_argument("in_order_cycles_per_iteration: bad carried dependency");
    }
    std::vector<double> ready_prev(static_cast<std::size_t>(size), 0.0);
    std::vector<double> ready(static_cast<std::size_t>(size), 0.0);
    double issue = -1;  // issue cycle of the previous instruction
    double warm_start = 0;
    for (int it = 0; it < kIterations; ++it) {
        if (it == kWarmup) warm_start = issue + 1;
        for (int i = 0; i < size; ++i) {
            const auto& instr = body[static_cast<std::size_t>(i)];
            double t = issue + 1;
            for (int d : instr.deps) t = std::max(t, ready[static_cast<std::size_t>(d)]);
            for (int d : instr.carried) t = std::max(t, ready_prev[static_cast<std::size_t>(d)]);
            issue = t;
            ready[static_cast<std::size_t>(i)] = t + instr.latency;
        }
        ready_prev = ready;
    }
    return (issue + 1 - warm_start) / (kIterations - kWarmup);
}

std::string describe_chain(const std::vector<ChainInstruction>& body) {
    std::string out;
    for (const auto& instr : body)
        out += (out.empty() ? "" : ", ") + instr.op + " (" + instr.pipe + " " + format_spec_number(instr.latency) + ")";
    return out;
}

}  // namespace gpusched::workloads

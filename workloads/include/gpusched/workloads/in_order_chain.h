// The time per loop iteration of one warp issuing a loop body in order: the latency floor of a dependency chain.
#pragma once

#include <string>
#include <vector>

namespace gpusched::workloads {

/// One instruction of a loop body: its result is ready `latency` cycles after it issues.
/// `deps` are earlier instructions of the same iteration it reads, `carried` instructions of
/// the previous iteration it reads (indices into the body).
struct ChainInstruction {
    std::string op;             ///< e.g. "MUFU.RCP"
    std::string pipe;           ///< the GPU key its latency came from, e.g. "execution.sfu_latency_cycles"
    double latency = 0;         ///< SM cycles
    std::vector<int> deps;
    std::vector<int> carried;
};

/// Steady-state SM cycles per iteration of one warp that issues `body` in program order, one
/// instruction per cycle at most, each waiting until the results it reads are ready (a lone
/// warp: no other warp competes for the scheduler). Computed by running the body 24 times
/// from an idle start and taking the mean of the last 16 iterations. 0 for an empty body.
/// Throws std::invalid_argument for a dependency on a later instruction or out of range.
double in_order_cycles_per_iteration(const std::vector<ChainInstruction>& body);

/// "I2F(execution.conversion_latency_cycles 5) -> MUFU.RCP(...)": the body, in program order.
std::string describe_chain(const std::vector<ChainInstruction>& body);

}  // namespace gpusched::workloads

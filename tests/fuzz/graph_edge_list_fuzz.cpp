// libFuzzer target: any bytes given to the `u v w` edge-list reader succeed (and run Crauser's SSSP) or throw InputError.
#include "graph_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return gpusched::fuzz::fuzz_graph(data, size, gpusched::workloads::GraphFormat::edge_list);
}

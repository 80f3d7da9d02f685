// Declarations of the `sssp` experiment: random graphs, Crauser's SSSP on the CPU, GPU kernels.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "workload_kit.h"

namespace sssp {

constexpr int kInf = 0x7fffffff;        // "not reached" distance and "no reached node" threshold
constexpr int kNoOutEdge = 0x7ffffffe;  // minimum term of a reached node without out-edges

// A directed graph in CSR form with integer weights.
struct Graph {
  int n = 0;
  std::vector<int> ptr, adj, w;  // ptr: n + 1
  std::vector<int> min_out;      // smallest out-weight of each node, kInf for none
  long long edges() const { return static_cast<long long>(adj.size()); }
};

// Erdos-Renyi G(n, p), p = d / (n - 1), no self-loops, weights 1..100: for u = 0..n-1, for v =
// 0..n-1 (v != u), one splitmix64 uniform() < p decides the edge u->v, and then 1 + next() mod
// 100 is its weight.
Graph random_graph(int n, double d, uint64_t seed);

// One CPU run of the GPU loop (Crauser's OUT criterion), iteration by iteration.
struct CpuRun {
  std::vector<int> dist;       // kInf where not reached
  std::vector<int> frontier;   // |F_i| per iteration (relax launches)
  std::vector<int> settled;    // |F_{i+1}| per iteration; the last is 0 (the exit test)
  std::vector<int> reached;    // reached nodes of U_i after relax, per iteration
  std::vector<int> unsettled;  // |U_i| per iteration
  std::vector<int> delta;      // the minimum kernel's threshold per iteration (kInf in the last)
  int iterations() const { return static_cast<int>(frontier.size()); }
};
CpuRun cpu_sssp(const Graph& g, int source);

// The graph on the device (shared by every instance).
struct DeviceGraph {
  int n = 0;
  int *ptr = nullptr, *adj = nullptr, *w = nullptr, *min_out = nullptr;
};
DeviceGraph upload(const Graph& g);
void release(DeviceGraph& g);

// One instance's state: dist[n] | delta[iters] | count[iters] (ints), then U[n] | F[n] (bytes).
struct InstanceView {
  int* dist;
  int* delta;  // minimum kernel's threshold per iteration (atomicMin into delta[i])
  int* count;  // nodes the update kernel of iteration i settles (atomicAdd)
  unsigned char* u;
  unsigned char* f;
};
size_t instance_bytes(int n, int max_iters);
InstanceView instance_view(void* base, int n, int max_iters);
// Host image of the initial state for source s (dist 0 at s, U all but s, F = {s}, deltas kInf).
std::vector<unsigned char> instance_init(int n, int max_iters, int source);

enum class Kernel { kRelax, kMinimum, kUpdate };
const char* kernel_name(Kernel k);
const void* kernel_fn(Kernel k);
int grid_of(Kernel k, int n, int threads);
// Launches one kernel of iteration `iter` of an instance; `rec` null = uninstrumented.
void launch(Kernel k, const DeviceGraph& g, const InstanceView& v, int iter, int threads,
            cudaStream_t s, kit::BlockRecord* rec);
// cudaFuncAttributePreferredSharedMemoryCarveout of all three kernels.
void set_carveout(int percent);

}  // namespace sssp

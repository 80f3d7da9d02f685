// n x SSSP kernels (relax / minimum / update, Crauser's OUT criterion), graph and CPU run.
//
// relax: a thread per node; a frontier node walks its out-edges and atomicMin's the distance of
// every unsettled successor. minimum: the SDK's reduce4 (each thread loads two elements, a
// shared-memory tree, here finished with warp shuffles) over the unsettled nodes of
// dist(u) + min out-weight(u), each block's minimum published with one atomicMin. update: clears
// F and settles the unsettled nodes with dist <= the threshold (they form the next frontier).
#include <algorithm>
#include <climits>

#include "sssp.h"

namespace sssp {
namespace {

using kit::BlockProbe;
using kit::BlockRecord;

__global__ void relax_kernel(int n, const int* __restrict__ ptr, const int* __restrict__ adj,
                             const int* __restrict__ w, int* dist, const unsigned char* u,
                             const unsigned char* f, BlockRecord* rec) {
  BlockProbe probe;
  probe.enter(rec);
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n && f[tid]) {
    const int d = dist[tid];
    for (int e = ptr[tid]; e < ptr[tid + 1]; ++e) {
      const int j = adj[e];
      if (u[j]) atomicMin(&dist[j], d + w[e]);
    }
  }
  probe.leave(rec);
}

__device__ __forceinline__ int min_term(int i, int n, const int* dist, const int* min_out,
                                        const unsigned char* u) {
  if (i >= n || !u[i]) return kInf;
  const int d = dist[i];
  if (d == kInf) return kInf;
  return min_out[i] == kInf ? kNoOutEdge : d + min_out[i];
}

__global__ void minimum_kernel(int n, const int* __restrict__ dist, const int* __restrict__ min_out,
                               const unsigned char* __restrict__ u, int* delta, BlockRecord* rec) {
  extern __shared__ int sdata[];
  BlockProbe probe;
  probe.enter(rec);
  const int tid = threadIdx.x;
  const int i = blockIdx.x * (blockDim.x * 2) + tid;
  int v = min(min_term(i, n, dist, min_out, u), min_term(i + blockDim.x, n, dist, min_out, u));
  sdata[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s >= 32; s >>= 1) {
    if (tid < static_cast<int>(s)) sdata[tid] = v = min(v, sdata[tid + s]);
    __syncthreads();
  }
  if (tid < 32) {
    for (int off = 16; off > 0; off >>= 1) v = min(v, __shfl_down_sync(0xffffffffu, v, off));
    if (tid == 0 && v < kInf) atomicMin(delta, v);
  }
  probe.leave(rec);
}

__global__ void update_kernel(int n, const int* __restrict__ dist, unsigned char* u,
                              unsigned char* f, const int* delta, int* count, BlockRecord* rec) {
  BlockProbe probe;
  probe.enter(rec);
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n) {
    f[tid] = 0;
    if (u[tid] && dist[tid] <= *delta) {
      u[tid] = 0;
      f[tid] = 1;
      atomicAdd(count, 1);
    }
  }
  probe.leave(rec);
}

}  // namespace

Graph random_graph(int n, double d, uint64_t seed) {
  Graph g;
  g.n = n;
  g.ptr.assign(1, 0);
  g.min_out.assign(static_cast<size_t>(n), kInf);
  kit::SplitMix64 rng(seed);
  const double p = n > 1 ? d / (n - 1) : 0.0;
  for (int from = 0; from < n; ++from) {
    for (int to = 0; to < n; ++to) {
      if (to == from || rng.uniform() >= p) continue;
      const int weight = 1 + static_cast<int>(rng.below(100));
      g.adj.push_back(to);
      g.w.push_back(weight);
      g.min_out[from] = std::min(g.min_out[from], weight);
    }
    g.ptr.push_back(static_cast<int>(g.adj.size()));
  }
  return g;
}

CpuRun cpu_sssp(const Graph& g, int source) {
  const int n = g.n;
  CpuRun r;
  r.dist.assign(static_cast<size_t>(n), kInf);
  std::vector<char> u(static_cast<size_t>(n), 1), f(static_cast<size_t>(n), 0);
  r.dist[source] = 0;
  u[source] = 0;
  f[source] = 1;
  int unsettled = n - 1;
  for (;;) {
    int frontier = 0;
    for (int v = 0; v < n; ++v) {  // relax
      if (!f[v]) continue;
      ++frontier;
      for (int e = g.ptr[v]; e < g.ptr[v + 1]; ++e) {
        const int j = g.adj[e];
        if (u[j]) r.dist[j] = std::min(r.dist[j], r.dist[v] + g.w[e]);
      }
    }
    int delta = kInf, reached = 0;
    for (int v = 0; v < n; ++v) {  // minimum
      if (!u[v] || r.dist[v] == kInf) continue;
      ++reached;
      delta = std::min(delta, g.min_out[v] == kInf ? kNoOutEdge : r.dist[v] + g.min_out[v]);
    }
    r.frontier.push_back(frontier);
    r.reached.push_back(reached);
    r.unsettled.push_back(unsettled);
    r.delta.push_back(delta);
    if (delta == kInf) {
      r.settled.push_back(0);
      break;
    }
    int settled = 0;
    for (int v = 0; v < n; ++v) {  // update
      f[v] = 0;
      if (u[v] && r.dist[v] <= delta) {
        u[v] = 0;
        f[v] = 1;
        ++settled;
      }
    }
    unsettled -= settled;
    r.settled.push_back(settled);
  }
  return r;
}

DeviceGraph upload(const Graph& g) {
  DeviceGraph d;
  d.n = g.n;
  d.ptr = kit::to_device(g.ptr);
  d.adj = kit::to_device(g.adj);
  d.w = kit::to_device(g.w);
  d.min_out = kit::to_device(g.min_out);
  return d;
}

void release(DeviceGraph& g) {
  for (int* p : {g.ptr, g.adj, g.w, g.min_out}) RUNNER_CUDA_CHECK(cudaFree(p));
  g = DeviceGraph{};
}

size_t instance_bytes(int n, int max_iters) {
  const size_t ints = static_cast<size_t>(n) + 2 * static_cast<size_t>(max_iters);
  return (ints * sizeof(int) + 2 * static_cast<size_t>(n) + 255) / 256 * 256;
}

InstanceView instance_view(void* base, int n, int max_iters) {
  InstanceView v;
  v.dist = static_cast<int*>(base);
  v.delta = v.dist + n;
  v.count = v.delta + max_iters;
  v.u = reinterpret_cast<unsigned char*>(v.count + max_iters);
  v.f = v.u + n;
  return v;
}

std::vector<unsigned char> instance_init(int n, int max_iters, int source) {
  std::vector<unsigned char> img(instance_bytes(n, max_iters), 0);
  const InstanceView v = instance_view(img.data(), n, max_iters);
  for (int i = 0; i < n; ++i) {
    v.dist[i] = i == source ? 0 : kInf;
    v.u[i] = i == source ? 0 : 1;
    v.f[i] = i == source ? 1 : 0;
  }
  for (int i = 0; i < max_iters; ++i) {
    v.delta[i] = kInf;
    v.count[i] = 0;
  }
  return img;
}

const char* kernel_name(Kernel k) {
  switch (k) {
    case Kernel::kRelax:
      return "relax";
    case Kernel::kMinimum:
      return "minimum";
    case Kernel::kUpdate:
      return "update";
  }
  return "?";
}

const void* kernel_fn(Kernel k) {
  switch (k) {
    case Kernel::kRelax:
      return reinterpret_cast<const void*>(&relax_kernel);
    case Kernel::kMinimum:
      return reinterpret_cast<const void*>(&minimum_kernel);
    case Kernel::kUpdate:
      return reinterpret_cast<const void*>(&update_kernel);
  }
  return nullptr;
}

int grid_of(Kernel k, int n, int threads) {
  const int per_block = k == Kernel::kMinimum ? 2 * threads : threads;
  return (n + per_block - 1) / per_block;
}

void launch(Kernel k, const DeviceGraph& g, const InstanceView& v, int iter, int threads,
            cudaStream_t s, kit::BlockRecord* rec) {
  const int grid = grid_of(k, g.n, threads);
  switch (k) {
    case Kernel::kRelax:
      relax_kernel<<<grid, threads, 0, s>>>(g.n, g.ptr, g.adj, g.w, v.dist, v.u, v.f, rec);
      break;
    case Kernel::kMinimum:
      minimum_kernel<<<grid, threads, sizeof(int) * threads, s>>>(g.n, v.dist, g.min_out, v.u,
                                                                  v.delta + iter, rec);
      break;
    case Kernel::kUpdate:
      update_kernel<<<grid, threads, 0, s>>>(g.n, v.dist, v.u, v.f, v.delta + iter, v.count + iter,
                                             rec);
      break;
  }
  RUNNER_CUDA_CHECK(cudaGetLastError());
}

void set_carveout(int percent) {
  for (Kernel k : {Kernel::kRelax, Kernel::kMinimum, Kernel::kUpdate}) {
    RUNNER_CUDA_CHECK(cudaFuncSetAttribute(
        kernel_fn(k), cudaFuncAttributePreferredSharedMemoryCarveout, percent));
  }
}

}  // namespace sssp

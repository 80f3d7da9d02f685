// `curves` kernels and timed host drivers: tiled min-plus APSP, Floyd-Warshall APSP, series sum.
#include <cstdint>

#include "curves.h"
#include "device_probes.h"
#include "minplus_argmin.cuh"
#include "runner_common.h"

namespace curves {
namespace {

// Holds the GPU for spin_ns so the launches behind it queue up (see run_minplus's gate_ns).
__global__ void gate_kernel(unsigned spin_ns) {
  const unsigned long long t0 = runner::read_globaltimer();
  while (runner::read_globaltimer() - t0 < spin_ns) __nanosleep(1000);
}

void launch_gate(unsigned gate_ns) {
  if (gate_ns == 0) return;
  gate_kernel<<<1, 32>>>(gate_ns);
  RUNNER_CUDA_CHECK(cudaGetLastError());
}

// Alg. 1 "Init": D = A, P = first hop (j for an edge, i on the diagonal, -1 for no edge).
__global__ void init_kernel(int n, const int* a, int* d, int* p) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= n || col >= n) return;
  const int w = a[row * n + col];
  d[row * n + col] = w;
  p[row * n + col] = row == col ? row : (w < kInf ? col : -1);
}

// Alg. 2: one in-place min-plus "squaring" step; block (x, y) owns the BS x BS output tile.
template <int BS>
__global__ void __launch_bounds__(BS * BS) minplus_kernel(int n, int* d, int* p) {
  __shared__ int t1[BS][BS];  // tile of D on the output tile's rows
  __shared__ int t2[BS][BS];  // tile of D on the output tile's columns
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
  const bool inside = row < n && col < n;
  int wmin = inside ? d[row * n + col] : kInf;
  int kmin = -1;
  for (int b = 0; b < static_cast<int>(gridDim.x); ++b) {
    const int kc = b * BS + tx, kr = b * BS + ty;
    t1[ty][tx] = (row < n && kc < n) ? d[row * n + kc] : kInf;
    t2[ty][tx] = (kr < n && col < n) ? d[kr * n + col] : kInf;
    __syncthreads();
    int best, km;
    curves::minplus_tile_argmin<BS>(t1, t2, ty, tx, best, km);
    if (best < wmin) {
      wmin = best;
      kmin = b * BS + km;
    }
    __syncthreads();
  }
  if (inside && kmin >= 0) {
    d[row * n + col] = wmin;
    p[row * n + col] = p[row * n + kmin];
  }
}

// Alg. 4: one Floyd-Warshall step k, all operands from global memory.
__global__ void fw_kernel(int n, int k, int* d, int* p) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= n || col >= n) return;
  const int via = d[row * n + k] + d[k * n + col];
  if (via < d[row * n + col]) {
    d[row * n + col] = via;
    p[row * n + col] = p[row * n + k];  // first hop of i->k (Alg. 4 writes P(k, j))
  }
}

// Compute-bound series: sum_{i<terms} C(a, i) x^i = (1 + x)^a for |x| < 1, by term recurrence.
__global__ void series_kernel(int terms, float a, float* out) {
  const long long gid = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const float x = series_x(gid);
  float term = 1.0f, sum = 1.0f;
  for (int i = 1; i < terms; ++i) {
    term *= (a - static_cast<float>(i - 1)) / static_cast<float>(i) * x;
    sum += term;
  }
  out[gid] = sum;
}

KernelInfo info_of(const char* name, const void* func) {
  cudaFuncAttributes attr{};
  RUNNER_CUDA_CHECK(cudaFuncGetAttributes(&attr, func));
  KernelInfo k;
  k.name = name;
  k.num_regs = attr.numRegs;
  k.shared_bytes = attr.sharedSizeBytes;
  k.max_threads = attr.maxThreadsPerBlock;
  return k;
}

using runner::EventPair;

dim3 grid_of(int n, int block) {
  const unsigned g = static_cast<unsigned>((n + block - 1) / block);
  return dim3(g, g);
}

}  // namespace

std::vector<KernelInfo> kernel_infos() {
  return {info_of("init", reinterpret_cast<const void*>(&init_kernel)),
          info_of("minplus_bs8", reinterpret_cast<const void*>(&minplus_kernel<8>)),
          info_of("minplus_bs16", reinterpret_cast<const void*>(&minplus_kernel<16>)),
          info_of("minplus_bs32", reinterpret_cast<const void*>(&minplus_kernel<32>)),
          info_of("fw", reinterpret_cast<const void*>(&fw_kernel)),
          info_of("series", reinterpret_cast<const void*>(&series_kernel))};
}

ApspBuffers apsp_alloc(const std::vector<int>& host_a, int n) {
  ApspBuffers b;
  b.n = n;
  const size_t bytes = sizeof(int) * static_cast<size_t>(n) * static_cast<size_t>(n);
  RUNNER_CUDA_CHECK(cudaMalloc(&b.a, bytes));
  RUNNER_CUDA_CHECK(cudaMalloc(&b.d, bytes));
  RUNNER_CUDA_CHECK(cudaMalloc(&b.p, bytes));
  RUNNER_CUDA_CHECK(cudaMemcpy(b.a, host_a.data(), bytes, cudaMemcpyHostToDevice));
  return b;
}

void apsp_free(ApspBuffers& b) {
  RUNNER_CUDA_CHECK(cudaFree(b.a));
  RUNNER_CUDA_CHECK(cudaFree(b.d));
  RUNNER_CUDA_CHECK(cudaFree(b.p));
  b = ApspBuffers{};
}

std::vector<int> copy_distances(const ApspBuffers& b) {
  std::vector<int> out(static_cast<size_t>(b.n) * static_cast<size_t>(b.n));
  RUNNER_CUDA_CHECK(cudaMemcpy(out.data(), b.d, sizeof(int) * out.size(), cudaMemcpyDeviceToHost));
  return out;
}

int minplus_launches(int n) {
  int steps = 0;
  while (n > 2 && (1LL << steps) < static_cast<long long>(n - 1)) ++steps;
  return steps;
}

float run_minplus(const ApspBuffers& b, int block, unsigned gate_ns) {
  const dim3 grid = grid_of(b.n, block), threads(block, block);
  const int launches = minplus_launches(b.n);
  EventPair ev;
  launch_gate(gate_ns);
  RUNNER_CUDA_CHECK(cudaEventRecord(ev.start));
  init_kernel<<<grid, threads>>>(b.n, b.a, b.d, b.p);
  RUNNER_CUDA_CHECK(cudaGetLastError());
  for (int s = 0; s < launches; ++s) {
    switch (block) {
      case 8: minplus_kernel<8><<<grid, threads>>>(b.n, b.d, b.p); break;
      case 16: minplus_kernel<16><<<grid, threads>>>(b.n, b.d, b.p); break;
      case 32: minplus_kernel<32><<<grid, threads>>>(b.n, b.d, b.p); break;
      default: runner::fatal("run_minplus: unsupported block size " + std::to_string(block));
    }
    RUNNER_CUDA_CHECK(cudaGetLastError());
  }
  RUNNER_CUDA_CHECK(cudaEventRecord(ev.stop));
  return ev.elapsed_ms();
}

float run_fw(const ApspBuffers& b, int block, unsigned gate_ns) {
  const dim3 grid = grid_of(b.n, block), threads(block, block);
  EventPair ev;
  launch_gate(gate_ns);
  RUNNER_CUDA_CHECK(cudaEventRecord(ev.start));
  init_kernel<<<grid, threads>>>(b.n, b.a, b.d, b.p);
  RUNNER_CUDA_CHECK(cudaGetLastError());
  for (int k = 0; k < b.n; ++k) {
    fw_kernel<<<grid, threads>>>(b.n, k, b.d, b.p);
    RUNNER_CUDA_CHECK(cudaGetLastError());
  }
  RUNNER_CUDA_CHECK(cudaEventRecord(ev.stop));
  return ev.elapsed_ms();
}

float run_series(float* d_out, int blocks, int threads, int terms) {
  EventPair ev;
  RUNNER_CUDA_CHECK(cudaEventRecord(ev.start));
  series_kernel<<<blocks, threads>>>(terms, kSeriesA, d_out);
  RUNNER_CUDA_CHECK(cudaGetLastError());
  RUNNER_CUDA_CHECK(cudaEventRecord(ev.stop));
  return ev.elapsed_ms();
}

}  // namespace curves

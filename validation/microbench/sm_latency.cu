// SM microbenchmark for GPU presets: shared-memory load latency, dependent integer ALU latency, barrier cost.
//
// Build and run (CUDA toolkit only):  nvcc -O3 -arch=sm_90 -o sm_latency sm_latency.cu && ./sm_latency
// Prints CSV lines "metric,value,unit,detail": clock64() cycles per step of one thread's (or one
// block's) dependent chain, averaged over many steps; one block on an otherwise idle GPU.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#include "cuda_check.h"

constexpr int kSteps = 1 << 16;

// Dependent shared-memory loads: i = s[i] along a cycle of stride 33 words (distinct banks).
__global__ void smem_chase(double* out, int* sink) {
  __shared__ int s[1024];
  for (int k = threadIdx.x; k < 1024; k += blockDim.x) s[k] = (k + 33) % 1024;
  __syncthreads();
  if (threadIdx.x != 0) return;
  int i = 0;
  const long long t0 = clock64();
  for (int k = 0; k < kSteps; ++k) i = s[i];
  const long long t1 = clock64();
  *out = static_cast<double>(t1 - t0) / kSteps;
  *sink = i;
}

// The argmin step of a min-plus product: compare with the running minimum, select minimum and
// index; the next step's compare depends on this step's select (2 dependent instructions).
__global__ void argmin_chain(const int* in, double* out, int* sink) {
  int best = in[0], km = 0;
  const int a = in[1], b = in[2];
  const long long t0 = clock64();
#pragma unroll 16
  for (int k = 0; k < kSteps; ++k) {
    const int w = best - (k & a) + b;  // depends on best: one more op (an add) per step
    if (w < best) {
      best = w;
      km = k;
    }
  }
  const long long t1 = clock64();
  *out = static_cast<double>(t1 - t0) / kSteps;
  *sink = best + km;
}

// __syncthreads() back to back in one block of `blockDim.x` threads.
__global__ void barrier_loop(double* out) {
  const long long t0 = clock64();
  for (int k = 0; k < kSteps; ++k) __syncthreads();
  const long long t1 = clock64();
  if (threadIdx.x == 0) *out = static_cast<double>(t1 - t0) / kSteps;
}

int main() {
  double* out = nullptr;
  int* sink = nullptr;
  int* in = nullptr;
  CHECK(cudaMalloc(&out, sizeof(double)));
  CHECK(cudaMalloc(&sink, sizeof(int)));
  CHECK(cudaMalloc(&in, 3 * sizeof(int)));
  const int host_in[3] = {1000000, 0, 1};
  CHECK(cudaMemcpy(in, host_in, sizeof(host_in), cudaMemcpyHostToDevice));
  double v = 0;
  std::printf("metric,value,unit,detail\n");
  for (int rep = 0; rep < 2; ++rep) {  // the first of each is a warm-up
    smem_chase<<<1, 32>>>(out, sink);
    CHECK(cudaMemcpy(&v, out, sizeof(double), cudaMemcpyDeviceToHost));
    if (rep) std::printf("smem_load_cycles,%.1f,cycles,dependent shared-memory load (one thread)\n", v);
    argmin_chain<<<1, 1>>>(in, out, sink);
    CHECK(cudaMemcpy(&v, out, sizeof(double), cudaMemcpyDeviceToHost));
    if (rep) std::printf("argmin_step_cycles,%.1f,cycles,add + compare + select chain per step (one thread)\n", v);
    for (int threads : {64, 256, 1024}) {
      barrier_loop<<<1, threads>>>(out);
      CHECK(cudaMemcpy(&v, out, sizeof(double), cudaMemcpyDeviceToHost));
      if (rep) std::printf("barrier_cycles,%.1f,cycles,__syncthreads back to back, %d threads\n", v, threads);
    }
  }
  CHECK(cudaGetLastError());
  return 0;
}

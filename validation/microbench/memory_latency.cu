// Memory microbenchmark for GPU presets: L2-hit and DRAM load latency (pointer chase) and L2 / DRAM read bandwidth.
//
// Build and run (CUDA toolkit only):  nvcc -O3 -arch=sm_90 -o memory_latency memory_latency.cu && ./memory_latency
// Prints CSV lines "metric,value,unit,detail". Latencies are clock64() cycles per dependent load of
// one thread (ld.global.cg: L1 bypassed), averaged over a random cyclic chase; bandwidths are
// bytes read by all SMs (ld.global.cg, 16 B per thread per load) over CUDA-event time.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

#include "cuda_check.h"

__device__ __forceinline__ std::uint64_t load_cg(const std::uint64_t* p) {
  std::uint64_t v;
  asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(v) : "l"(p));
  return v;
}

__device__ __forceinline__ std::uint64_t load_ca(const std::uint64_t* p) {
  std::uint64_t v;
  asm volatile("ld.global.ca.u64 %0, [%1];" : "=l"(v) : "l"(p));
  return v;
}

// The same through L1 (ld.global.ca, as the default caching of plain loads on sm_90): an L1 miss
// that hits L2 when the footprint is beyond L1.
__global__ void chase_l1(const std::uint64_t* next, std::uint64_t start, long long warm, long long steps,
                         double* cycles, std::uint64_t* sink) {
  std::uint64_t i = start;
  for (long long s = 0; s < warm; ++s) i = load_ca(next + i);
  const long long t0 = clock64();
  for (long long s = 0; s < steps; ++s) i = load_ca(next + i);
  const long long t1 = clock64();
  *cycles = static_cast<double>(t1 - t0) / static_cast<double>(steps);
  *sink = i;
}

// One thread walks the chase `steps` times after one warm-up lap; writes the mean cycles per load.
__global__ void chase(const std::uint64_t* next, std::uint64_t start, long long warm, long long steps,
                      double* cycles, std::uint64_t* sink) {
  std::uint64_t i = start;
  for (long long s = 0; s < warm; ++s) i = load_cg(next + i);
  const long long t0 = clock64();
  for (long long s = 0; s < steps; ++s) i = load_cg(next + i);
  const long long t1 = clock64();
  *cycles = static_cast<double>(t1 - t0) / static_cast<double>(steps);
  *sink = i;
}

__global__ void stream_read(const int4* data, std::size_t count, int reps, int* sink) {
  int acc = 0;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (int r = 0; r < reps; ++r)
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
      int4 v;
      asm volatile("ld.global.cg.v4.s32 {%0,%1,%2,%3}, [%4];"
                   : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                   : "l"(data + i));
      acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
  if (acc == 0x7fffffff) *sink = acc;
}

// Random cyclic permutation over `bytes` of memory, one element per `granule` bytes.
double chase_cycles(std::size_t bytes, std::size_t granule, long long steps, bool through_l1 = false) {
  const std::size_t slots = bytes / granule, per = granule / sizeof(std::uint64_t);
  std::vector<std::size_t> order(slots);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::shuffle(order.begin() + 1, order.end(), std::mt19937_64(20260611));
  std::vector<std::uint64_t> next(slots * per, 0);
  for (std::size_t k = 0; k < slots; ++k) next[order[k] * per] = order[(k + 1) % slots] * per;
  std::uint64_t* d_next = nullptr;
  double* d_cycles = nullptr;
  std::uint64_t* d_sink = nullptr;
  CHECK(cudaMalloc(&d_next, next.size() * sizeof(std::uint64_t)));
  CHECK(cudaMalloc(&d_cycles, sizeof(double)));
  CHECK(cudaMalloc(&d_sink, sizeof(std::uint64_t)));
  CHECK(cudaMemcpy(d_next, next.data(), next.size() * sizeof(std::uint64_t), cudaMemcpyHostToDevice));
  const long long warm = static_cast<long long>(std::min<std::size_t>(slots, 1 << 22));
  if (through_l1)
    chase_l1<<<1, 1>>>(d_next, 0, warm, steps, d_cycles, d_sink);
  else
    chase<<<1, 1>>>(d_next, 0, warm, steps, d_cycles, d_sink);
  CHECK(cudaGetLastError());
  double cycles = 0;
  CHECK(cudaMemcpy(&cycles, d_cycles, sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_next));
  CHECK(cudaFree(d_cycles));
  CHECK(cudaFree(d_sink));
  return cycles;
}

double read_gbps(std::size_t bytes, int reps, int blocks, int threads) {
  int4* data = nullptr;
  int* sink = nullptr;
  CHECK(cudaMalloc(&data, bytes));
  CHECK(cudaMalloc(&sink, sizeof(int)));
  CHECK(cudaMemset(data, 1, bytes));
  const std::size_t count = bytes / sizeof(int4);
  stream_read<<<blocks, threads>>>(data, count, 1, sink);  // warm-up (and fills L2 when it fits)
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::vector<float> ms;
  for (int t = 0; t < 5; ++t) {
    CHECK(cudaEventRecord(a));
    stream_read<<<blocks, threads>>>(data, count, reps, sink);
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float m = 0;
    CHECK(cudaEventElapsedTime(&m, a, b));
    ms.push_back(m);
  }
  std::sort(ms.begin(), ms.end());
  CHECK(cudaFree(data));
  CHECK(cudaFree(sink));
  return static_cast<double>(bytes) * reps / (ms[ms.size() / 2] * 1e-3) / 1e9;
}

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int clock_khz = 0;
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  std::printf("metric,value,unit,detail\n");
  std::printf("device,%s,,sm_count=%d l2=%d clock_khz=%d\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize,
              clock_khz);
  for (std::size_t mib : {1, 4, 16, 32}) {
    const double c = chase_cycles(mib << 20, 256, 200000);
    std::printf("chase_cycles,%.1f,cycles,%zu MiB footprint 256 B granule (fits L2)\n", c, mib);
  }
  for (std::size_t kib : {64, 16384}) {
    const double c = chase_cycles(kib << 10, 256, 200000, true);
    std::printf("chase_l1_cycles,%.1f,cycles,%zu KiB footprint 256 B granule, ld.global.ca (%s)\n", c, kib,
                kib <= 64 ? "L1 hits" : "L1 misses, L2 hits");
  }
  for (std::size_t mib : {256, 1024, 4096}) {
    const double c = chase_cycles(mib << 20, 256, 200000);
    std::printf("chase_cycles,%.1f,cycles,%zu MiB footprint 256 B granule (DRAM)\n", c, mib);
  }
  const int sms = prop.multiProcessorCount;
  for (std::size_t mib : {8, 24}) {
    const double g = read_gbps(mib << 20, 200, sms * 8, 256);
    std::printf("read_gbps,%.0f,GB/s,%zu MiB x 200 reps (L2-resident) %d blocks x 256\n", g, mib, sms * 8);
  }
  const double g = read_gbps(std::size_t{4} << 30, 3, sms * 8, 256);
  std::printf("read_gbps,%.0f,GB/s,4096 MiB x 3 reps (DRAM) %d blocks x 256\n", g, sms * 8);
  return 0;
}

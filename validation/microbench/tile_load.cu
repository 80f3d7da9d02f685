// Microbenchmark: latency of a block's tile load (L2 hits spread over several lines) and of the min-plus tile round trip.
//
// Build and run (CUDA toolkit only):  nvcc -O3 -arch=sm_90 -o tile_load tile_load.cu && ./tile_load
// One block alone on the GPU; only clock64() at the start and end of a long dependent loop, so no
// stamp sits inside the measured code. Prints CSV "metric,detail,cycles_per_iteration":
// - warp_lines: one warp loads one int per lane from `lines` different 128-byte lines (L2 hits, a
//   16 MiB buffer in random order); lane 0's value (__shfl_sync) is the next group. The chase of
//   one line is the L2 hit latency; more lines per load wait for the slowest of them.
// - tile_round: a BS x BS block does what one min-plus tile iteration (Alg. 2) does around its
//   global loads: load its BS x BS tile (row r0 + ty, column c0 + tx; BS rows = BS / 8 .. BS lines
//   of 32 .. 128 bytes), store it to shared memory, __syncthreads, read the next tile's index from
//   shared memory, __syncthreads. Tiles are visited in random order (16 MiB, L2-resident).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#include "cuda_check.h"

constexpr int kN = 2048;  // the matrix is kN x kN ints = 16 MiB: L2 hits, L1 misses
constexpr int kIters = 4096;

template <int L>
__global__ void warp_lines_kernel(const int* buf, long long* out) {
  const int lane = threadIdx.x;
  const int off = (lane % L) * 64 + lane / L;  // L lines 256 B apart
  int base = 0;
  const long long c0 = clock64();
  for (int i = 0; i < kIters; ++i) {
    const int v = buf[base + off];
    base = __shfl_sync(0xffffffffu, v, 0);
  }
  const long long c1 = clock64();
  if (lane == 0) {
    out[0] = c1 - c0;
    out[1] = base;
  }
}

template <int BS, int W, bool kTwo>
__global__ void __launch_bounds__(BS * BS) tile_round_kernel(const int* buf, long long* out) {
  __shared__ int t[BS][BS];
  __shared__ int u[BS][BS];
  const int tx = threadIdx.x, ty = threadIdx.y;
  constexpr int kTilesPerRow = W / BS;
  constexpr int kTiles = kN * kN / (BS * BS);
  int tile = 0;
  const long long c0 = clock64();
  for (int i = 0; i < kIters; ++i) {
    const int r0 = (tile / kTilesPerRow) * BS, col0 = (tile % kTilesPerRow) * BS;
    t[ty][tx] = buf[(r0 + ty) * W + col0 + tx];
    if (kTwo) {
      const int other = (tile + kTiles / 2) % kTiles;  // a second tile, as Alg. 2 loads two per iteration
      const int r1 = (other / kTilesPerRow) * BS, col1 = (other % kTilesPerRow) * BS;
      u[ty][tx] = buf[(r1 + ty) * W + col1 + tx];
    }
    __syncthreads();
    tile = kTwo ? t[0][0] + (u[0][1] >> 30) : t[0][0];  // tile indices are < 2^30: adds 0
    __syncthreads();
  }
  const long long c1 = clock64();
  if (tx == 0 && ty == 0) {
    out[0] = c1 - c0;
    out[1] = tile;
  }
}

// Every element of group g (warp_lines: 64 ints from g x 2048; tile_round: the BS x BS tile g)
// holds the next group of a random cycle over all groups.
std::vector<int> cycle(int groups, unsigned seed) {
  std::vector<int> order(groups);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin() + 1, order.end(), std::mt19937(seed));
  std::vector<int> next(groups);
  for (int i = 0; i < groups; ++i) next[order[i]] = order[(i + 1) % groups];
  return next;
}

template <typename Launch>
double time_kernel(const std::vector<int>& host, Launch launch) {
  int* d = nullptr;
  long long* out = nullptr;
  CHECK(cudaMalloc(&d, host.size() * sizeof(int)));
  CHECK(cudaMalloc(&out, 2 * sizeof(long long)));
  long long cycles = 0;
  for (int rep = 0; rep < 3; ++rep) {  // the first launch warms up code and TLB; the last is kept
    CHECK(cudaMemcpy(d, host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice));
    launch(d, out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(&cycles, out, sizeof(long long), cudaMemcpyDeviceToHost));
  }
  CHECK(cudaFree(d));
  CHECK(cudaFree(out));
  return static_cast<double>(cycles) / kIters;
}

template <int L>
void warp_lines() {
  const int groups = kN * kN / 2048;  // group g: ints g x 2048 + off, lines 256 B apart
  const std::vector<int> next = cycle(groups, 1);
  std::vector<int> host(static_cast<size_t>(kN) * kN, 0);
  for (int g = 0; g < groups; ++g)
    for (int lane = 0; lane < 32; ++lane) host[static_cast<size_t>(g) * 2048 + (lane % L) * 64 + lane / L] = next[g] * 2048;
  const double c = time_kernel(host, [](int* d, long long* out) { warp_lines_kernel<L><<<1, 32>>>(d, out); });
  std::printf("warp_lines,lines=%d,%.1f\n", L, c);
}

// The same 16 MiB as a (kN x kN / W) x W matrix: W ints per row (the row pitch of Alg. 2's D is n ints).
template <int BS, int W, bool kTwo>
void tile_round() {
  constexpr int kTilesPerRow = W / BS;
  constexpr int kRows = kN * kN / W;
  const std::vector<int> next = cycle(kTilesPerRow * (kRows / BS), 2);
  std::vector<int> host(static_cast<size_t>(kN) * kN);
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < W; ++c) host[static_cast<size_t>(r) * W + c] = next[(r / BS) * kTilesPerRow + c / BS];
  const double c =
      time_kernel(host, [](int* d, long long* out) { tile_round_kernel<BS, W, kTwo><<<1, dim3(BS, BS)>>>(d, out); });
  std::printf("tile_round%s,block=%dx%d pitch=%d,%.1f\n", kTwo ? "_two" : "", BS, BS, W, c);
}

int main() {
  std::printf("metric,detail,cycles_per_iteration\n");
  warp_lines<1>();
  warp_lines<2>();
  warp_lines<4>();
  warp_lines<8>();
  warp_lines<16>();
  warp_lines<32>();
  tile_round<1, kN, false>();
  tile_round<8, kN, false>();
  tile_round<16, kN, false>();
  tile_round<32, kN, false>();
  tile_round<1, 128, false>();
  tile_round<8, 128, false>();
  tile_round<16, 128, false>();
  tile_round<32, 128, false>();
  tile_round<8, 128, true>();
  tile_round<16, 128, true>();
  tile_round<32, 128, true>();
  return 0;
}

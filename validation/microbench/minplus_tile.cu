// Microbenchmark: where one tile iteration of the min-plus APSP kernel (Alg. 2) spends its cycles, per block size.
//
// Build and run (CUDA toolkit only):  nvcc -O3 -arch=sm_90 -o minplus_tile minplus_tile.cu && ./minplus_tile
// The kernel is the runner's minplus_kernel (validation/runner/curves_kernels.cu) with thread 0
// of each block reading clock64() at four points of every tile iteration: before the two tile
// loads, after the first barrier, after the k loop, after the second barrier. The tile loop runs
// `tiles` times over an n = tiles x BS matrix; `blocks` blocks (1 = alone, 132 = one per SM) each
// read their own rows. Prints CSV "block_size,blocks,tiles,phase,cycles_per_tile": the median over
// blocks of the mean over tiles 1..tiles-1 (tile 0 warms nothing up: every tile is a new line).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "../runner/minplus_argmin.cuh"
#include "cuda_check.h"

constexpr int kMaxTiles = 64;

template <int BS>
__global__ void __launch_bounds__(BS * BS) minplus_tile_kernel(int n, int tiles, int* d, long long* stamps) {
  __shared__ int t1[BS][BS];
  __shared__ int t2[BS][BS];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = (blockIdx.x * BS + ty) % n, col = tx;  // block x reads its own rows, the first tile column
  int wmin = d[row * n + col];
  int kmin = -1;
  long long* my = stamps + static_cast<long long>(blockIdx.x) * kMaxTiles * 4;
  for (int b = 0; b < tiles; ++b) {
    const long long c0 = clock64();
    const int kc = b * BS + tx, kr = b * BS + ty;
    t1[ty][tx] = d[row * n + kc];
    t2[ty][tx] = d[kr * n + col];
    __syncthreads();
    const long long c1 = clock64();
    int best, km;
    curves::minplus_tile_argmin<BS>(t1, t2, ty, tx, best, km);
    if (best < wmin) {
      wmin = best;
      kmin = b * BS + km;
    }
    const long long c2 = clock64();
    __syncthreads();
    const long long c3 = clock64();
    if (tx == 0 && ty == 0) {
      my[b * 4 + 0] = c0;
      my[b * 4 + 1] = c1;
      my[b * 4 + 2] = c2;
      my[b * 4 + 3] = c3;
    }
  }
  d[row * n + col] = kmin >= 0 ? wmin : d[row * n + col];
}

template <int BS>
void run(int blocks, int tiles) {
  const int n = tiles * BS;
  const int rows = std::max(n, blocks * BS);
  std::vector<int> host(static_cast<size_t>(rows) * n);
  for (size_t i = 0; i < host.size(); ++i) host[i] = 1 + static_cast<int>((i * 2654435761u) % 100);
  int* d = nullptr;
  long long* stamps = nullptr;
  CHECK(cudaMalloc(&d, host.size() * sizeof(int)));
  CHECK(cudaMalloc(&stamps, sizeof(long long) * blocks * kMaxTiles * 4));
  CHECK(cudaMemcpy(d, host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice));
  for (int rep = 0; rep < 2; ++rep) {  // the first launch warms up code and TLB; the second is kept
    CHECK(cudaMemcpy(d, host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice));
    minplus_tile_kernel<BS><<<blocks, dim3(BS, BS)>>>(n, tiles, d, stamps);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
  }
  std::vector<long long> s(static_cast<size_t>(blocks) * kMaxTiles * 4);
  CHECK(cudaMemcpy(s.data(), stamps, s.size() * sizeof(long long), cudaMemcpyDeviceToHost));
  const char* phases[] = {"loads_and_barrier", "k_loop", "second_barrier", "whole_tile"};
  for (int phase = 0; phase < 4; ++phase) {
    std::vector<double> per_block;
    for (int blk = 0; blk < blocks; ++blk) {
      const long long* m = s.data() + static_cast<size_t>(blk) * kMaxTiles * 4;
      double sum = 0;
      for (int b = 1; b < tiles; ++b) {
        const long long* t = m + b * 4;
        // whole_tile: from the previous tile's start to this one's; the others: between stamps.
        sum += phase == 3 ? static_cast<double>(t[0] - m[(b - 1) * 4]) : static_cast<double>(t[phase + 1] - t[phase]);
      }
      per_block.push_back(sum / (tiles - 1));
    }
    std::sort(per_block.begin(), per_block.end());
    std::printf("%d,%d,%d,%s,%.1f\n", BS, blocks, tiles, phases[phase], per_block[per_block.size() / 2]);
  }
  CHECK(cudaFree(d));
  CHECK(cudaFree(stamps));
}

int main() {
  std::printf("block_size,blocks,tiles,phase,cycles_per_tile\n");
  for (int blocks : {1, 132}) {
    run<8>(blocks, 16);
    run<16>(blocks, 8);
    run<32>(blocks, 4);
  }
  return 0;
}

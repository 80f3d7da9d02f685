// One thread's Floyd-Warshall step (Alg. 4), shared by the runner's instrumented kernel and validation/microbench/fw_block.cu.
#pragma once

#include <cuda_runtime.h>

namespace curves {

// Thread (blockIdx, threadIdx) of a 2-D grid relaxes D(row, col) through node k and, when that
// is shorter, takes P(row, k) as the first hop.
__device__ __forceinline__ void fw_step(int n, int k, int* d, int* p) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    const int via = d[row * n + k] + d[k * n + col];
    if (via < d[row * n + col]) {
      d[row * n + col] = via;
      p[row * n + col] = p[row * n + k];
    }
  }
}

}  // namespace curves

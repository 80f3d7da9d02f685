// The k loop of one min-plus tile (Alg. 2 lines 7-8), shared by the runner's kernel and validation/microbench/minplus_tile.cu.
#pragma once

#include <cuda_runtime.h>

namespace curves {

// best = min over k of t1[ty][k] + t2[k][tx], km = the first k that attains it.
template <int BS>
__device__ __forceinline__ void minplus_tile_argmin(const int (&t1)[BS][BS], const int (&t2)[BS][BS], int ty, int tx,
                                                    int& best, int& km) {
  best = t1[ty][0] + t2[0][tx];
  km = 0;
#pragma unroll
  for (int k = 1; k < BS; ++k) {
    const int w = t1[ty][k] + t2[k][tx];
    if (w < best) {
      best = w;
      km = k;
    }
  }
}

}  // namespace curves

// Probe: thread (0, 0) of a 2-D block stamps %globaltimer and %smid at entry and after the block's final barrier.
#pragma once

#include <cuda_runtime.h>

#include "device_probes.h"

namespace runner {

__device__ __forceinline__ bool first_thread() { return threadIdx.x == 0 && threadIdx.y == 0; }

struct Probe {
  unsigned long long t0 = 0;
  unsigned int sm = 0;
  __device__ __forceinline__ void enter() {
    if (first_thread()) {
      t0 = read_globaltimer();
      sm = read_smid();
    }
  }
  // A final barrier, then thread (0, 0) stores the block's record at its linear index y * GX + x
  // (Record: start_ns, end_ns, smid, pad).
  template <class Record>
  __device__ __forceinline__ void leave(Record* rec) {
    __syncthreads();
    if (first_thread()) {
      Record r;
      r.start_ns = t0;
      r.end_ns = read_globaltimer();
      r.smid = sm;
      r.pad = 0;
      rec[blockIdx.y * gridDim.x + blockIdx.x] = r;
    }
  }
};

}  // namespace runner

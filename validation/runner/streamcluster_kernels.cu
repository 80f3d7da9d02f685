// streamcluster's pgain kernel (Rodinia's kernel_compute_cost) with rake size R (CDS paper).
//
// Thread t of T = ceil(points / R) handles points t, t + T, t + 2T, ... (R "tines"): for each it
// computes the weighted squared distance to the candidate centre x (coordinates stored
// dimension-major, coord[d * points + p]); a point that gets cheaper is marked in `switch_flag`
// and its saving added to work[t * (K + 1) + K], otherwise the loss is added to the slot of its
// current centre. The work array has T rows, so its device-to-host copy shrinks as 1/R.
#include "streamcluster.h"

namespace streamcluster {
namespace {

using kit::BlockProbe;
using kit::BlockRecord;

__global__ void pgain_kernel(int points, int dim, int x, int rake, int k,
                             const float* __restrict__ coord, const float* __restrict__ weight,
                             const float* __restrict__ cost, const int* __restrict__ assign,
                             const int* __restrict__ center_table, float* __restrict__ work,
                             unsigned char* __restrict__ switch_flag, BlockRecord* rec) {
  BlockProbe probe;
  probe.enter(rec);
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int tines = (points + rake - 1) / rake;
  if (t < tines) {
    float* lower = work + static_cast<size_t>(t) * (k + 1);
    for (int r = 0; r < rake; ++r) {
      const int p = t + r * tines;
      if (p >= points) break;
      float d2 = 0.0f;
      for (int d = 0; d < dim; ++d) {
        const float diff =
            coord[static_cast<size_t>(d) * points + p] - coord[static_cast<size_t>(d) * points + x];
        d2 += diff * diff;
      }
      const float x_cost = d2 * weight[p];
      if (x_cost < cost[p]) {
        switch_flag[p] = 1;
        lower[k] += x_cost - cost[p];
      } else {
        lower[center_table[assign[p]]] += cost[p] - x_cost;
      }
    }
  }
  probe.leave(rec);
}

}  // namespace

const void* kernel_fn() { return reinterpret_cast<const void*>(&pgain_kernel); }

int tines_of(int points, int rake) { return (points + rake - 1) / rake; }

int grid_of(int points, int rake) { return (tines_of(points, rake) + kThreads - 1) / kThreads; }

void launch_pgain(const DevicePoints& d, int x, int rake, cudaStream_t s,
                  kit::BlockRecord* rec) {
  pgain_kernel<<<grid_of(d.points, rake), kThreads, 0, s>>>(
      d.points, d.dim, x, rake, d.k, d.coord, d.weight, d.cost, d.assign, d.center_table, d.work,
      d.switch_flag, rec);
  RUNNER_CUDA_CHECK(cudaGetLastError());
}

}  // namespace streamcluster

// Declarations of the `streamcluster` experiment: the pgain kernel with rake size R and its data.
#pragma once

#include <cuda_runtime.h>

#include "workload_kit.h"

namespace streamcluster {

constexpr int kThreads = 256;  // threads per block of the pgain kernel

// Device copies of the point set and the current solution (K centres).
struct DevicePoints {
  int points = 0, dim = 0, k = 0;
  float* coord = nullptr;                // dim x points, dimension-major
  float* weight = nullptr;               // points
  float* cost = nullptr;                 // points: weighted squared distance to the assigned centre
  int* assign = nullptr;                 // points: the assigned centre's point index
  int* center_table = nullptr;           // points: centre point index -> 0..K-1
  float* work = nullptr;                 // tines(R = 1) x (K + 1)
  unsigned char* switch_flag = nullptr;  // points
};

// Threads (tines) of rake size R: ceil(points / R); blocks of kThreads.
int tines_of(int points, int rake);
int grid_of(int points, int rake);
const void* kernel_fn();
// One pgain launch for candidate point x; `rec` null = uninstrumented.
void launch_pgain(const DevicePoints& d, int x, int rake, cudaStream_t s, kit::BlockRecord* rec);

}  // namespace streamcluster

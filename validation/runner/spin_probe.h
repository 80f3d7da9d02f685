// Instrumented spin kernel for the Hopper experiments (clusters, partitions, concurrency):
// launches with optional cluster shape, and the timeline CSV every one of them writes.
//
// Each block spins on %globaltimer for durations[block % n] ns; thread 0 records (smid, start,
// end) as placement::BlockRecord. A cluster launch (cluster > 1) goes through cudaLaunchKernelEx
// with cudaLaunchAttributeClusterDimension, so the grid must be a multiple of the cluster size.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "placement.h"
#include "runner_common.h"

namespace spin_probe {

using placement::BlockRecord;

// One launch of the spin kernel and where its records go (device buffers owned by the caller
// through DeviceLaunch below).
struct LaunchShape {
  std::string name;         // `kernel` column
  int blocks = 0;
  int threads = 0;
  int smem = 0;             // dynamic shared memory bytes per block
  int cluster = 1;          // blocks per cluster (1 = no cluster attribute)
  std::vector<uint32_t> durations_ns;  // block b spins durations_ns[b % size]
  int stream_label = 0;     // `stream` column
  int priority = 0;         // `priority` column (CUDA value, 0 = default, lower = higher)
};

// Device buffers of one launch; records come back with fetch().
class DeviceLaunch {
 public:
  explicit DeviceLaunch(const LaunchShape& shape);
  ~DeviceLaunch();
  DeviceLaunch(const DeviceLaunch&) = delete;
  DeviceLaunch& operator=(const DeviceLaunch&) = delete;
  void launch(cudaStream_t stream);
  std::vector<BlockRecord> fetch() const;
  const LaunchShape& shape() const { return shape_; }

 private:
  LaunchShape shape_;
  uint32_t* durations_ = nullptr;
  BlockRecord* records_ = nullptr;
};

// Allows `bytes` of dynamic shared memory and non-portable cluster sizes (up to 16).
void prepare_kernel(int max_dynamic_smem);

// The spin kernel's address, for occupancy queries.
const void* kernel_address();

// cudaOccupancyMaxActiveClusters for the spin kernel with this shape (grid = 1000 clusters).
int max_active_clusters(int cluster, int threads, int smem);

// Writes DIR/<file>: device metadata, `extra` metadata lines, then
// kernel,launch,stream,priority,block,sm,start_ns,end_ns with times relative to the earliest
// start in the file. `launch` is the index of the launch in `launches` (one record set each).
void write_timeline(const std::string& path, int device, const cudaDeviceProp& prop,
                    const std::vector<std::pair<std::string, std::string>>& extra,
                    const std::vector<const DeviceLaunch*>& launches);

// Sleeps the calling host thread for `us` microseconds (spin on steady_clock).
void host_wait_us(double us);

}  // namespace spin_probe

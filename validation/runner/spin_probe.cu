// Instrumented spin kernel, cluster launches and timeline CSV of the Hopper experiments.
#include "spin_probe.h"

#include <algorithm>
#include <chrono>
#include <fstream>

#include "device_probes.h"

namespace spin_probe {
namespace {

using runner::read_globaltimer;
using runner::read_smid;

__global__ void spin_probe_kernel(const uint32_t* __restrict__ durations, int n_durations,
                                  BlockRecord* __restrict__ records, int smem_words) {
  const unsigned long long t0 = read_globaltimer();
  extern __shared__ uint32_t dyn_smem[];
  volatile uint32_t* smem = dyn_smem;
  for (int i = threadIdx.x; i < smem_words; i += blockDim.x) smem[i] = static_cast<uint32_t>(i);
  const unsigned long long d = durations[blockIdx.x % static_cast<unsigned>(n_durations)];
  for (;;) {
    const unsigned long long elapsed = read_globaltimer() - t0;
    if (elapsed >= d) break;
    __nanosleep(d - elapsed > 2000ull ? 500u : 100u);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    BlockRecord r;
    r.start_ns = t0;
    r.end_ns = read_globaltimer();
    r.smid = read_smid();
    r.pad = 0;
    records[blockIdx.x] = r;
  }
}

}  // namespace

DeviceLaunch::DeviceLaunch(const LaunchShape& shape) : shape_(shape) {
  RUNNER_CUDA_CHECK(cudaMalloc(&durations_, shape_.durations_ns.size() * sizeof(uint32_t)));
  RUNNER_CUDA_CHECK(cudaMemcpy(durations_, shape_.durations_ns.data(),
                               shape_.durations_ns.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
  RUNNER_CUDA_CHECK(cudaMalloc(&records_, static_cast<size_t>(shape_.blocks) * sizeof(BlockRecord)));
  RUNNER_CUDA_CHECK(cudaMemset(records_, 0, static_cast<size_t>(shape_.blocks) * sizeof(BlockRecord)));
}

DeviceLaunch::~DeviceLaunch() {
  cudaFree(durations_);  // best effort in a destructor
  cudaFree(records_);
}

void DeviceLaunch::launch(cudaStream_t stream) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(shape_.blocks));
  config.blockDim = dim3(static_cast<unsigned>(shape_.threads));
  config.dynamicSmemBytes = static_cast<size_t>(shape_.smem);
  config.stream = stream;
  cudaLaunchAttribute attr{};
  if (shape_.cluster > 1) {
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = static_cast<unsigned>(shape_.cluster);
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    config.attrs = &attr;
    config.numAttrs = 1;
  }
  const int n = static_cast<int>(shape_.durations_ns.size());
  RUNNER_CUDA_CHECK(cudaLaunchKernelEx(&config, spin_probe_kernel, static_cast<const uint32_t*>(durations_),
                                       n, records_, shape_.smem / 4));
  RUNNER_CUDA_CHECK(cudaGetLastError());
}

std::vector<BlockRecord> DeviceLaunch::fetch() const {
  std::vector<BlockRecord> out(static_cast<size_t>(shape_.blocks));
  RUNNER_CUDA_CHECK(cudaMemcpy(out.data(), records_, out.size() * sizeof(BlockRecord), cudaMemcpyDeviceToHost));
  return out;
}

void prepare_kernel(int max_dynamic_smem) {
  RUNNER_CUDA_CHECK(cudaFuncSetAttribute(spin_probe_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         max_dynamic_smem));
  RUNNER_CUDA_CHECK(cudaFuncSetAttribute(spin_probe_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
}

const void* kernel_address() { return reinterpret_cast<const void*>(&spin_probe_kernel); }

int max_active_clusters(int cluster, int threads, int smem) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(cluster * 1000));
  config.blockDim = dim3(static_cast<unsigned>(threads));
  config.dynamicSmemBytes = static_cast<size_t>(smem);
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = static_cast<unsigned>(cluster);
  attr.val.clusterDim.y = 1;
  attr.val.clusterDim.z = 1;
  config.attrs = &attr;
  config.numAttrs = 1;
  int n = -1;
  const cudaError_t err = cudaOccupancyMaxActiveClusters(&n, spin_probe_kernel, &config);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    return -1;  // the shape cannot launch (reported as -1 in the table)
  }
  return n;
}

void write_timeline(const std::string& path, int device, const cudaDeviceProp& prop,
                    const std::vector<std::pair<std::string, std::string>>& extra,
                    const std::vector<const DeviceLaunch*>& launches) {
  std::vector<std::vector<BlockRecord>> records;
  unsigned long long t0 = ~0ull;
  for (const DeviceLaunch* l : launches) {
    records.push_back(l->fetch());
    for (const BlockRecord& r : records.back()) t0 = std::min(t0, r.start_ns);
  }
  std::ofstream os(path);
  if (!os) runner::fatal("cannot write " + path);
  runner::MetaWriter meta(os);
  runner::write_device_metadata(meta, device, prop);
  for (const auto& kv : extra) meta.put_str(kv.first, kv.second);
  os << "kernel,launch,stream,priority,cluster,block,sm,start_ns,end_ns\n";
  for (size_t k = 0; k < launches.size(); ++k) {
    const LaunchShape& s = launches[k]->shape();
    for (size_t b = 0; b < records[k].size(); ++b) {
      const BlockRecord& r = records[k][b];
      os << s.name << ',' << k << ',' << s.stream_label << ',' << s.priority << ',' << s.cluster << ','
         << b << ',' << r.smid << ',' << (r.start_ns - t0) << ',' << (r.end_ns - t0) << '\n';
    }
  }
  if (!os) runner::fatal("write failed: " + path);
}

void host_wait_us(double us) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::nanoseconds(static_cast<long long>(us * 1000));
  while (std::chrono::steady_clock::now() < until) {
  }
}

}  // namespace spin_probe

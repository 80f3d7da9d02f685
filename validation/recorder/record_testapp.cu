// gpusched-record-testapp: a small CUDA program with what gpusched-record must capture (priorities, copies, memset, cluster, events).
//
//   gpusched-record-testapp [--exit N | --abort]
//
// Two streams (the device's highest and lowest priority), a pinned and a pageable host-to-device
// copy, a memset, a kernel with 1 KiB dynamic shared memory, a kernel with a 2 KiB static tile, a
// kernel launched with 2x1x1 clusters, an event recorded on one stream and waited for on the
// other, a device-to-host copy, then: exit 0; --exit N: exit N after the work; --abort: abort()
// right after the work is queued (the recorder must still write what it has).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

__global__ void testapp_dynamic_smem(float* x, int n) {
  extern __shared__ float buffer[];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  buffer[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  if (i < n) x[i] = buffer[blockDim.x - 1 - threadIdx.x] + 1.0f;
}

__global__ void testapp_static_smem(float* x, int n) {
  __shared__ float tile[512];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  if (i < n) x[i] = 2.0f * tile[threadIdx.x];
}

__global__ void testapp_cluster(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 3.0f;
}

void cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "gpusched-record-testapp: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  int exit_code = 0;
  bool abort_after = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--abort") == 0) {
      abort_after = true;
    } else if (std::strcmp(argv[i], "--exit") == 0 && i + 1 < argc) {
      exit_code = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "Usage: gpusched-record-testapp [--exit N | --abort]\n");
      return 2;
    }
  }
  constexpr int n = 1 << 16, threads = 256, blocks = n / threads;
  int least = 0, greatest = 0;
  cuda(cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange");
  cudaStream_t high, low;
  cuda(cudaStreamCreateWithPriority(&high, cudaStreamNonBlocking, greatest), "cudaStreamCreateWithPriority");
  cuda(cudaStreamCreateWithPriority(&low, cudaStreamNonBlocking, least), "cudaStreamCreateWithPriority");
  float *pinned = nullptr, *x = nullptr, *y = nullptr;
  std::vector<float> pageable(n, 1.0f);
  cuda(cudaMallocHost(&pinned, n * sizeof(float)), "cudaMallocHost");
  for (int i = 0; i < n; ++i) pinned[i] = static_cast<float>(i);
  cuda(cudaMalloc(&x, n * sizeof(float)), "cudaMalloc");
  cuda(cudaMalloc(&y, n * sizeof(float)), "cudaMalloc");
  cuda(cudaMemcpyAsync(x, pinned, n * sizeof(float), cudaMemcpyHostToDevice, high), "cudaMemcpyAsync");
  cuda(cudaMemcpy(y, pageable.data(), n * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
  cuda(cudaMemsetAsync(y, 0, n * sizeof(float), low), "cudaMemsetAsync");
  testapp_dynamic_smem<<<blocks, threads, threads * sizeof(float), high>>>(x, n);
  cuda(cudaGetLastError(), "testapp_dynamic_smem");
  cudaEvent_t done;
  cuda(cudaEventCreate(&done), "cudaEventCreate");
  cuda(cudaEventRecord(done, high), "cudaEventRecord");
  cuda(cudaStreamWaitEvent(low, done, 0), "cudaStreamWaitEvent");
  testapp_static_smem<<<blocks / 2, 512, 0, low>>>(x, n);
  cuda(cudaGetLastError(), "testapp_static_smem");
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(threads);
  config.stream = low;
  cudaLaunchAttribute cluster{};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = 2;
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  config.attrs = &cluster;
  config.numAttrs = 1;
  cuda(cudaLaunchKernelEx(&config, testapp_cluster, x, n), "cudaLaunchKernelEx (cluster 2x1x1)");
  if (abort_after) std::abort();
  cuda(cudaMemcpyAsync(pinned, x, n * sizeof(float), cudaMemcpyDeviceToHost, low), "cudaMemcpyAsync");
  cuda(cudaStreamSynchronize(low), "cudaStreamSynchronize");
  cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  // x[i] = (pinned[mirror of i in its block] + 1) * 2 + 3
  const int i = 300, mirror = (i / threads) * threads + threads - 1 - i % threads;
  const float want = (static_cast<float>(mirror) + 1.0f) * 2.0f + 3.0f;
  if (pinned[i] != want) {
    std::fprintf(stderr, "gpusched-record-testapp: x[%d] = %g, expected %g\n", i, pinned[i], want);
    return 1;
  }
  std::printf("gpusched-record-testapp: ok (stream priorities %d..%d)\n", greatest, least);
  cudaFreeHost(pinned);
  cudaFree(x);
  cudaFree(y);
  return exit_code;
}

// Green-context partitions of the device's SMs for the runner (see green_context.h).
#include "green_context.h"

#include <cstdio>
#include <cstdlib>

#include "runner_common.h"

namespace runner {
namespace {

// The driver API is reached through the runtime's entry-point query rather than by linking
// libcuda, so the runner still starts (for --help, usage errors) on a machine without a driver.
void* driver_symbol(const char* name) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult status{};
  RUNNER_CUDA_CHECK(cudaGetDriverEntryPointByVersion(name, &fn, CUDART_VERSION, cudaEnableDefault, &status));
  if (status != cudaDriverEntryPointSuccess || fn == nullptr)
    fatal(std::string("the CUDA driver lacks ") + name + " (green contexts need a driver of CUDA " + std::to_string(CUDART_VERSION / 1000) + "." + std::to_string(CUDART_VERSION % 1000 / 10) + " or newer)");
  return fn;
}

// DRV(cuFoo)(args...) calls the driver's cuFoo.
#define DRV(name) (reinterpret_cast<decltype(&name)>(driver_symbol(#name)))

int g_requested_sms = 0;
int g_partition_sms = 0;

CUdevice driver_device(int device) {
  RUNNER_CU_CHECK(DRV(cuInit)(0));
  RUNNER_CUDA_CHECK(cudaSetDevice(device));
  RUNNER_CUDA_CHECK(cudaFree(nullptr));  // creates the primary context the runtime uses
  CUdevice dev = 0;
  RUNNER_CU_CHECK(DRV(cuDeviceGet)(&dev, device));
  return dev;
}

Partition make_partition(CUdevice dev, CUdevResource* resource) {
  Partition p;
  CUdevResourceDesc desc = nullptr;
  RUNNER_CU_CHECK(DRV(cuDevResourceGenerateDesc)(&desc, resource, 1));
  RUNNER_CU_CHECK(DRV(cuGreenCtxCreate)(&p.green, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM));
  RUNNER_CU_CHECK(DRV(cuCtxFromGreenCtx)(&p.context, p.green));
  CUstream stream = nullptr;
  RUNNER_CU_CHECK(DRV(cuGreenCtxStreamCreate)(&stream, p.green, CU_STREAM_NON_BLOCKING, 0));
  p.stream = reinterpret_cast<cudaStream_t>(stream);
  p.sm_count = static_cast<int>(resource->sm.smCount);
  return p;
}

}  // namespace

void cu_check(CUresult result, const char* expr, const char* file, int line) {
  if (result == CUDA_SUCCESS) return;
  const char* name = nullptr;
  const char* text = nullptr;
  DRV(cuGetErrorName)(result, &name);
  DRV(cuGetErrorString)(result, &text);
  std::fprintf(stderr, "%s:%d: CUDA driver error %s (%s) in %s\n", file, line, name ? name : "?",
               text ? text : "?", expr);
  std::exit(kExitFailure);
}

std::vector<Partition> split_partitions(int device, int sms_per_group, int max_groups) {
  const CUdevice dev = driver_device(device);
  CUdevResource all{};
  RUNNER_CU_CHECK(DRV(cuDeviceGetDevResource)(dev, &all, CU_DEV_RESOURCE_TYPE_SM));
  std::vector<CUdevResource> groups(static_cast<size_t>(max_groups));
  unsigned int count = static_cast<unsigned int>(max_groups);
  CUdevResource rest{};
  RUNNER_CU_CHECK(DRV(cuDevSmResourceSplitByCount)(groups.data(), &count, &all, &rest, 0,
                                              static_cast<unsigned int>(sms_per_group)));
  std::vector<Partition> out;
  for (unsigned int g = 0; g < count; ++g) out.push_back(make_partition(dev, &groups[g]));
  return out;
}

Partition enter_partition(int device, int sms) {
  std::vector<Partition> parts = split_partitions(device, sms, 1);
  if (parts.empty()) fatal("the driver made no partition of " + std::to_string(sms) + " SMs");
  RUNNER_CU_CHECK(DRV(cuCtxSetCurrent)(parts[0].context));
  g_partition_sms = parts[0].sm_count;
  return parts[0];
}

void use_partition(const Partition& p) { RUNNER_CU_CHECK(DRV(cuCtxSetCurrent)(p.context)); }

int partition_sm_count() { return g_partition_sms; }
int requested_green_sms() { return g_requested_sms; }
void set_requested_green_sms(int sms) { g_requested_sms = sms; }

}  // namespace runner

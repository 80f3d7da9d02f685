// SM partitions through the driver's green contexts: create one of K SMs, or split the device.
//
// A partition is a green context (cuGreenCtxCreate) over an SM resource cut from the device's
// SMs by cuDevSmResourceSplitByCount. `enter_partition(K)` makes one current on the calling
// thread (through cuCtxFromGreenCtx), so every later runtime-API launch of the runner, on the
// default stream or on streams it creates, runs on those K SMs only: that is how the global
// `gpusched-runner --green-sms K <experiment> ...` option runs any experiment in a partition.
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <string>
#include <vector>

namespace runner {

// One green context and its default stream; `sm_count` is what the driver granted.
struct Partition {
  CUgreenCtx green = nullptr;
  CUcontext context = nullptr;  // cuCtxFromGreenCtx(green)
  cudaStream_t stream = nullptr;
  int sm_count = 0;
};

// Splits device 0's SMs into groups of `sms_per_group` (as many as fit, at most `max_groups`),
// one green context each. The driver may round `sms_per_group` up to its granularity (8 on the
// H100); each Partition says what it got. Exits 1 on a driver error.
std::vector<Partition> split_partitions(int device, int sms_per_group, int max_groups);

// Makes `p` current on this thread (launches and allocations that follow go to its SMs).
void use_partition(const Partition& p);


// Creates one partition of `sms` SMs and makes it current on this thread; remembered for
// partition_sm_count() and the metadata lines. Exits 1 on a driver error.
Partition enter_partition(int device, int sms);

// SMs of the partition entered by enter_partition (0 when none).
int partition_sm_count();

// The "--green-sms K" request given on the command line (0 when none).
int requested_green_sms();
void set_requested_green_sms(int sms);

// Checks a driver-API call; on failure prints the call and error, then exits 1.
void cu_check(CUresult result, const char* expr, const char* file, int line);

}  // namespace runner

#define RUNNER_CU_CHECK(expr) ::runner::cu_check((expr), #expr, __FILE__, __LINE__)

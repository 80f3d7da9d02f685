// Spin kernels of the `placement` experiment: blocks sleep-spin on %globaltimer for a given time.
//
// spin_kernel<true> is the instrumented kernel: thread 0 of each block reads %smid and
// %globaltimer at entry, every thread spins until its own entry time + the block's duration
// (with __nanosleep so waiting warps leave issue slots to neighbours), a __syncthreads() follows,
// then thread 0 reads %globaltimer again and stores (smid, start, end). spin_kernel<false> is the
// plain variant: the same spin and barrier, no %smid read and no stores, to measure the overhead.
#include "placement.h"

#include "device_probes.h"
#include "runner_common.h"

namespace placement {
namespace {

using runner::read_globaltimer;
using runner::read_smid;

// Sleeps 500 ns while more than 2 us remain, 100 ns near the end (__nanosleep may sleep up to
// about twice the request), so the overshoot past the duration stays a few hundred ns.
__device__ __forceinline__ void spin_until(unsigned long long t0, unsigned long long duration) {
  for (;;) {
    const unsigned long long elapsed = read_globaltimer() - t0;
    if (elapsed >= duration) break;
    __nanosleep(duration - elapsed > 2000ull ? 500u : 100u);
  }
}

template <bool kInstrumented>
__global__ void spin_kernel(const uint32_t* __restrict__ duration_ns,
                            BlockRecord* __restrict__ records, int smem_words) {
  const unsigned long long t0 = read_globaltimer();
  unsigned int sm = 0;
  if (kInstrumented && threadIdx.x == 0) sm = read_smid();
  // Touch the dynamic shared memory so the allocation is really used (volatile: not elided).
  extern __shared__ uint32_t dyn_smem[];
  volatile uint32_t* smem = dyn_smem;
  for (int i = threadIdx.x; i < smem_words; i += blockDim.x) smem[i] = static_cast<uint32_t>(i);
  spin_until(t0, duration_ns[blockIdx.x]);
  __syncthreads();
  if (kInstrumented && threadIdx.x == 0) {
    BlockRecord r;
    r.start_ns = t0;
    r.end_ns = read_globaltimer();
    r.smid = sm;
    r.pad = 0;
    records[blockIdx.x] = r;
  }
}

// One thread reads %globaltimer in a loop for span_ns: smallest step, number of steps, cycles.
__global__ void timer_probe_kernel(unsigned long long span_ns, unsigned long long* out) {
  const unsigned long long t_begin = read_globaltimer();
  const long long c_begin = clock64();
  unsigned long long last = t_begin;
  unsigned long long min_step = ~0ull;
  unsigned long long steps = 0;
  unsigned long long now = t_begin;
  while (now - t_begin < span_ns) {
    now = read_globaltimer();
    if (now != last) {
      if (now - last < min_step) min_step = now - last;
      ++steps;
      last = now;
    }
  }
  const long long c_end = clock64();
  out[0] = min_step;
  out[1] = steps;
  out[2] = now - t_begin;
  out[3] = static_cast<unsigned long long>(c_end - c_begin);
}

const void* kernel_ptr(bool instrumented) {
  return instrumented ? reinterpret_cast<const void*>(&spin_kernel<true>)
                      : reinterpret_cast<const void*>(&spin_kernel<false>);
}

}  // namespace

void set_max_dynamic_smem(int bytes) {
  for (bool instrumented : {true, false}) {
    RUNNER_CUDA_CHECK(cudaFuncSetAttribute(kernel_ptr(instrumented),
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  }
}

int blocks_per_sm(bool instrumented, int threads, int smem) {
  int blocks = 0;
  RUNNER_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks, kernel_ptr(instrumented), threads, static_cast<size_t>(smem)));
  return blocks;
}

void launch_spin(bool instrumented, int blocks, int threads, int smem, cudaStream_t stream,
                 const uint32_t* duration_ns, BlockRecord* records) {
  const int smem_words = smem / static_cast<int>(sizeof(uint32_t));
  if (instrumented) {
    spin_kernel<true><<<blocks, threads, static_cast<size_t>(smem), stream>>>(duration_ns, records,
                                                                             smem_words);
  } else {
    spin_kernel<false><<<blocks, threads, static_cast<size_t>(smem), stream>>>(duration_ns,
                                                                              nullptr, smem_words);
  }
  RUNNER_CUDA_CHECK(cudaGetLastError());
}

TimerProbe probe_globaltimer(unsigned long long span_ns) {
  unsigned long long* d_out = nullptr;
  RUNNER_CUDA_CHECK(cudaMalloc(&d_out, 4 * sizeof(unsigned long long)));
  timer_probe_kernel<<<1, 1>>>(span_ns, d_out);
  RUNNER_CUDA_CHECK(cudaGetLastError());
  unsigned long long h[4] = {0, 0, 0, 0};
  RUNNER_CUDA_CHECK(cudaMemcpy(h, d_out, sizeof(h), cudaMemcpyDeviceToHost));
  RUNNER_CUDA_CHECK(cudaFree(d_out));
  TimerProbe p;
  p.steps = h[1];
  p.min_step_ns = h[1] > 0 ? static_cast<double>(h[0]) : 0.0;
  p.mean_step_ns = h[1] > 0 ? static_cast<double>(h[2]) / static_cast<double>(h[1]) : 0.0;
  p.sm_clock_mhz = h[2] > 0 ? 1e3 * static_cast<double>(h[3]) / static_cast<double>(h[2]) : 0.0;
  return p;
}

}  // namespace placement

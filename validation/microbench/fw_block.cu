// Microbenchmark: where the ~0.5 us of one Floyd-Warshall block (n = 128, 16x16 blocks) goes, from an empty block up to the full FW step.
//
// Build and run (CUDA toolkit only):
//   nvcc -O3 -arch=sm_90 -o fw_block fw_block.cu ../runner/apsp_reference.cu && ./fw_block [reps] > fw_block.csv 2> summary.txt
// Launch shape of the runner's `apsp-timeline` case fw_n128_bs16 (validation/runner/
// apsp_timeline_experiment.cu): 128 x 128 int matrices D and P, grid 8 x 8 of 16 x 16 threads, 128
// launches (k = 0..127) back to back on stream 0, queued behind a one-block gate kernel (20 us +
// 5 us per launch, as the runner) so all launches wait in the queue before the first begins. The
// input graph is the runner's (apsp_reference.cu: seed 20240611 + n, edge probability 0.8, weights
// 1..100, kInf = 2^29). Per variant: one untimed warm-up repetition of the whole sequence, then
// `reps` (default 7) timed repetitions, every block of every repetition kept. Every variant stamps
// as the runner's instrumented fw kernel: thread (0, 0) reads %globaltimer and %smid at entry;
// after the block's final __syncthreads() it reads %globaltimer again and stores one 24-byte record.
// Variants (one __global__ kernel each, all with params (n, k, d, p, rec, clk)):
//   empty         V0: entry stamp, __syncthreads(), end stamp.
//   params        V1: V0 plus the index row * n + k (n, k from the constant bank), stored to p
//                     only under a runtime-impossible condition (the index is never -1).
//   one_load      V2: V0 plus each thread loading d[row * n + col] (L2-resident) once, stored to p
//                     only if it is negative (never), before the barrier.
//   fw_converged  V3: the exact FW body (curves_kernels.cu fw_kernel, Alg. 4) on a D that already
//                     holds the all-pairs result (128 FW steps run once before, untimed): no updates.
//   fw            V4: the exact FW body on the initial D (D = A, P = first hop; D and P copied from
//                     the host before each repetition, outside the timed sequence). The final D of
//                     every repetition is compared with a CPU Floyd-Warshall (exit 1 on mismatch).
//   fw_clock      V5: V4 plus thread (0, 0) reading clock64() at entry (c0), after its three
//                     addresses are computed (c1), after its three loads returned and were used
//                     (c2), after the update if any (c3) and after the final barrier (c4).
// CSV (stdout) "variant,rep,launch,block,sm,start_ns,end_ns,c_addr,c_loads,c_update,c_barrier":
//   rep       0..reps-1 (timed repetitions only); launch = k (0..127); block = blockIdx.y * 8 + blockIdx.x
//   sm        %smid of the block
//   start_ns  thread (0,0)'s %globaltimer at entry, ns relative to the earliest start of that
//             variant's repetition; end_ns: the same after the final __syncthreads() (32 ns ticks)
//   c_addr    V5 only: c1 - c0 cycles (entry to the three addresses computed)
//   c_loads   V5 only: c2 - c1 cycles (the three loads of thread (0,0) issued and returned)
//   c_update  V5 only: c3 - c2 cycles (compare and, if shorter, the two stores)
//   c_barrier V5 only: c4 - c3 cycles (the final __syncthreads(): waiting for the block's other warps)
//   (the clock columns are empty for V0..V4)
// '#' lines: device, SM clock (cudaDevAttrClockRate), driver and runtime versions, kernel registers.
// stderr: per variant the median and 5% / 95% block duration (end - start, ns), the median of the
// first launch (k = 0) and of launches 64..127, the median launch span (last end - first start of a
// launch) and gap (first start of launch k+1 - last end of launch k), and for V5 the median of each
// clock delta.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "cuda_check.h"
#include "../runner/curves.h"
#include "../runner/fw_step.cuh"
#include "../runner/grid_probe.cuh"

namespace {

constexpr int kN = 128;
constexpr int kBS = 16;
constexpr int kGrid = kN / kBS;  // 8
constexpr int kBlocks = kGrid * kGrid;  // 64
constexpr int kLaunches = kN;  // k = 0..127
using curves::kInf;

struct BlockRecord {  // as the runner's kit::BlockRecord (workload_kit.h)
  unsigned long long start_ns;
  unsigned long long end_ns;
  unsigned int smid;
  unsigned int pad;
};

struct ClockRecord {
  long long c[4];  // c1-c0, c2-c1, c3-c2, c4-c3
};

using runner::first_thread;
using runner::Probe;
using runner::read_globaltimer;

__global__ void gate_kernel(unsigned long long ns) {  // the runner's busy_kernel
  const unsigned long long t0 = read_globaltimer();
  while (read_globaltimer() - t0 < ns) __nanosleep(200);
}

__global__ void empty_kernel(int n, int k, int* d, int* p, BlockRecord* rec, ClockRecord*) {
  Probe probe;
  probe.enter();
  probe.leave(rec);
}

__global__ void params_kernel(int n, int k, int* d, int* p, BlockRecord* rec, ClockRecord*) {
  Probe probe;
  probe.enter();
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int idx = row * n + k;
  if (idx == -1) p[col] = idx;  // never: row, n, k >= 0
  probe.leave(rec);
}

__global__ void one_load_kernel(int n, int k, int* d, int* p, BlockRecord* rec, ClockRecord*) {
  Probe probe;
  probe.enter();
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int v = d[row * n + col];
  if (v < 0) p[row * n + col] = v + k;  // never: distances are >= 0
  probe.leave(rec);
}

// The runner's fw_timed (= curves_kernels.cu fw_kernel + the probe); V3 and V4 differ only in D.
__global__ void fw_kernel(int n, int k, int* d, int* p, BlockRecord* rec, ClockRecord*) {
  Probe probe;
  probe.enter();
  curves::fw_step(n, k, d, p);
  probe.leave(rec);
}

// fw_kernel plus clock64() stamps of thread (0, 0). Empty asm volatile statements with register
// operands pin each value (the three indices, the compare result) before the next clock read in
// PTX order; check the SASS order with cuobjdump -sass.
__global__ void fw_clock_kernel(int n, int k, int* d, int* p, BlockRecord* rec, ClockRecord* clk) {
  Probe probe;
  probe.enter();
  const long long c0 = clock64();
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  long long c1 = 0, c2 = 0, c3 = 0;
  if (row < n && col < n) {
    int i_rk = row * n + k, i_kc = k * n + col, i_rc = row * n + col;
    asm volatile("" : "+r"(i_rk), "+r"(i_kc), "+r"(i_rc));
    c1 = clock64();
    const int x = d[i_rk], y = d[i_kc], z = d[i_rc];
    const int via = x + y;
    const bool upd = via < z;
    int u = upd;
    asm volatile("" : "+r"(u));
    c2 = clock64();
    if (u) {
      d[i_rc] = via;
      p[i_rc] = p[i_rk];
    }
    c3 = clock64();
  }
  __syncthreads();
  const long long c4 = clock64();
  if (first_thread()) {
    ClockRecord c;
    c.c[0] = c1 - c0;
    c.c[1] = c2 - c1;
    c.c[2] = c3 - c2;
    c.c[3] = c4 - c3;
    clk[blockIdx.y * gridDim.x + blockIdx.x] = c;
  }
  probe.leave(rec);
}

using Kernel = void (*)(int, int, int*, int*, BlockRecord*, ClockRecord*);

struct Variant {
  const char* name;
  Kernel fn;
  bool converged;  // D starts as the final all-pairs result
  bool clocks;
};

const Variant kVariants[] = {{"empty", empty_kernel, false, false},
                             {"params", params_kernel, false, false},
                             {"one_load", one_load_kernel, false, false},
                             {"fw_converged", fw_kernel, true, false},
                             {"fw", fw_kernel, false, false},
                             {"fw_clock", fw_clock_kernel, false, true}};

using curves::cpu_floyd_warshall;
using curves::make_graph;

double pct(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t i = static_cast<size_t>(q * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 7;
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int clock_khz = 0, driver = 0, runtime = 0;
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  CHECK(cudaDriverGetVersion(&driver));
  CHECK(cudaRuntimeGetVersion(&runtime));
  std::printf("# program=validation/microbench/fw_block.cu\n");
  std::printf("# device_name=%s\n# sm_count=%d\n# sm_clock_khz=%d\n# driver_version=%d\n# runtime_version=%d\n",
              prop.name, prop.multiProcessorCount, clock_khz, driver, runtime);
  std::printf("# n=%d block=%dx%d grid=%dx%d launches=%d reps=%d (1 untimed warm-up first)\n", kN, kBS, kBS, kGrid,
              kGrid, kLaunches, reps);
  for (const Variant& v : kVariants) {
    cudaFuncAttributes a{};
    CHECK(cudaFuncGetAttributes(&a, reinterpret_cast<const void*>(v.fn)));
    std::printf("# kernel.%s.numRegs=%d\n", v.name, a.numRegs);
  }

  const std::vector<int> a = make_graph(kN);
  std::vector<int> p0(a.size());
  for (int i = 0; i < kN; ++i) {
    for (int j = 0; j < kN; ++j) {
      const int w = a[static_cast<size_t>(i) * kN + j];
      p0[static_cast<size_t>(i) * kN + j] = i == j ? i : (w < kInf ? j : -1);  // the runner's init kernel
    }
  }
  const std::vector<int> ref = cpu_floyd_warshall(a, kN);
  const size_t bytes = sizeof(int) * a.size();
  int *d = nullptr, *p = nullptr;
  BlockRecord* rec = nullptr;
  ClockRecord* clk = nullptr;
  const size_t n_rec = static_cast<size_t>(kLaunches) * kBlocks;
  CHECK(cudaMalloc(&d, bytes));
  CHECK(cudaMalloc(&p, bytes));
  CHECK(cudaMalloc(&rec, n_rec * sizeof(BlockRecord)));
  CHECK(cudaMalloc(&clk, n_rec * sizeof(ClockRecord)));

  // The converged D and P: the 128 FW steps once from the initial D, untimed.
  CHECK(cudaMemcpy(d, a.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(p, p0.data(), bytes, cudaMemcpyHostToDevice));
  for (int k = 0; k < kLaunches; ++k) fw_kernel<<<dim3(kGrid, kGrid), dim3(kBS, kBS)>>>(kN, k, d, p, rec, clk);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<int> d_conv(a.size()), p_conv(a.size());
  CHECK(cudaMemcpy(d_conv.data(), d, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(p_conv.data(), p, bytes, cudaMemcpyDeviceToHost));
  if (d_conv != ref) {
    std::fprintf(stderr, "fw_block: converged D differs from the CPU Floyd-Warshall\n");
    return 1;
  }

  std::printf("variant,rep,launch,block,sm,start_ns,end_ns,c_addr,c_loads,c_update,c_barrier\n");
  const unsigned long long gate_ns = 20000ull + 5000ull * (kLaunches + 1);
  std::vector<BlockRecord> hrec(n_rec);
  std::vector<ClockRecord> hclk(n_rec);
  std::vector<int> dout(a.size());
  int failures = 0;
  std::fprintf(stderr, "fw_block: %s, SM clock %d kHz, driver %d, runtime %d, %d timed reps\n", prop.name, clock_khz,
               driver, runtime, reps);
  std::fprintf(stderr, "%-13s %7s %6s %6s %6s %9s %9s %8s %8s\n", "variant", "blocks", "med_ns", "p5_ns", "p95_ns",
               "first_med", "late_med", "span_med", "gap_med");
  std::vector<std::string> clock_lines;
  for (const Variant& v : kVariants) {
    std::vector<double> dur, first, late, span, gap, cd[4];
    for (int r = -1; r < reps; ++r) {
      CHECK(cudaMemcpy(d, v.converged ? d_conv.data() : a.data(), bytes, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(p, v.converged ? p_conv.data() : p0.data(), bytes, cudaMemcpyHostToDevice));
      CHECK(cudaMemset(rec, 0xff, n_rec * sizeof(BlockRecord)));
      CHECK(cudaMemset(clk, 0, n_rec * sizeof(ClockRecord)));
      CHECK(cudaDeviceSynchronize());
      gate_kernel<<<1, 32>>>(gate_ns);
      CHECK(cudaGetLastError());
      for (int k = 0; k < kLaunches; ++k) {
        v.fn<<<dim3(kGrid, kGrid), dim3(kBS, kBS)>>>(kN, k, d, p, rec + static_cast<size_t>(k) * kBlocks,
                                                     clk + static_cast<size_t>(k) * kBlocks);
        CHECK(cudaGetLastError());
      }
      CHECK(cudaDeviceSynchronize());
      if (v.fn == fw_kernel || v.fn == fw_clock_kernel) {
        CHECK(cudaMemcpy(dout.data(), d, bytes, cudaMemcpyDeviceToHost));
        if (dout != ref) {
          std::fprintf(stderr, "fw_block: %s rep %d: D differs from the CPU Floyd-Warshall\n", v.name, r);
          ++failures;
        }
      }
      if (r < 0) continue;  // the warm-up
      CHECK(cudaMemcpy(hrec.data(), rec, n_rec * sizeof(BlockRecord), cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(hclk.data(), clk, n_rec * sizeof(ClockRecord), cudaMemcpyDeviceToHost));
      unsigned long long t0 = ~0ull;
      for (const BlockRecord& b : hrec) {
        if (b.smid >= static_cast<unsigned>(prop.multiProcessorCount) || b.end_ns < b.start_ns) {
          std::fprintf(stderr, "fw_block: %s rep %d: a block record is unwritten or invalid\n", v.name, r);
          ++failures;
          break;
        }
        t0 = std::min(t0, b.start_ns);
      }
      unsigned long long prev_end = 0;
      for (int k = 0; k < kLaunches; ++k) {
        unsigned long long lo = ~0ull, hi = 0;
        for (int b = 0; b < kBlocks; ++b) {
          const size_t i = static_cast<size_t>(k) * kBlocks + b;
          const BlockRecord& x = hrec[i];
          const double t = static_cast<double>(x.end_ns - x.start_ns);
          dur.push_back(t);
          if (k == 0) first.push_back(t);
          if (k >= 64) late.push_back(t);
          lo = std::min(lo, x.start_ns);
          hi = std::max(hi, x.end_ns);
          std::printf("%s,%d,%d,%d,%u,%llu,%llu", v.name, r, k, b, x.smid, x.start_ns - t0, x.end_ns - t0);
          if (v.clocks) {
            const ClockRecord& c = hclk[i];
            std::printf(",%lld,%lld,%lld,%lld\n", c.c[0], c.c[1], c.c[2], c.c[3]);
            for (int j = 0; j < 4; ++j) cd[j].push_back(static_cast<double>(c.c[j]));
          } else {
            std::printf(",,,,\n");
          }
        }
        span.push_back(static_cast<double>(hi - lo));
        if (k > 0) gap.push_back(static_cast<double>(lo) - static_cast<double>(prev_end));
        prev_end = hi;
      }
    }
    std::fprintf(stderr, "%-13s %7zu %6.0f %6.0f %6.0f %9.0f %9.0f %8.0f %8.0f\n", v.name, dur.size(), pct(dur, 0.5),
                 pct(dur, 0.05), pct(dur, 0.95), pct(first, 0.5), pct(late, 0.5), pct(span, 0.5), pct(gap, 0.5));
    if (v.clocks) {
      char line[256];
      std::snprintf(line, sizeof line,
                    "%s clock deltas (cycles, median / p5 / p95): addr %.0f / %.0f / %.0f, loads %.0f / %.0f / %.0f, "
                    "update %.0f / %.0f / %.0f, barrier %.0f / %.0f / %.0f",
                    v.name, pct(cd[0], 0.5), pct(cd[0], 0.05), pct(cd[0], 0.95), pct(cd[1], 0.5), pct(cd[1], 0.05),
                    pct(cd[1], 0.95), pct(cd[2], 0.5), pct(cd[2], 0.05), pct(cd[2], 0.95), pct(cd[3], 0.5),
                    pct(cd[3], 0.05), pct(cd[3], 0.95));
      clock_lines.push_back(line);
    }
  }
  for (const auto& l : clock_lines) std::fprintf(stderr, "%s\n", l.c_str());
  std::fprintf(stderr, "fw_block: %d failure(s)\n", failures);
  CHECK(cudaFree(d));
  CHECK(cudaFree(p));
  CHECK(cudaFree(rec));
  CHECK(cudaFree(clk));
  return failures == 0 ? 0 : 1;
}

// `launch-rate` subcommand: how fast one host thread's back-to-back kernel launches reach the GPU -> CSVs.
//
// Why: the APSP and Floyd-Warshall curves time Init + many short launches with CUDA events, and
// at small n they cost about 5 us per launch, more than the GPU-side gap between queued kernels
// (1.6 us, placement/b2b132x5). This experiment times N = 0..512 back-to-back launches of a kernel
// that spins a given time, exactly as the curves time their runs (event record, N launches, event
// record, synchronise), for two grid shapes, and records per launch the earliest block start and
// the latest block end (%globaltimer, atomics) plus the host time of the launch loop. From it:
// the host's launch interval, the latency from the start event to the first kernel, and where
// launches stop being host-bound. Writes DIR/runs.csv and DIR/launches.csv.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "device_probes.h"
#include "runner_common.h"

namespace {

const char* const kHelp =
    "Usage: gpusched-runner launch-rate --out-dir DIR [--device N] [--reps N (default 30)]\n"
    "\n"
    "Times N back-to-back launches (N = 0..512) of a kernel whose blocks spin 0, 3 or 10 us,\n"
    "with 1 x 32 and 132 x 256 threads, by CUDA events around the launch loop (1 warm-up,\n"
    "median of reps). Writes DIR/runs.csv (whole-run and host-loop times) and DIR/launches.csv\n"
    "(per launch of the last repetition: earliest block start, latest block end, %globaltimer ns\n"
    "relative to the first launch's start).\n";

struct Config {
  int blocks, threads;
  unsigned spin_ns;
  int launches;
};

std::vector<Config> configs(int sms) {
  std::vector<Config> c;
  for (int shape = 0; shape < 2; ++shape)
    for (unsigned spin : {0u, 3000u, 10000u})
      for (int n : {0, 1, 2, 4, 8, 16, 32, 64, 128, 512})
        c.push_back({shape == 0 ? 1 : sms, shape == 0 ? 32 : 256, spin, n});
  return c;
}

__global__ void stamp_kernel(unsigned spin_ns, unsigned long long* first_start, unsigned long long* last_end) {
  const unsigned long long t0 = runner::read_globaltimer();
  for (;;) {
    const unsigned long long elapsed = runner::read_globaltimer() - t0;
    if (elapsed >= spin_ns) break;
    __nanosleep(100);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicMin(first_start, t0);
    atomicMax(last_end, runner::read_globaltimer());
  }
}

struct Timing {
  float elapsed_ms;
  double host_loop_us;
};

// d_first/d_last hold one slot per launch; reset before the timed region.
Timing time_run(const Config& c, unsigned long long* d_first, unsigned long long* d_last, int slots) {
  RUNNER_CUDA_CHECK(cudaMemset(d_first, 0xff, sizeof(unsigned long long) * slots));
  RUNNER_CUDA_CHECK(cudaMemset(d_last, 0, sizeof(unsigned long long) * slots));
  RUNNER_CUDA_CHECK(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  RUNNER_CUDA_CHECK(cudaEventCreate(&start));
  RUNNER_CUDA_CHECK(cudaEventCreate(&stop));
  RUNNER_CUDA_CHECK(cudaEventRecord(start));
  const auto h0 = std::chrono::steady_clock::now();
  for (int i = 0; i < c.launches; ++i) stamp_kernel<<<c.blocks, c.threads>>>(c.spin_ns, d_first + i, d_last + i);
  const auto h1 = std::chrono::steady_clock::now();
  RUNNER_CUDA_CHECK(cudaGetLastError());
  RUNNER_CUDA_CHECK(cudaEventRecord(stop));
  RUNNER_CUDA_CHECK(cudaEventSynchronize(stop));
  Timing t{};
  RUNNER_CUDA_CHECK(cudaEventElapsedTime(&t.elapsed_ms, start, stop));
  t.host_loop_us = std::chrono::duration<double, std::micro>(h1 - h0).count();
  RUNNER_CUDA_CHECK(cudaEventDestroy(start));
  RUNNER_CUDA_CHECK(cudaEventDestroy(stop));
  return t;
}

}  // namespace

namespace runner {

int launch_rate_main(int argc, char** argv) {
  CommonOptions options;
  options.reps = 30;
  if (!parse_common_options("launch-rate", kHelp, argc, argv, &options)) return kExitOk;
  const std::string& out_dir = options.out_dir;
  const int device = options.device, reps = options.reps;
  const cudaDeviceProp prop = select_device(device);
  const std::vector<Config> cases = configs(prop.multiProcessorCount);
  int slots = 1;
  for (const Config& c : cases) slots = std::max(slots, c.launches);
  unsigned long long *d_first = nullptr, *d_last = nullptr;
  RUNNER_CUDA_CHECK(cudaMalloc(&d_first, sizeof(unsigned long long) * slots));
  RUNNER_CUDA_CHECK(cudaMalloc(&d_last, sizeof(unsigned long long) * slots));

  const std::string runs_path = out_dir + "/runs.csv", launches_path = out_dir + "/launches.csv";
  std::ofstream runs(runs_path), launches(launches_path);
  if (!runs || !launches) fatal("cannot write " + runs_path + " or " + launches_path);
  MetaWriter meta(runs);
  meta.put("experiment", "launch_rate");
  write_device_metadata(meta, device, prop);
  meta.put("timing", "cudaEventRecord(start); N launches on the default stream; cudaEventRecord(stop); "
                     "cudaEventSynchronize(stop), events created before and destroyed after, as curves times "
                     "APSP; 1 warm-up, median/min/max over reps; host_loop = steady_clock around the N launch calls");
  meta.put("kernel", "every block spins spin_ns on %globaltimer (__nanosleep 100), __syncthreads, thread 0 "
                     "atomicMin(start) / atomicMax(end) of its launch");
  runs << "blocks,threads,spin_ns,launches,reps,median_ms,min_ms,max_ms,host_loop_median_us\n";
  MetaWriter lmeta(launches);
  lmeta.put("experiment", "launch_rate");
  lmeta.put("note", "the last repetition of each configuration with launches >= 1; ns relative to launch 0's first "
                    "block start");
  launches << "blocks,threads,spin_ns,launches,index,start_ns,end_ns\n";
  for (const Config& c : cases) {
    time_run(c, d_first, d_last, slots);
    std::vector<float> elapsed;
    std::vector<float> host;
    for (int r = 0; r < reps; ++r) {
      const Timing t = time_run(c, d_first, d_last, slots);
      elapsed.push_back(t.elapsed_ms);
      host.push_back(static_cast<float>(t.host_loop_us));
    }
    const Stats e = stats_of(elapsed), h = stats_of(host);
    runs << c.blocks << ',' << c.threads << ',' << c.spin_ns << ',' << c.launches << ',' << reps << ','
         << fmt(e.median) << ',' << fmt(e.min) << ',' << fmt(e.max) << ',' << fmt(h.median, 2) << '\n';
    if (c.launches > 0) {
      std::vector<unsigned long long> first(static_cast<size_t>(c.launches)), last(first.size());
      RUNNER_CUDA_CHECK(cudaMemcpy(first.data(), d_first, sizeof(unsigned long long) * first.size(), cudaMemcpyDeviceToHost));
      RUNNER_CUDA_CHECK(cudaMemcpy(last.data(), d_last, sizeof(unsigned long long) * last.size(), cudaMemcpyDeviceToHost));
      for (size_t i = 0; i < first.size(); ++i)
        if (first[i] == ~0ULL || last[i] < first[i]) fatal("launch-rate: launch " + std::to_string(i) + " left no stamps");
      for (size_t i = 0; i < first.size(); ++i)
        launches << c.blocks << ',' << c.threads << ',' << c.spin_ns << ',' << c.launches << ',' << i << ','
                 << first[i] - first[0] << ',' << last[i] - first[0] << '\n';
    }
    std::printf("launch-rate %3dx%-4d spin=%5u ns launches=%3d: %.4f ms (host loop %.1f us)\n", c.blocks, c.threads,
                c.spin_ns, c.launches, e.median, h.median);
  }
  RUNNER_CUDA_CHECK(cudaFree(d_first));
  RUNNER_CUDA_CHECK(cudaFree(d_last));
  runs.flush();
  launches.flush();
  if (!runs || !launches) fatal("error while writing " + runs_path + " or " + launches_path);
  return kExitOk;
}

}  // namespace runner

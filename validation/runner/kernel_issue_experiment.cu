// `kernel-issue` subcommand: how fast the GPU starts kernels from a CUDA graph and from C streams -> CSVs.
//
// Why: the n x SSSP runs launch many short kernels, replayed as a CUDA graph or launched on C = 1..32
// streams. Their measured times suggest a graph's kernel-to-kernel gap shorter than a stream's
// (placement/b2b132x5: 1.6 us) and a device-wide limit on kernel starts when many streams launch at
// once, neither measured on its own. Per configuration (mode stream|graph, C streams, M launches per
// stream of a 1 x 32 kernel spinning spin_ns) this runs the launches once untimed, then `reps` times
// with per-launch stamps (earliest block start, latest block end, %globaltimer); graph mode captures
// the same launches (fork/join with events) once and replays the instantiated graph. Writes
// DIR/runs.csv (CUDA-event time of the whole run) and DIR/launches.csv (the last repetition's stamps).
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "device_probes.h"
#include "runner_common.h"

namespace {

const char* const kHelp =
    "Usage: gpusched-runner kernel-issue --out-dir DIR [--device N] [--reps N (default 10)]\n"
    "\n"
    "C = 1, 2, 4, 8, 16, 32 streams x M = 32 launches per stream of a 1 x 32-thread kernel spinning\n"
    "0 or 3000 ns, launched directly (stream) and as a replayed CUDA graph (graph). Writes DIR/runs.csv\n"
    "(CUDA-event time per run: median/min/max of reps) and DIR/launches.csv (the last repetition: per\n"
    "launch its stream, index, earliest block start and latest block end, ns after the first start).\n";

constexpr int kPerStream = 32;

__global__ void issue_stamp_kernel(unsigned spin_ns, unsigned long long* first_start, unsigned long long* last_end) {
  const unsigned long long t0 = runner::read_globaltimer();
  while (runner::read_globaltimer() - t0 < spin_ns) __nanosleep(64);
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicMin(first_start, t0);
    atomicMax(last_end, runner::read_globaltimer());
  }
}

struct Setup {
  std::vector<cudaStream_t> streams;
  std::vector<cudaEvent_t> fork;  // graph capture: stream 0 forks to and joins the others
  unsigned long long *first = nullptr, *last = nullptr;
};

// Launch i of stream s uses slot s * kPerStream + i.
void launch_all(const Setup& s, int c, unsigned spin) {
  for (int i = 0; i < kPerStream; ++i)
    for (int k = 0; k < c; ++k) {
      const int slot = k * kPerStream + i;
      issue_stamp_kernel<<<1, 32, 0, s.streams[k]>>>(spin, s.first + slot, s.last + slot);
    }
}

float timed(const Setup& s, int c, unsigned spin, cudaGraphExec_t exec) {
  const size_t slots = static_cast<size_t>(c) * kPerStream;
  RUNNER_CUDA_CHECK(cudaMemset(s.first, 0xff, sizeof(unsigned long long) * slots));
  RUNNER_CUDA_CHECK(cudaMemset(s.last, 0, sizeof(unsigned long long) * slots));
  RUNNER_CUDA_CHECK(cudaDeviceSynchronize());
  cudaEvent_t a, b;
  RUNNER_CUDA_CHECK(cudaEventCreate(&a));
  RUNNER_CUDA_CHECK(cudaEventCreate(&b));
  RUNNER_CUDA_CHECK(cudaEventRecord(a, s.streams[0]));
  if (exec != nullptr) {
    RUNNER_CUDA_CHECK(cudaGraphLaunch(exec, s.streams[0]));
  } else {
    for (int k = 1; k < c; ++k) RUNNER_CUDA_CHECK(cudaStreamWaitEvent(s.streams[k], a, 0));
    launch_all(s, c, spin);
    for (int k = 1; k < c; ++k) {
      RUNNER_CUDA_CHECK(cudaEventRecord(s.fork[k], s.streams[k]));
      RUNNER_CUDA_CHECK(cudaStreamWaitEvent(s.streams[0], s.fork[k], 0));
    }
  }
  RUNNER_CUDA_CHECK(cudaGetLastError());
  RUNNER_CUDA_CHECK(cudaEventRecord(b, s.streams[0]));
  RUNNER_CUDA_CHECK(cudaEventSynchronize(b));
  float ms = 0;
  RUNNER_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
  RUNNER_CUDA_CHECK(cudaEventDestroy(a));
  RUNNER_CUDA_CHECK(cudaEventDestroy(b));
  return ms;
}

cudaGraphExec_t capture(const Setup& s, int c, unsigned spin) {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  RUNNER_CUDA_CHECK(cudaStreamBeginCapture(s.streams[0], cudaStreamCaptureModeGlobal));
  RUNNER_CUDA_CHECK(cudaEventRecord(s.fork[0], s.streams[0]));
  for (int k = 1; k < c; ++k) RUNNER_CUDA_CHECK(cudaStreamWaitEvent(s.streams[k], s.fork[0], 0));
  launch_all(s, c, spin);
  for (int k = 1; k < c; ++k) {
    RUNNER_CUDA_CHECK(cudaEventRecord(s.fork[k], s.streams[k]));
    RUNNER_CUDA_CHECK(cudaStreamWaitEvent(s.streams[0], s.fork[k], 0));
  }
  RUNNER_CUDA_CHECK(cudaStreamEndCapture(s.streams[0], &graph));
  RUNNER_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  RUNNER_CUDA_CHECK(cudaGraphDestroy(graph));
  return exec;
}

}  // namespace

namespace runner {

int kernel_issue_main(int argc, char** argv) {
  CommonOptions options;
  if (!parse_common_options("kernel-issue", kHelp, argc, argv, &options)) return kExitOk;
  const cudaDeviceProp prop = select_device(options.device);
  const std::vector<int> stream_counts{1, 2, 4, 8, 16, 32};
  Setup s;
  s.streams.resize(32);
  s.fork.resize(32);
  for (int k = 0; k < 32; ++k) {
    RUNNER_CUDA_CHECK(cudaStreamCreateWithFlags(&s.streams[k], cudaStreamNonBlocking));
    RUNNER_CUDA_CHECK(cudaEventCreateWithFlags(&s.fork[k], cudaEventDisableTiming));
  }
  RUNNER_CUDA_CHECK(cudaMalloc(&s.first, sizeof(unsigned long long) * 32 * kPerStream));
  RUNNER_CUDA_CHECK(cudaMalloc(&s.last, sizeof(unsigned long long) * 32 * kPerStream));

  const std::string runs_path = options.out_dir + "/runs.csv", launches_path = options.out_dir + "/launches.csv";
  std::ofstream runs(runs_path), launches(launches_path);
  if (!runs || !launches) fatal("cannot write " + runs_path + " or " + launches_path);
  MetaWriter meta(runs);
  meta.put("experiment", "kernel_issue");
  write_device_metadata(meta, options.device, prop);
  meta.put("timing", "cudaEventRecord(a) on stream 0; the other streams wait on a; M launches per stream issued "
                     "round-robin over the streams (stream) or one cudaGraphLaunch of the same launches captured "
                     "with fork/join events (graph); joins; cudaEventRecord(b); 1 untimed run first");
  meta.put("kernel", "1 block x 32 threads spinning spin_ns on %globaltimer (__nanosleep 64), thread 0 "
                     "atomicMin(start)/atomicMax(end) of its launch");
  runs << "mode,streams,launches_per_stream,spin_ns,reps,median_ms,min_ms,max_ms\n";
  MetaWriter lmeta(launches);
  lmeta.put("experiment", "kernel_issue");
  lmeta.put("note", "the last repetition; ns relative to the run's earliest block start");
  launches << "mode,streams,spin_ns,stream,index,start_ns,end_ns\n";
  for (const char* mode : {"stream", "graph"})
    for (unsigned spin : {0u, 3000u})
      for (int c : stream_counts) {
        const bool graph = std::string(mode) == "graph";
        cudaGraphExec_t exec = graph ? capture(s, c, spin) : nullptr;
        timed(s, c, spin, exec);
        std::vector<float> ms;
        for (int r = 0; r < options.reps; ++r) ms.push_back(timed(s, c, spin, exec));
        const Stats st = stats_of(ms);
        runs << mode << ',' << c << ',' << kPerStream << ',' << spin << ',' << options.reps << ',' << fmt(st.median)
             << ',' << fmt(st.min) << ',' << fmt(st.max) << '\n';
        const size_t slots = static_cast<size_t>(c) * kPerStream;
        std::vector<unsigned long long> first(slots), last(slots);
        RUNNER_CUDA_CHECK(cudaMemcpy(first.data(), s.first, sizeof(unsigned long long) * slots, cudaMemcpyDeviceToHost));
        RUNNER_CUDA_CHECK(cudaMemcpy(last.data(), s.last, sizeof(unsigned long long) * slots, cudaMemcpyDeviceToHost));
        const unsigned long long origin = *std::min_element(first.begin(), first.end());
        for (size_t i = 0; i < slots; ++i) {
          if (first[i] == ~0ULL || last[i] < first[i]) fatal("kernel-issue: a launch left no stamps");
          launches << mode << ',' << c << ',' << spin << ',' << i / kPerStream << ',' << i % kPerStream << ','
                   << first[i] - origin << ',' << last[i] - origin << '\n';
        }
        if (exec != nullptr) RUNNER_CUDA_CHECK(cudaGraphExecDestroy(exec));
        std::printf("kernel-issue %-6s C=%2d spin=%4u ns: %.4f ms for %d launches (%.3f us per launch)\n", mode, c, spin,
                    st.median, c * kPerStream, st.median * 1000.0 / (c * kPerStream));
      }
  for (int k = 0; k < 32; ++k) {
    RUNNER_CUDA_CHECK(cudaStreamDestroy(s.streams[k]));
    RUNNER_CUDA_CHECK(cudaEventDestroy(s.fork[k]));
  }
  RUNNER_CUDA_CHECK(cudaFree(s.first));
  RUNNER_CUDA_CHECK(cudaFree(s.last));
  runs.flush();
  launches.flush();
  if (!runs || !launches) fatal("error while writing " + runs_path + " or " + launches_path);
  return kExitOk;
}

}  // namespace runner

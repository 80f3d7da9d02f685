// Pending-launch limit: how many launches a stream accepts before cudaLaunchKernel / cudaGraphLaunch blocks the host thread, and what an unblocked call costs.
//
// Build and run (CUDA toolkit only):
//   nvcc -O3 -std=c++17 -arch=sm_90 -o launch_queue_depth launch_queue_depth.cu && ./launch_queue_depth [reps] [calls.csv]
// A "gate" kernel (one thread) spins on a flag in mapped host memory, so nothing queued behind it
// on its stream can start. The host then launches tiny kernels (or graphs) on that stream one at a
// time, timing each call with std::chrono, until a call blocks (takes over kBlockMs). A watcher
// thread opens the gate once the launching thread has made no progress for kStallMs, which ends
// the blocked call. accepted = the launches that returned before the blocking one (the gate not
// counted). Cases: 1 stream with kernel parameters of 0 to 16384 bytes; 2, 4, 8 and 16 streams (a
// gate on each, launches round-robin); graphs of 1, 10 and 100 tiny kernels. Then the host cost of
// calls on a flowing stream (no gate). Prints CSV (metadata on '#' lines) to stdout; with a second
// argument it also writes every call's host time of the first repetition to that file.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "cuda_check.h"

using Clock = std::chrono::steady_clock;

constexpr double kBlockMs = 10.0;             // a launch call this long waited for the queue
constexpr int kStallMs = 100;                 // the watcher opens the gate after this long without progress
constexpr long kMaxLaunches = 1L << 18;       // give up (no block seen) after this many launches
constexpr int kMaxStreams = 16;
constexpr unsigned long long kGateTimeoutNs = 20ull * 1000 * 1000 * 1000;  // the gate's own safety exit

__device__ __forceinline__ unsigned long long globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Spins until *flag != 0 (written by the host through mapped memory) or the safety timeout.
__global__ void gate(const volatile int* flag, int* timed_out) {
  const unsigned long long t0 = globaltimer();
  while (*flag == 0) {
    if (globaltimer() - t0 > kGateTimeoutNs) {
      *timed_out = 1;
      return;
    }
    __nanosleep(2000);
  }
}

template <int Bytes>
struct Payload {
  char b[Bytes];
};

__global__ void tiny0() {}
template <int Bytes>
__global__ void tiny_args(Payload<Bytes> p) {
  if (p.b[0] == 127 && threadIdx.x == 1024) asm volatile("trap;");  // never true; keeps p live
}

struct Watch {
  std::atomic<long> progress{0};
  std::atomic<bool> stop{false};
  std::atomic<bool> fired{false};
  volatile int* flag = nullptr;
};

void watcher(Watch* w) {
  long last = -1;
  auto since = Clock::now();
  while (!w->stop.load()) {
    std::this_thread::sleep_for(std::chrono::microseconds(500));
    const long p = w->progress.load();
    const auto now = Clock::now();
    if (p != last) {
      last = p;
      since = now;
    } else if (!w->fired.load() &&
               std::chrono::duration<double, std::milli>(now - since).count() > kStallMs) {
      *w->flag = 1;
      std::atomic_thread_fence(std::memory_order_seq_cst);
      w->fired = true;
    }
  }
}

struct Result {
  long accepted = -1;        // launches returned before the blocking call (-1: none blocked)
  double blocked_ms = 0;     // host time of the blocking call
  double median_us = 0, p10_us = 0, p90_us = 0, max_unblocked_us = 0;
  long per_stream[kMaxStreams] = {};
  bool watcher_fired = false, gate_timed_out = false;
  std::vector<double> calls_us;  // every call, the blocking one included
};

double pct(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(q * (v.size() - 1) + 0.5)];
}

// launch(i) makes launch call i (on stream i % nstreams); returns its host time in us.
template <typename F>
Result trial(int nstreams, cudaStream_t* streams, volatile int* hflag, int* dflag, int* dtimeout,
             F launch) {
  Result r;
  *hflag = 0;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  CHECK(cudaMemset(dtimeout, 0, sizeof(int)));
  CHECK(cudaDeviceSynchronize());
  for (int s = 0; s < nstreams; ++s) {
    gate<<<1, 1, 0, streams[s]>>>(dflag, dtimeout);
    CHECK(cudaGetLastError());
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(2));  // let the gates start
  Watch w;
  w.flag = hflag;
  std::thread th(watcher, &w);
  for (long i = 0; i < kMaxLaunches; ++i) {
    const auto t0 = Clock::now();
    const cudaError_t e = launch(i);
    const auto t1 = Clock::now();
    if (e != cudaSuccess) {
      std::fprintf(stderr, "launch %ld failed: %s\n", i, cudaGetErrorString(e));
      std::exit(1);
    }
    const double us = std::chrono::duration<double, std::micro>(t1 - t0).count();
    r.calls_us.push_back(us);
    w.progress.fetch_add(1);
    if (us > kBlockMs * 1000) {
      r.accepted = i;
      r.blocked_ms = us / 1000;
      break;
    }
    r.per_stream[i % nstreams]++;
  }
  *hflag = 1;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  w.stop = true;
  th.join();
  r.watcher_fired = w.fired.load();
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaGetLastError());
  int to = 0;
  CHECK(cudaMemcpy(&to, dtimeout, sizeof(int), cudaMemcpyDeviceToHost));
  r.gate_timed_out = to != 0;
  std::vector<double> ok(r.calls_us.begin(),
                         r.calls_us.end() - (r.accepted >= 0 ? 1 : 0));
  r.median_us = pct(ok, 0.5);
  r.p10_us = pct(ok, 0.1);
  r.p90_us = pct(ok, 0.9);
  r.max_unblocked_us = ok.empty() ? 0 : *std::max_element(ok.begin(), ok.end());
  return r;
}

std::string driver_line() {
  // "NVRM version: NVIDIA UNIX [Open Kernel Module for] x86_64  580.159.04  Release Build ...":
  // the first word of the form digits.digits[.digits].
  std::ifstream f("/proc/driver/nvidia/version");
  std::string word;
  while (f >> word) {
    const size_t dot = word.find('.');
    if (dot != std::string::npos && dot > 0 && word.find_first_not_of("0123456789.") == std::string::npos)
      return word;
  }
  return "unknown";
}

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 3;
  FILE* calls = argc > 2 ? std::fopen(argv[2], "w") : nullptr;

  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int drv = 0, rt = 0;
  CHECK(cudaDriverGetVersion(&drv));
  CHECK(cudaRuntimeGetVersion(&rt));
  char date[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  const char* cdm = std::getenv("CUDA_DEVICE_MAX_CONNECTIONS");
  char meta[1024];
  std::snprintf(meta, sizeof meta,
                "# device=%s\n# sm_count=%d\n# driver=%s\n# cuda_driver_api=%d\n# cuda_runtime=%d\n"
                "# date=%s\n# CUDA_DEVICE_MAX_CONNECTIONS=%s\n# block_threshold_ms=%.1f\n"
                "# watcher_stall_ms=%d\n# max_launches=%ld\n",
                prop.name, prop.multiProcessorCount, driver_line().c_str(), drv, rt, date,
                cdm ? cdm : "unset", kBlockMs, kStallMs, kMaxLaunches);
  std::fputs(meta, stdout);
  if (calls) {
    std::fputs(meta, calls);
    std::fputs("case,rep,call,host_us\n", calls);
  }
  std::puts("case,kind,streams,arg_bytes,graph_nodes,rep,accepted,accepted_stream_min,accepted_stream_max,"
            "blocked_call_ms,median_call_us,p10_call_us,p90_call_us,max_unblocked_call_us,"
            "watcher_fired,gate_timed_out");

  int* hflag_raw = nullptr;
  CHECK(cudaHostAlloc(&hflag_raw, sizeof(int), cudaHostAllocMapped));
  volatile int* hflag = hflag_raw;
  int* dflag = nullptr;
  CHECK(cudaHostGetDevicePointer(&dflag, hflag_raw, 0));
  int* dtimeout = nullptr;
  CHECK(cudaMalloc(&dtimeout, sizeof(int)));
  cudaStream_t st[kMaxStreams];
  for (auto& s : st) CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  static Payload<16384> payload{};  // the first Bytes of it are each launch's parameter
  void* args[] = {&payload};
  const dim3 grid(1), block(32);
  auto launch_args = [&](int bytes, cudaStream_t s) {
    switch (bytes) {
      case 256: return cudaLaunchKernel((const void*)tiny_args<256>, grid, block, args, 0, s);
      case 1024: return cudaLaunchKernel((const void*)tiny_args<1024>, grid, block, args, 0, s);
      case 2048: return cudaLaunchKernel((const void*)tiny_args<2048>, grid, block, args, 0, s);
      case 3072: return cudaLaunchKernel((const void*)tiny_args<3072>, grid, block, args, 0, s);
      case 4000: return cudaLaunchKernel((const void*)tiny_args<4000>, grid, block, args, 0, s);
      case 8192: return cudaLaunchKernel((const void*)tiny_args<8192>, grid, block, args, 0, s);
      case 16384: return cudaLaunchKernel((const void*)tiny_args<16384>, grid, block, args, 0, s);
      default: return cudaLaunchKernel((const void*)tiny0, grid, block, nullptr, 0, s);
    }
  };
  const int arg_sizes[] = {0, 256, 1024, 2048, 3072, 4000, 8192, 16384};
  // Warm up: load the modules, touch each launch path.
  for (int b : arg_sizes) CHECK(launch_args(b, st[0]));
  *hflag = 1;
  gate<<<1, 1, 0, st[0]>>>(dflag, dtimeout);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  // Graphs of N tiny kernels, captured on a side stream.
  const int graph_sizes[] = {1, 10, 100};
  cudaGraphExec_t execs[3];
  {
    cudaStream_t cap;
    CHECK(cudaStreamCreateWithFlags(&cap, cudaStreamNonBlocking));
    for (int g = 0; g < 3; ++g) {
      cudaGraph_t graph;
      CHECK(cudaStreamBeginCapture(cap, cudaStreamCaptureModeThreadLocal));
      for (int k = 0; k < graph_sizes[g]; ++k) tiny0<<<1, 32, 0, cap>>>();
      CHECK(cudaStreamEndCapture(cap, &graph));
      CHECK(cudaGraphInstantiate(&execs[g], graph, 0));
      CHECK(cudaGraphDestroy(graph));
      CHECK(cudaGraphUpload(execs[g], st[0]));
      CHECK(cudaGraphLaunch(execs[g], st[0]));
    }
    CHECK(cudaStreamSynchronize(st[0]));
    CHECK(cudaStreamDestroy(cap));
  }

  struct Case {
    const char* name;
    const char* kind;
    int streams, arg_bytes, nodes;
  };
  std::vector<Case> cases = {{"kernel_1stream", "kernel", 1, 0, 0}};
  static const char* arg_names[] = {"", "kernel_1stream_args256", "kernel_1stream_args1024", "kernel_1stream_args2048",
                                    "kernel_1stream_args3072", "kernel_1stream_args4000", "kernel_1stream_args8192",
                                    "kernel_1stream_args16384"};
  for (int a = 1; a < 8; ++a) cases.push_back({arg_names[a], "kernel", 1, arg_sizes[a], 0});
  cases.push_back({"kernel_2streams", "kernel", 2, 0, 0});
  cases.push_back({"kernel_4streams", "kernel", 4, 0, 0});
  cases.push_back({"kernel_8streams", "kernel", 8, 0, 0});
  cases.push_back({"kernel_16streams", "kernel", 16, 0, 0});
  cases.push_back({"graph1", "graph", 1, 0, 1});
  cases.push_back({"graph10", "graph", 1, 0, 10});
  cases.push_back({"graph100", "graph", 1, 0, 100});
  for (int rep = 0; rep < reps; ++rep) {
    for (const Case& c : cases) {
      Result r;
      if (std::string(c.kind) == "kernel") {
        r = trial(c.streams, st, hflag, dflag, dtimeout,
                  [&](long i) { return launch_args(c.arg_bytes, st[i % c.streams]); });
      } else {
        const int g = c.nodes == 1 ? 0 : c.nodes == 10 ? 1 : 2;
        r = trial(1, st, hflag, dflag, dtimeout, [&](long) { return cudaGraphLaunch(execs[g], st[0]); });
      }
      const long smin = *std::min_element(r.per_stream, r.per_stream + c.streams);
      const long smax = *std::max_element(r.per_stream, r.per_stream + c.streams);
      std::printf("%s,%s,%d,%d,%d,%d,%ld,%ld,%ld,%.3f,%.3f,%.3f,%.3f,%.3f,%d,%d\n", c.name, c.kind, c.streams,
                  c.arg_bytes, c.nodes, rep, r.accepted, smin, smax, r.blocked_ms,
                  r.median_us, r.p10_us, r.p90_us, r.max_unblocked_us, r.watcher_fired ? 1 : 0,
                  r.gate_timed_out ? 1 : 0);
      std::fflush(stdout);
      if (calls && rep == 0)
        for (size_t i = 0; i < r.calls_us.size(); ++i) std::fprintf(calls, "%s,%d,%zu,%.3f\n", c.name, rep, i, r.calls_us[i]);
    }
  }
  // Unblocked cost on an idle, flowing stream: N back-to-back calls with no gate (the GPU runs
  // them as they come); the median per call of 2000 calls, repeated.
  for (int rep = 0; rep < reps; ++rep) {
    for (int kind = 0; kind < 2; ++kind) {
      std::vector<double> us;
      for (int i = 0; i < 2000; ++i) {
        const auto t0 = Clock::now();
        const cudaError_t e = kind == 0 ? cudaLaunchKernel((const void*)tiny0, grid, block, nullptr, 0, st[0])
                                        : cudaGraphLaunch(execs[0], st[0]);
        const auto t1 = Clock::now();
        CHECK(e);
        us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
      }
      CHECK(cudaStreamSynchronize(st[0]));
      std::printf("%s,%s,1,0,%d,%d,,,,,%.3f,%.3f,%.3f,%.3f,,\n", kind == 0 ? "flowing_kernel" : "flowing_graph1",
                  kind == 0 ? "kernel" : "graph", kind == 0 ? 0 : 1, rep, pct(us, 0.5), pct(us, 0.1), pct(us, 0.9),
                  *std::max_element(us.begin(), us.end()));
    }
  }
  std::fflush(stdout);
  for (auto& e : execs) CHECK(cudaGraphExecDestroy(e));
  for (auto& s : st) CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(dtimeout));
  CHECK(cudaFreeHost(hflag_raw));
  if (calls) std::fclose(calls);
  return 0;
}

// probe-example: two user kernels instrumented with gpusched/probe.cuh, each writing a block timeline CSV.
//
//   probe-example [--out DIR] [--launches L] [--n N] [--blocks B] [--warmup-ms MS]
//
// transpose.csv: a tiled matrix transpose (N x N floats, 32x8 threads, a 32x33 shared tile), L launches.
// varying_work.csv: B blocks of 256 threads, block b running 256 * (1 + (37 b) mod 16) rounds of an
// integer hash per thread (blocks of 16 different lengths, several waves), L launches.
// varying_work_wave.csv: the same kernel with exactly one full wave of blocks (blocks per SM x SMs).
// Before the recorded launches of each kernel, unrecorded launches of it run for --warmup-ms
// (default 300): an idle GPU runs at a low clock and ramps up over the first milliseconds, which
// would make the recorded blocks and the dispatch between them slower than the GPU's preset.
// Each file is replayed with the command on its "# replay=" line, or all with
// `gpusched validate --timelines DIR` (docs/own-kernels.md). Both results are checked on the CPU.
// Exit status: 0 ok, 1 CUDA failure or wrong result, 2 usage error.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpusched/probe.cuh"

namespace {

constexpr int kTile = 32;
constexpr int kRows = 8;
constexpr int kWorkThreads = 256;

__global__ void transpose(float* out, const float* in, int n, gpusched::probe::Slot probe) {
  GPUSCHED_PROBE_BEGIN(probe);
  __shared__ float tile[kTile][kTile + 1];
  const int x = blockIdx.x * kTile + threadIdx.x;
  const int y0 = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows)
    if (x < n && y0 + j < n) tile[threadIdx.y + j][threadIdx.x] = in[static_cast<size_t>(y0 + j) * n + x];
  __syncthreads();
  const int tx = blockIdx.y * kTile + threadIdx.x;
  const int ty0 = blockIdx.x * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows)
    if (tx < n && ty0 + j < n) out[static_cast<size_t>(ty0 + j) * n + tx] = tile[threadIdx.x][threadIdx.y + j];
  GPUSCHED_PROBE_END(probe);
}

__host__ __device__ unsigned rounds_of(unsigned block) { return 256u * (1u + (37u * block) % 16u); }

__host__ __device__ unsigned hash_rounds(unsigned x, unsigned rounds) {
  for (unsigned r = 0; r < rounds; ++r) {
    x = x * 1664525u + 1013904223u;
    x ^= x >> 13;
  }
  return x;
}

__global__ void varying_work(unsigned* out, gpusched::probe::Slot probe) {
  GPUSCHED_PROBE_BEGIN(probe);
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = hash_rounds(i, rounds_of(blockIdx.x));
  GPUSCHED_PROBE_END(probe);
}

void cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "probe-example: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

[[noreturn]] void usage(const std::string& problem) {
  std::fprintf(stderr, "probe-example: %s\nUsage: probe-example [--out DIR] [--launches L] [--n N] [--blocks B] [--warmup-ms MS]\n",
               problem.c_str());
  std::exit(2);
}

struct Options {
  std::string out = ".";
  int launches = 3;
  int n = 2048;
  int blocks = 2048;
  int warmup_ms = 300;
};

int integer(const std::string& flag, const char* text, int lo, int hi) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || v < lo || v > hi)
    usage(flag + ": expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got '" + text + "'");
  return static_cast<int>(v);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::printf("Usage: probe-example [--out DIR] [--launches L] [--n N] [--blocks B] [--warmup-ms MS]\n"
                  "Writes DIR/transpose.csv, DIR/varying_work.csv and DIR/varying_work_wave.csv (block timelines,\n"
                  "gpusched/probe.cuh).\n"
                  "  --out DIR      output directory, must exist (default .)\n"
                  "  --launches L   launches of each kernel, 1..100 (default 3)\n"
                  "  --n N          transpose size N x N, 32..16384 (default 2048)\n"
                  "  --blocks B     blocks of varying_work, 1..65536 (default 2048)\n"
                  "  --warmup-ms MS unrecorded launches of each kernel first, for MS ms, 0..10000 (default 300)\n");
      std::exit(0);
    }
    if (i + 1 >= argc) usage(a == "--out" || a == "--launches" || a == "--n" || a == "--blocks" || a == "--warmup-ms"
                                 ? a + " needs a value" : "unknown option '" + a + "'");
    const char* v = argv[++i];
    if (a == "--out") o.out = v;
    else if (a == "--launches") o.launches = integer(a, v, 1, 100);
    else if (a == "--n") o.n = integer(a, v, 32, 16384);
    else if (a == "--blocks") o.blocks = integer(a, v, 1, 65536);
    else if (a == "--warmup-ms") o.warmup_ms = integer(a, v, 0, 10000);
    else usage("unknown option '" + a + "'");
  }
  return o;
}

/// Launches of one kernel, unrecorded (an empty slot), until `ms` milliseconds have passed: the
/// GPU's clock ramps up from idle during them.
template <class Launch>
void warm_up(int ms, Launch launch) {
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(ms)) {
    for (int k = 0; k < 10; ++k) launch();
    cuda(cudaDeviceSynchronize(), "warm-up");
  }
}

/// Event-timed launches of one kernel, back to back on the default stream; returns ms.
template <class Launch>
float timed(int launches, Launch launch) {
  cudaEvent_t a, b;
  cuda(cudaEventCreate(&a), "cudaEventCreate");
  cuda(cudaEventCreate(&b), "cudaEventCreate");
  cuda(cudaEventRecord(a), "cudaEventRecord");
  for (int l = 0; l < launches; ++l) launch();
  cuda(cudaGetLastError(), "kernel launch");
  cuda(cudaEventRecord(b), "cudaEventRecord");
  cuda(cudaEventSynchronize(b), "cudaEventSynchronize");
  float ms = 0;
  cuda(cudaEventElapsedTime(&ms, a, b), "cudaEventElapsedTime");
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return ms;
}

int run_transpose(const Options& o) {
  const int n = o.n;
  const size_t count = static_cast<size_t>(n) * n;
  std::vector<float> host(count);
  for (size_t i = 0; i < count; ++i) host[i] = static_cast<float>(i % 65521);
  float *in = nullptr, *out = nullptr;
  cuda(cudaMalloc(&in, count * sizeof(float)), "cudaMalloc");
  cuda(cudaMalloc(&out, count * sizeof(float)), "cudaMalloc");
  cuda(cudaMemcpy(in, host.data(), count * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
  const dim3 grid((n + kTile - 1) / kTile, (n + kTile - 1) / kTile), block(kTile, kRows);
  gpusched::probe::Recorder rec(grid, block, static_cast<unsigned>(o.launches));
  warm_up(o.warmup_ms, [&] { transpose<<<grid, block>>>(out, in, n, gpusched::probe::Slot{nullptr, 0}); });
  const float ms = timed(o.launches, [&] { transpose<<<grid, block>>>(out, in, n, rec.launch(transpose, "transpose")); });
  const std::string path = o.out + "/transpose.csv";
  rec.write_csv(path);
  std::vector<float> back(count);
  cuda(cudaMemcpy(back.data(), out, count * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
  int wrong = 0;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) wrong += back[static_cast<size_t>(x) * n + y] != host[static_cast<size_t>(y) * n + x];
  cudaFree(in);
  cudaFree(out);
  std::printf("transpose: %dx%d, %u blocks x %d launches in %.3f ms (events); check %s; wrote %s\n", n, n,
              grid.x * grid.y, o.launches, ms, wrong ? "FAILED" : "ok", path.c_str());
  return wrong ? 1 : 0;
}

/// varying_work with `blocks` blocks into DIR/`file`.
int run_varying_work(const Options& o, int blocks, const std::string& file) {
  const size_t threads = static_cast<size_t>(blocks) * kWorkThreads;
  unsigned* out = nullptr;
  cuda(cudaMalloc(&out, threads * sizeof(unsigned)), "cudaMalloc");
  const dim3 grid(blocks), block(kWorkThreads);
  gpusched::probe::Recorder rec(grid, block, static_cast<unsigned>(o.launches));
  warm_up(o.warmup_ms, [&] { varying_work<<<grid, block>>>(out, gpusched::probe::Slot{nullptr, 0}); });
  const float ms = timed(o.launches, [&] { varying_work<<<grid, block>>>(out, rec.launch(varying_work, "varying_work")); });
  const std::string path = o.out + "/" + file;
  rec.write_csv(path);
  std::vector<unsigned> back(threads);
  cuda(cudaMemcpy(back.data(), out, threads * sizeof(unsigned), cudaMemcpyDeviceToHost), "cudaMemcpy");
  int wrong = 0;
  for (size_t i = 0; i < threads; ++i)
    wrong += back[i] != hash_rounds(static_cast<unsigned>(i), rounds_of(static_cast<unsigned>(i / kWorkThreads)));
  cudaFree(out);
  std::printf("varying_work: %d blocks x %d launches in %.3f ms (events); check %s; wrote %s\n", blocks, o.launches,
              ms, wrong ? "FAILED" : "ok", path.c_str());
  return wrong ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  try {
    int per_sm = 0, device = 0, sms = 0;
    cuda(cudaGetDevice(&device), "cudaGetDevice");
    cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
    cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, varying_work, kWorkThreads, 0),
         "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    const int failures = run_transpose(o) + run_varying_work(o, o.blocks, "varying_work.csv") +
                         run_varying_work(o, per_sm * sms, "varying_work_wave.csv");
    return failures ? 1 : 0;
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "probe-example: %s\n", e.what());
    return 1;
  }
}

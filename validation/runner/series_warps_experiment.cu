// `series-warps` subcommand: the series kernel with one record per warp (SM, warp slot, times) -> CSVs.
//
// Why: at equal warps per SM the H100 runs the series kernel up to 16% faster with larger
// blocks (curves/binomial.csv: 4224 x 32 threads 90 us, 132 x 1024 threads 77.5 us). This
// experiment records, for every warp, the SM (%smid), the hardware warp slot (%warpid; slot
// mod 4 is the SM sub-partition whose scheduler issues the warp), %globaltimer and clock64 at
// entry and after its last store, so the cause (block placement over SMs, warp placement over
// sub-partitions, or per-warp speed) can be read from the data. For each configuration it
// writes DIR/warps_b<B>_t<T>.csv and a row of DIR/runs.csv (plain and instrumented whole-run
// medians). Results are checked against the CPU (exit 1 on a mismatch).
//
// The knee warp by warp: on the whole GPU it also runs every block size at 1..8 warps per
// scheduler in one wave (blocks = SMs x m), and one block per SM of 3..28 warps; inside a green
// context (`--green-sms K`) it runs the whole-GPU grids of the series curve that miss most at
// small K, so the per-warp records show how K SMs work through many small blocks.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "curves.h"
#include "device_probes.h"
#include "green_context.h"
#include "runner_common.h"

namespace {

constexpr int kTerms = 1000;

const char* const kHelp =
    "Usage: gpusched-runner series-warps --out-dir DIR [--device N] [--reps N]\n"
    "\n"
    "The compute-bound series kernel (curves/binomial.csv's, K = 1000 terms) at 32 and 64\n"
    "warps per SM with block sizes 32..1024, every block size at 1..8 warps per scheduler in\n"
    "one wave, and one block per SM of 3..28 warps; with --green-sms K, the series curve's\n"
    "grids of up to 2112 warps instead. Lane 0 of every warp records %smid, %warpid,\n"
    "%globaltimer and clock64 at entry and after its store.\n"
    "Writes DIR/runs.csv and DIR/warps_b<BLOCKS>_t<THREADS>.csv.\n";

struct WarpRecord {
  unsigned long long start_ns, end_ns;
  long long start_clk, end_clk;
  unsigned int smid, warp_slot;
};

__device__ __forceinline__ unsigned int read_warpid() {
  unsigned int w;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
  return w;
}

__global__ void series_warps_kernel(int terms, float a, float* out, WarpRecord* rec) {
  const long long gid = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned long long t0 = runner::read_globaltimer();
  const long long c0 = clock64();
  // The timer feeds the computation, so the loop cannot be scheduled before it.
  const float a_used = t0 == ~0ULL ? a + 1.0f : a;
  const float x = curves::series_x(gid);
  float term = 1.0f, sum = 1.0f;
  for (int i = 1; i < terms; ++i) {
    term *= (a_used - static_cast<float>(i - 1)) / static_cast<float>(i) * x;
    sum += term;
  }
  out[gid] = sum;
  if ((threadIdx.x & 31) == 0) {
    __threadfence_block();
    const long long c1 = clock64();
    const unsigned long long t1 = runner::read_globaltimer();
    const long long warp = gid / 32;
    rec[warp] = WarpRecord{t0, t1, c0, c1, runner::read_smid(), read_warpid()};
  }
}

__global__ void series_plain_kernel(int terms, float a, float* out) {
  const long long gid = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const float x = curves::series_x(gid);
  float term = 1.0f, sum = 1.0f;
  for (int i = 1; i < terms; ++i) {
    term *= (a - static_cast<float>(i - 1)) / static_cast<float>(i) * x;
    sum += term;
  }
  out[gid] = sum;
}

struct Config {
  int blocks, threads;
};

// The whole GPU: 32 and 64 warps per SM at every block size, latency-bound sizes, every block
// size at m = 1..(1024 / threads) blocks per SM (1..8 warps per scheduler, one wave), and one
// block per SM of 3, 12, 20, 24 and 28 warps. Sorted by threads, then blocks; no duplicates.
std::vector<Config> whole_gpu_configs(int sms) {
  std::vector<Config> c;
  for (int warps_per_sm : {32, 64})
    for (int threads = 32; threads <= 1024; threads *= 2)
      c.push_back({sms * warps_per_sm * 32 / threads, threads});
  for (int threads : {32, 256, 1024}) c.push_back({sms * 4, threads});
  for (int threads = 32; threads <= 1024; threads *= 2)
    for (int m = 1; m <= 1024 / threads; ++m) c.push_back({sms * m, threads});
  for (int threads : {96, 384, 640, 768, 896}) c.push_back({sms, threads});
  std::sort(c.begin(), c.end(), [](const Config& a, const Config& b) {
    return a.threads != b.threads ? a.threads < b.threads : a.blocks < b.blocks;
  });
  c.erase(std::unique(c.begin(), c.end(),
                      [](const Config& a, const Config& b) { return a.blocks == b.blocks && a.threads == b.threads; }),
          c.end());
  return c;
}

// Inside a green context: the series curve's grids (sized for the whole 132-SM GPU, as
// green/kK/binomial.csv runs them) of up to 2112 warps, plus 528 x 1024 threads as the
// large-block reference.
std::vector<Config> partition_configs() {
  std::vector<Config> c;
  for (int blocks : {132, 264, 396, 528, 660, 1056, 1320, 2112}) c.push_back({blocks, 32});
  for (int blocks : {132, 264, 396, 528, 660}) c.push_back({blocks, 64});
  for (int blocks : {132, 264, 396}) c.push_back({blocks, 128});
  for (int blocks : {132, 264}) c.push_back({blocks, 256});
  for (int blocks : {132, 528}) c.push_back({blocks, 1024});
  return c;
}

float time_launch(bool instrumented, const Config& c, float* d_out, WarpRecord* d_rec) {
  runner::EventPair ev;
  RUNNER_CUDA_CHECK(cudaEventRecord(ev.start));
  if (instrumented)
    series_warps_kernel<<<c.blocks, c.threads>>>(kTerms, curves::kSeriesA, d_out, d_rec);
  else
    series_plain_kernel<<<c.blocks, c.threads>>>(kTerms, curves::kSeriesA, d_out);
  RUNNER_CUDA_CHECK(cudaGetLastError());
  RUNNER_CUDA_CHECK(cudaEventRecord(ev.stop));
  return ev.elapsed_ms();
}

// Compares a sample of threads with (1 + x)^a; returns an empty string when all agree.
std::string check(const std::vector<float>& out) {
  for (size_t g = 0; g < out.size(); g += 97) {
    const double x = curves::series_x(static_cast<long long>(g));
    const double want = std::pow(1.0 + x, static_cast<double>(curves::kSeriesA));
    if (std::fabs(out[g] - want) > 1e-4 * std::max(1.0, std::fabs(want)))
      return "thread " + std::to_string(g) + ": " + std::to_string(out[g]) + " vs " + std::to_string(want);
  }
  return "";
}

}  // namespace

namespace runner {

int series_warps_main(int argc, char** argv) {
  CommonOptions options;
  if (!parse_common_options("series-warps", kHelp, argc, argv, &options)) return kExitOk;
  const std::string& out_dir = options.out_dir;
  const int device = options.device, reps = options.reps;
  const cudaDeviceProp prop = select_device(device);
  const int sms = prop.multiProcessorCount;
  const std::vector<Config> cases = requested_green_sms() > 0 ? partition_configs() : whole_gpu_configs(sms);
  long long max_threads = 0;
  for (const Config& c : cases) max_threads = std::max(max_threads, 1LL * c.blocks * c.threads);
  float* d_out = nullptr;
  WarpRecord* d_rec = nullptr;
  RUNNER_CUDA_CHECK(cudaMalloc(&d_out, sizeof(float) * max_threads));
  RUNNER_CUDA_CHECK(cudaMalloc(&d_rec, sizeof(WarpRecord) * (max_threads / 32)));

  std::ofstream runs(out_dir + "/runs.csv");
  if (!runs) fatal("cannot write " + out_dir + "/runs.csv");
  MetaWriter meta(runs);
  meta.put("experiment", "series_warps");
  write_device_metadata(meta, device, prop);
  meta.put("terms", kTerms);
  meta.put("timing", "CUDA events around one launch; 1 warm-up, median of reps, plain and instrumented alternating");
  runs << "blocks,threads,warps_per_sm,reps,plain_median_ms,plain_min_ms,plain_max_ms,instr_median_ms,checked\n";
  for (const Config& c : cases) {
    time_launch(false, c, d_out, d_rec);
    time_launch(true, c, d_out, d_rec);
    std::vector<float> plain, instr;
    for (int r = 0; r < reps; ++r) {
      plain.push_back(time_launch(false, c, d_out, d_rec));
      instr.push_back(time_launch(true, c, d_out, d_rec));
    }
    const long long threads = 1LL * c.blocks * c.threads;
    std::vector<float> out(static_cast<size_t>(threads));
    RUNNER_CUDA_CHECK(cudaMemcpy(out.data(), d_out, sizeof(float) * threads, cudaMemcpyDeviceToHost));
    const std::string bad = check(out);
    if (!bad.empty()) fatal("series-warps b=" + std::to_string(c.blocks) + " t=" + std::to_string(c.threads) + ": " + bad);
    std::vector<WarpRecord> rec(static_cast<size_t>(threads / 32));
    RUNNER_CUDA_CHECK(cudaMemcpy(rec.data(), d_rec, sizeof(WarpRecord) * rec.size(), cudaMemcpyDeviceToHost));
    const Stats p = stats_of(plain), q = stats_of(instr);
    runs << c.blocks << ',' << c.threads << ',' << threads / 32 / sms << ',' << reps << ','
         << fmt(p.median) << ',' << fmt(p.min) << ',' << fmt(p.max) << ',' << fmt(q.median) << ",1\n";
    const std::string name = out_dir + "/warps_b" + std::to_string(c.blocks) + "_t" + std::to_string(c.threads) + ".csv";
    std::ofstream w(name);
    if (!w) fatal("cannot write " + name);
    MetaWriter wm(w);
    wm.put("experiment", "series_warps");
    wm.put("blocks", c.blocks);
    wm.put("threads", c.threads);
    wm.put("note", "the last of the instrumented repetitions; times relative to the earliest warp start");
    unsigned long long t_min = ~0ULL;
    for (const WarpRecord& r : rec) t_min = std::min(t_min, r.start_ns);
    w << "block,warp,sm,warp_slot,start_ns,end_ns,cycles\n";
    const int warps_per_block = (c.threads + 31) / 32;
    for (size_t i = 0; i < rec.size(); ++i) {
      const WarpRecord& r = rec[i];
      w << i / warps_per_block << ',' << i % warps_per_block << ',' << r.smid << ',' << r.warp_slot << ','
        << r.start_ns - t_min << ',' << r.end_ns - t_min << ',' << r.end_clk - r.start_clk << '\n';
    }
    std::printf("series-warps b=%5d t=%4d: plain %.4f ms, instrumented %.4f ms\n", c.blocks, c.threads, p.median, q.median);
  }
  RUNNER_CUDA_CHECK(cudaFree(d_out));
  RUNNER_CUDA_CHECK(cudaFree(d_rec));
  return kExitOk;
}

}  // namespace runner

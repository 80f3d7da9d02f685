// `curves` subcommand: APSP min-plus / Floyd-Warshall and series-kernel run-time curves -> CSVs.
//
// Writes DIR/apsp_minplus.csv, DIR/apsp_fw.csv and DIR/binomial.csv. Every run is timed with CUDA
// events around all of its launches (1 warm-up run, then `reps` timed runs; median/min/max). APSP
// distance matrices are compared exactly with a CPU Floyd-Warshall for n <= 300 (min-plus) and
// n <= 256 (FW); series results are compared with (1 + x)^a on a sample of threads. Any failed
// check makes the run exit 1 after all CSVs are written.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "curves.h"
#include "runner_common.h"

namespace {

constexpr int kSeriesTerms = 1000;
constexpr double kLargeRepLimitS = 10.0;

using runner::fmt;
using runner::Stats;
using runner::stats_of;


void print_help() {
  std::printf(
      "Usage: %s curves --out-dir DIR [--quick] [--queued] [--only apsp|series] [--device N] [--reps N]\n"
      "\n"
      "Run-time curves for the APSP paper's kernels and a compute-bound series kernel:\n"
      "  DIR/apsp_minplus.csv  tiled min-plus APSP (Alg. 1/2), BS 8/16/32, n = 40..140, 1000, 2000\n"
      "                        (+4000 when a run is predicted and measured under 10 s)\n"
      "  DIR/apsp_fw.csv       global-memory Floyd-Warshall (Alg. 3/4), BS 16, n = 64..1000\n"
      "  DIR/binomial.csv      series kernel, threads 32..1024 x blocks 132..4224, K = 1000\n"
      "--reps N: timed runs per APSP size n <= 140, per FW size and per series point (default 10).\n"
      "--queued: APSP only, written as DIR/apsp_minplus_queued.csv and DIR/apsp_fw_queued.csv; a\n"
      "          one-block gate kernel (20 us + 5 us per launch) runs before the start event, so every\n"
      "          launch is queued before the timed ones begin: GPU-side time without host launch cost.\n"
      "--only apsp|series: only the APSP curves (both kernels) or only the series curve.\n"
      "--quick runs a tiny subset (smoke test). Exit 1 if any CPU check fails.\n",
      runner::kToolName);
}

struct Ctx {
  int device = 0;
  cudaDeviceProp prop{};
  std::vector<curves::KernelInfo> infos;
  bool quick = false;
  std::string only;     ///< "", "apsp" or "series": which curves to run
  bool queued = false;  ///< gate kernel first: time the APSP launches already queued on the GPU
  int reps = 10;  ///< timed runs per small APSP size and per series point
  long failures = 0;
};

std::ofstream open_csv(const std::string& path, const Ctx& ctx, const char* experiment) {
  std::ofstream out(path, std::ios::out | std::ios::trunc);
  if (!out) runner::fatal("cannot open '" + path + "' for writing");
  runner::MetaWriter meta(out);
  meta.put("experiment", experiment);
  runner::write_device_metadata(meta, ctx.device, ctx.prop);
  for (const auto& k : ctx.infos) {
    meta.put("kernel." + k.name + ".numRegs", k.num_regs);
    meta.put("kernel." + k.name + ".sharedSizeBytes", k.shared_bytes);
    meta.put("kernel." + k.name + ".maxThreadsPerBlock", k.max_threads);
  }
  meta.put("quick", ctx.quick ? 1 : 0);
  meta.put("issue", ctx.queued ? "queued (a 1-block gate kernel of 20 us + 5 us per launch ran before the start "
                                 "event, so all launches were queued before the timed ones)"
                               : "host-calls (each launch issued by the host inside the timed region)");
  return out;
}

void close_csv(std::ofstream& out, const std::string& path) {
  out.flush();
  if (!out) runner::fatal("error while writing '" + path + "'");
}

int max_threads_of(const Ctx& ctx, const std::string& name) {
  for (const auto& k : ctx.infos) {
    if (k.name == name) return k.max_threads;
  }
  return 0;
}

void minplus_curves(Ctx& ctx, const std::string& path) {
  std::vector<int> ns;
  std::vector<int> blocks = {8, 16, 32};
  if (ctx.quick) {
    ns = {40, 65, 66, 97};
  } else {
    for (int n = 40; n <= 140; ++n) ns.push_back(n);
    ns.push_back(1000);
    ns.push_back(2000);
  }
  const int small_reps = ctx.quick ? 3 : ctx.reps, large_reps = 3;
  std::vector<std::string> rows, notes;
  double t2000[33] = {};
  auto run_size = [&](int n) {
    const std::vector<int> a = curves::make_graph(n);
    const bool check = n <= 300;
    const std::vector<int> ref = check ? curves::cpu_floyd_warshall(a, n) : std::vector<int>{};
    curves::ApspBuffers buf = curves::apsp_alloc(a, n);
    for (int bs : blocks) {
      if (bs * bs > max_threads_of(ctx, "minplus_bs" + std::to_string(bs))) {
        notes.push_back("n" + std::to_string(n) + "_bs" + std::to_string(bs) +
                        "=skipped: block exceeds kernel maxThreadsPerBlock");
        continue;
      }
      if (n == 4000) {
        const double predicted = t2000[bs] * 8.0 * 12.0 / 11.0 / 1000.0;
        if (t2000[bs] <= 0 || predicted >= kLargeRepLimitS) {
          notes.push_back("n4000_bs" + std::to_string(bs) + "=skipped: predicted " +
                          fmt(predicted) + " s per rep from n=2000");
          continue;
        }
      }
      const unsigned gate = ctx.queued ? 20000u + 5000u * static_cast<unsigned>(curves::minplus_launches(n) + 1) : 0u;
      const float warm = curves::run_minplus(buf, bs, gate);
      if (n == 4000 && warm / 1000.0 >= kLargeRepLimitS) {
        notes.push_back("n4000_bs" + std::to_string(bs) + "=skipped: warm-up took " +
                        fmt(warm / 1000.0) + " s");
        continue;
      }
      const int reps = n <= 140 ? small_reps : large_reps;
      std::vector<float> t;
      std::string bad;
      for (int r = 0; r < reps; ++r) {
        t.push_back(curves::run_minplus(buf, bs, gate));
        if (check && bad.empty()) bad = curves::compare_distances(curves::copy_distances(buf), ref, n);
      }
      const Stats s = stats_of(t);
      if (n == 2000) t2000[bs] = s.median;
      if (!bad.empty()) {
        ++ctx.failures;
        std::fprintf(stderr, "curves: minplus n=%d bs=%d check FAILED: %s\n", n, bs, bad.c_str());
      }
      rows.push_back("minplus," + std::to_string(n) + "," + std::to_string(bs) + "," +
                     std::to_string(curves::minplus_launches(n)) + "," + std::to_string(reps) +
                     "," + fmt(s.median) + "," + fmt(s.min) + "," + fmt(s.max) + "," +
                     (check ? "1" : "0"));
      if (n > 140 || ctx.quick || n % 20 == 0) {
        std::printf("minplus n=%5d bs=%2d launches=%2d median=%10.4f ms %s\n", n, bs,
                    curves::minplus_launches(n), s.median, check ? (bad.empty() ? "ok" : "FAIL") : "");
        std::fflush(stdout);
      }
    }
    curves::apsp_free(buf);
  };
  for (int n : ns) run_size(n);
  if (!ctx.quick) run_size(4000);

  std::ofstream out = open_csv(path, ctx, "curves.apsp_minplus");
  runner::MetaWriter meta(out);
  meta.put("graph", "mt19937 seed " + std::to_string(curves::kGraphSeed) + "+n; edge prob 0.8, weight "
                    "uniform 1..100, no edge = INF = 2^29, diagonal 0; int32 D and P");
  meta.put("timing", "CUDA events around one whole run: Init + `launches` APSP launches "
                     "(launches = ceil(log2(n-1))); 1 warm-up run; median/min/max over reps");
  meta.put("check", "checked=1: every timed run's D compared exactly with CPU Floyd-Warshall");
  for (size_t i = 0; i < notes.size(); ++i) meta.put("note." + std::to_string(i), notes[i]);
  out << "algorithm,n,block,launches,reps,median_ms,min_ms,max_ms,checked\n";
  for (const auto& r : rows) out << r << '\n';
  close_csv(out, path);
}

void fw_curves(Ctx& ctx, const std::string& path) {
  const std::vector<int> ns =
      ctx.quick ? std::vector<int>{64} : std::vector<int>{64, 128, 256, 512, 1000};
  const int bs = 16, reps = ctx.quick ? 3 : ctx.reps;
  std::vector<std::string> rows;
  for (int n : ns) {
    const std::vector<int> a = curves::make_graph(n);
    const bool check = n <= 256;
    const std::vector<int> ref = check ? curves::cpu_floyd_warshall(a, n) : std::vector<int>{};
    curves::ApspBuffers buf = curves::apsp_alloc(a, n);
    const unsigned gate = ctx.queued ? 20000u + 5000u * static_cast<unsigned>(n + 1) : 0u;
    curves::run_fw(buf, bs, gate);
    std::vector<float> t;
    std::string bad;
    for (int r = 0; r < reps; ++r) {
      t.push_back(curves::run_fw(buf, bs, gate));
      if (check && bad.empty()) bad = curves::compare_distances(curves::copy_distances(buf), ref, n);
    }
    curves::apsp_free(buf);
    const Stats s = stats_of(t);
    if (!bad.empty()) {
      ++ctx.failures;
      std::fprintf(stderr, "curves: fw n=%d check FAILED: %s\n", n, bad.c_str());
    }
    rows.push_back("fw," + std::to_string(n) + "," + std::to_string(bs) + "," + std::to_string(n) +
                   "," + std::to_string(reps) + "," + fmt(s.median) + "," + fmt(s.min) + "," +
                   fmt(s.max) + "," + (check ? "1" : "0"));
    std::printf("fw      n=%5d bs=%2d launches=%4d median=%10.4f ms %s\n", n, bs, n, s.median,
                check ? (bad.empty() ? "ok" : "FAIL") : "");
    std::fflush(stdout);
  }
  std::ofstream out = open_csv(path, ctx, "curves.apsp_fw");
  runner::MetaWriter meta(out);
  meta.put("graph", "same generator as apsp_minplus.csv");
  meta.put("timing", "CUDA events around Init + n FW launches (one per k); 1 warm-up; "
                     "median/min/max over reps");
  meta.put("check", "checked=1: every timed run's D compared exactly with CPU Floyd-Warshall");
  out << "algorithm,n,block,launches,reps,median_ms,min_ms,max_ms,checked\n";
  for (const auto& r : rows) out << r << '\n';
  close_csv(out, path);
}

void series_curves(Ctx& ctx, const std::string& path) {
  std::vector<int> threads = {32, 64, 128, 256, 512, 1024};
  std::vector<int> blocks = {132, 264, 396, 528, 660, 1056, 1320, 2112, 2640, 4224};
  if (ctx.quick) {
    threads = {128, 1024};
    blocks = {132, 264};
  }
  const int reps = ctx.quick ? 3 : ctx.reps;
  const size_t max_elems = static_cast<size_t>(4224) * 1024;
  float* d_out = nullptr;
  RUNNER_CUDA_CHECK(cudaMalloc(&d_out, max_elems * sizeof(float)));
  std::vector<float> host(max_elems);
  std::vector<std::string> rows, notes;
  const int max_thr = max_threads_of(ctx, "series");
  for (int thr : threads) {
    for (int blk : blocks) {
      if (thr > max_thr || thr > ctx.prop.maxThreadsPerBlock) {
        notes.push_back("t" + std::to_string(thr) + "=skipped: exceeds maxThreadsPerBlock");
        continue;
      }
      curves::run_series(d_out, blk, thr, kSeriesTerms);
      std::vector<float> t;
      for (int r = 0; r < reps; ++r) t.push_back(curves::run_series(d_out, blk, thr, kSeriesTerms));
      const size_t total = static_cast<size_t>(blk) * thr;
      RUNNER_CUDA_CHECK(cudaMemcpy(host.data(), d_out, total * sizeof(float), cudaMemcpyDeviceToHost));
      std::string bad;
      for (size_t g = 0; g < total && bad.empty(); g += 997) {  // ~1/1000 sample, + the last
        const float x = curves::series_x(static_cast<long long>(g));
        const double want = std::pow(1.0 + static_cast<double>(x), static_cast<double>(curves::kSeriesA));
        if (!(std::fabs(host[g] - want) <= 1e-5 * std::fabs(want))) {
          bad = "thread " + std::to_string(g) + " got " + fmt(host[g]) + " expected " + fmt(want);
        }
      }
      const Stats s = stats_of(t);
      if (!bad.empty()) {
        ++ctx.failures;
        std::fprintf(stderr, "curves: series b=%d t=%d check FAILED: %s\n", blk, thr, bad.c_str());
      }
      rows.push_back(std::to_string(blk) + "," + std::to_string(thr) + "," +
                     std::to_string(kSeriesTerms) + "," + std::to_string(reps) + "," +
                     fmt(s.median) + "," + fmt(s.min) + "," + fmt(s.max) + ",1");
    }
    std::printf("series  threads=%4d done (last row: %s)\n", thr,
                rows.empty() ? "-" : rows.back().c_str());
    std::fflush(stdout);
  }
  RUNNER_CUDA_CHECK(cudaFree(d_out));
  std::ofstream out = open_csv(path, ctx, "curves.binomial");
  runner::MetaWriter meta(out);
  meta.put("series", "thread g sums terms i=0..K-1 of the binomial series of (1+x)^a, a=0.5, "
                     "x=-0.5+(g mod 1021)/1021, float32, term recurrence "
                     "t_i = t_{i-1}*(a-(i-1))/i*x; result written to out[g]");
  meta.put("timing", "CUDA events around one launch; 1 warm-up; median/min/max over reps");
  meta.put("check", "checked=1: every 997th thread compared with double pow(1+x, a), rel tol 1e-5");
  for (size_t i = 0; i < notes.size(); ++i) meta.put("note." + std::to_string(i), notes[i]);
  out << "blocks,threads,terms,reps,median_ms,min_ms,max_ms,checked\n";
  for (const auto& r : rows) out << r << '\n';
  close_csv(out, path);
}

}  // namespace

namespace runner {

int curves_main(int argc, char** argv) {
  const char* const sub = "curves";
  std::string out_dir;
  Ctx ctx;
  for (int i = 1; i < argc; ++i) {
    const FlagArg flag = split_flag(argv[i]);
    const std::string& arg = flag.name;
    std::string value = flag.value;
    const bool has_value = flag.has_value;
    if (arg == "-h" || arg == "--help") {
      print_help();
      return kExitOk;
    }
    if (arg == "--queued") {
      if (has_value) usage_error(sub, "--queued takes no value");
      ctx.queued = true;
      continue;
    }
    if (arg == "--quick") {
      if (has_value) usage_error(sub, "--quick takes no value");
      ctx.quick = true;
      continue;
    }
    if (arg != "--out-dir" && arg != "--device" && arg != "--reps" && arg != "--only") usage_error(sub, "unknown option '" + arg + "'");
    if (!has_value) {
      if (i + 1 >= argc) usage_error(sub, "option '" + arg + "' needs a value");
      value = argv[++i];
    }
    if (arg == "--out-dir") {
      if (value.empty()) usage_error(sub, "--out-dir needs a non-empty path");
      out_dir = value;
    } else if (arg == "--only") {
      if (value != "apsp" && value != "series") usage_error(sub, "--only needs apsp or series, got '" + value + "'");
      ctx.only = value;
    } else if (arg == "--reps") {
      if (!parse_int(value, &ctx.reps) || ctx.reps < 1 || ctx.reps > 1000)
        usage_error(sub, "--reps needs an integer in [1, 1000], got '" + value + "'");
    } else if (!parse_int(value, &ctx.device) || ctx.device < 0) {
      usage_error(sub, "--device needs a non-negative integer, got '" + value + "'");
    }
  }
  if (out_dir.empty()) usage_error(sub, "missing required option --out-dir DIR");

  const auto t0 = std::chrono::steady_clock::now();
  ctx.prop = select_device(ctx.device);
  ctx.infos = curves::kernel_infos();
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) fatal("cannot create directory '" + out_dir + "': " + ec.message());
  std::printf("curves: %s, %d SMs%s\n", ctx.prop.name, ctx.prop.multiProcessorCount,
              ctx.quick ? " (quick)" : "");
  for (const auto& k : ctx.infos) {
    std::printf("  kernel %-13s regs=%3d smem=%6zu maxThreads=%d\n", k.name.c_str(), k.num_regs,
                k.shared_bytes, k.max_threads);
  }
  const std::string suffix = ctx.queued ? "_queued.csv" : ".csv";
  const bool apsp = ctx.only != "series";
  const bool series = !ctx.queued && ctx.only != "apsp";
  if (apsp) minplus_curves(ctx, out_dir + "/apsp_minplus" + suffix);
  if (apsp) fw_curves(ctx, out_dir + "/apsp_fw" + suffix);
  if (series) series_curves(ctx, out_dir + "/binomial.csv");
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("curves: wrote %d CSVs to %s in %.1f s, %ld failed check(s)\n", (apsp ? 2 : 0) + (series ? 1 : 0), out_dir.c_str(), secs,
              ctx.failures);
  if (ctx.failures > 0) {
    std::fprintf(stderr, "%s curves: %ld configuration(s) failed the CPU check\n", kToolName,
                 ctx.failures);
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace runner

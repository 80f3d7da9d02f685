// `spmv` subcommand: CSR/ELL/COO/HYB SpMV over the paper's matrices -> .mtx, runs.csv, timelines.
//
// Every matrix is generated (spmv_matrices.cu), written as DIR/<matrix>-<size>.mtx (Matrix
// Market coordinate pattern general), then multiplied in each format: 2 warm-up runs, --reps
// timed runs of the plain kernels (CUDA events around the launch; HYB also per launch), then
// --reps runs of the instrumented kernels, whose last block records become
// DIR/timeline_<matrix>-<size>_<format>.csv for the largest size. Every run's y is compared
// exactly with the CPU product (exact by construction, see spmv.h); any mismatch exits 1.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "spmv.h"

namespace {

using kit::BlockRecord;
using kit::Stats;
using spmv::Kernel;

constexpr uint64_t kBaseSeed = 20251122;  // matrix k, size s: seed kBaseSeed + 100 k + s
constexpr unsigned kBusyNs = 20000;       // spin queued before each start event

const char* const kHelp =
    "Usage: gpusched-runner spmv --out-dir DIR [--device N] [--reps N] [--quick]\n"
    "\n"
    "SpMV (Bell and Garland's CSR vector, ELL, COO and HYB kernels, 256 threads per block)\n"
    "over scaled-down stand-ins for the SpMV paper's eight matrices at two sizes (about 40k\n"
    "and 10k non-zeros). Writes DIR/<matrix>-<size>.mtx, DIR/runs.csv (median/min/max of\n"
    "--reps event-timed runs per format; HYB per launch and in total) and\n"
    "DIR/timeline_<matrix>-40k_<format>.csv (per-block SM/start/end of one instrumented run).\n"
    "--quick: two matrices at the small size. Exit 1 if any result differs from the CPU.\n";

struct Size {
  const char* label;
  int target_nnz;
};

struct Format {
  const char* name;
  std::vector<Kernel> launches;
};

std::vector<float> cpu_product(const spmv::Pattern& p) {
  std::vector<float> y(static_cast<size_t>(p.rows));
  for (int r = 0; r < p.rows; ++r) {
    double s = 0.0;
    for (int j = p.ptr[r]; j < p.ptr[r + 1]; ++j) {
      s += static_cast<double>(spmv::value_of(r, p.col[j])) * spmv::x_of(p.col[j]);
    }
    y[r] = static_cast<float>(s);
  }
  return y;
}

void write_mtx(const std::string& path, const spmv::Pattern& p, const spmv::MatrixKind& kind,
               uint64_t seed) {
  std::ofstream out(path, std::ios::out | std::ios::trunc);
  if (!out) runner::fatal("cannot open '" + path + "' for writing");
  out << "%%MatrixMarket matrix coordinate pattern general\n"
      << "% gpusched-runner spmv: stand-in for " << kind.paper_name << " (" << kind.paper_rows
      << " rows, " << kind.nnz_per_row << " nnz/row in the SpMV paper's Table IV)\n"
      << "% generator: " << spmv::describe_generator(kind) << "; splitmix64 seed " << seed << "\n"
      << "% values used by the runner: A[r][c] = ((7r + 3c) mod 16 + 1)/16, x[c] = 1 + (c mod 7)/8"
      << " (0-based r, c)\n"
      << p.rows << ' ' << p.rows << ' ' << p.nnz() << '\n';
  char line[32];
  for (int r = 0; r < p.rows; ++r) {
    for (int j = p.ptr[r]; j < p.ptr[r + 1]; ++j) {
      std::snprintf(line, sizeof(line), "%d %d\n", r + 1, p.col[j] + 1);
      out << line;
    }
  }
  out.flush();
  if (!out) runner::fatal("error while writing '" + path + "'");
}

struct Timed {
  std::vector<std::vector<float>> per_launch;  // [launch][rep]
  std::vector<float> total;
  std::vector<std::vector<BlockRecord>> records;  // last instrumented run, per launch
  std::vector<std::vector<float>> launch_span;    // [launch][rep] block-record makespan, us
  std::vector<float> span;                        // [rep] makespan of all launches, us
  long mismatches = 0, bad_records = 0;
  std::string first_mismatch;
};

class Runner {
 public:
  Runner(const spmv::DeviceMatrix& m, const std::vector<float>& ref, int sm_count)
      : m_(m), ref_(ref), sm_count_(sm_count) {
    for (int i = 0; i < 4; ++i) RUNNER_CUDA_CHECK(cudaEventCreate(&ev_[i]));
    size_t most = 1;
    for (Kernel k : {Kernel::kCsr, Kernel::kEll, Kernel::kCoo, Kernel::kHybEll, Kernel::kHybCoo}) {
      most = std::max(most, static_cast<size_t>(spmv::grid_of(m, k)));
    }
    RUNNER_CUDA_CHECK(cudaMalloc(&rec_, 2 * most * sizeof(BlockRecord)));
    rec_stride_ = most;
  }
  ~Runner() {
    for (auto& e : ev_) cudaEventDestroy(e);
    cudaFree(rec_);
  }

  // One run of `f`: returns per-launch and total event times (ms); checks y.
  void run(const Format& f, bool instrumented, bool keep, Timed& t) {
    const bool zero_first = f.launches.front() == Kernel::kCoo ||
                            (f.launches.front() == Kernel::kHybEll && m_.hyb_width == 0);
    // y poisoned with NaN where a kernel writes every row; zeroed where COO only adds.
    RUNNER_CUDA_CHECK(cudaMemsetAsync(m_.y, zero_first ? 0 : 0xff, sizeof(float) * m_.rows, 0));
    if (instrumented) {
      RUNNER_CUDA_CHECK(cudaMemsetAsync(rec_, 0xff, 2 * rec_stride_ * sizeof(BlockRecord), 0));
    }
    kit::gpu_busy(0, kBusyNs);
    RUNNER_CUDA_CHECK(cudaEventRecord(ev_[0], 0));
    for (size_t l = 0; l < f.launches.size(); ++l) {
      spmv::launch(m_, f.launches[l], 0, instrumented ? rec_ + l * rec_stride_ : nullptr);
      RUNNER_CUDA_CHECK(cudaEventRecord(ev_[l + 1], 0));
    }
    RUNNER_CUDA_CHECK(cudaEventSynchronize(ev_[f.launches.size()]));
    RUNNER_CUDA_CHECK(cudaGetLastError());
    t.per_launch.resize(f.launches.size());
    for (size_t l = 0; l < f.launches.size(); ++l) {
      float ms = 0;
      RUNNER_CUDA_CHECK(cudaEventElapsedTime(&ms, ev_[l], ev_[l + 1]));
      if (keep) t.per_launch[l].push_back(ms);
    }
    float total = 0;
    RUNNER_CUDA_CHECK(cudaEventElapsedTime(&total, ev_[0], ev_[f.launches.size()]));
    if (keep) t.total.push_back(total);
    check(t);
    if (!instrumented) return;
    t.records.assign(f.launches.size(), {});
    t.launch_span.resize(f.launches.size());
    std::vector<kit::TimelineLaunch> all;
    for (size_t l = 0; l < f.launches.size(); ++l) {
      const int g = spmv::grid_of(m_, f.launches[l]);
      t.records[l].resize(static_cast<size_t>(g));
      if (g > 0) {
        RUNNER_CUDA_CHECK(cudaMemcpy(t.records[l].data(), rec_ + l * rec_stride_,
                                     sizeof(BlockRecord) * g, cudaMemcpyDeviceToHost));
      }
      t.bad_records += kit::bad_records(t.records[l], sm_count_);
      all.push_back({"", "", t.records[l]});
      if (keep) t.launch_span[l].push_back(kit::makespan_ns({all.back()}) / 1000.0f);
    }
    if (keep) t.span.push_back(kit::makespan_ns(all) / 1000.0f);
  }

 private:
  void check(Timed& t) {
    std::vector<float> y(static_cast<size_t>(m_.rows));
    RUNNER_CUDA_CHECK(cudaMemcpy(y.data(), m_.y, sizeof(float) * y.size(), cudaMemcpyDeviceToHost));
    for (size_t r = 0; r < y.size(); ++r) {
      if (y[r] == ref_[r]) continue;
      if (t.mismatches++ == 0) {
        t.first_mismatch = "y[" + std::to_string(r) + "]=" + kit::fmt(y[r]) + " expected " +
                           kit::fmt(ref_[r]);
      }
    }
  }

  const spmv::DeviceMatrix& m_;
  const std::vector<float>& ref_;
  int sm_count_;
  cudaEvent_t ev_[4] = {};
  BlockRecord* rec_ = nullptr;
  size_t rec_stride_ = 1;
};

std::string spec_of(const std::string& mtx, const char* format, int hyb_width) {
  std::string s =
      "spmv:matrix=" + mtx + ",format=" + format + ",threads=" + std::to_string(spmv::kThreads);
  if (std::string(format) == "hyb") s += ",hyb_width=" + std::to_string(hyb_width);
  return s;
}

}  // namespace

namespace runner {

int spmv_main(int argc, char** argv) {
  const kit::Options opt = kit::parse_options("spmv", argc, argv, kHelp);
  const cudaDeviceProp prop = select_device(opt.device);
  const int sm_count = prop.multiProcessorCount;
  std::vector<Size> sizes = {{"40k", 40000}, {"10k", 10000}};
  if (opt.quick) sizes = {{"10k", 10000}};
  const std::vector<Format> formats = {{"csr", {Kernel::kCsr}},
                                       {"ell", {Kernel::kEll}},
                                       {"coo", {Kernel::kCoo}},
                                       {"hyb", {Kernel::kHybEll, Kernel::kHybCoo}}};
  std::ofstream runs = kit::open_csv(opt.out_dir, "runs.csv", "spmv", opt.device, prop);
  {
    runner::MetaWriter meta(runs);
    for (Kernel k : {Kernel::kCsr, Kernel::kEll, Kernel::kCoo}) {
      kit::put_kernel_attributes(meta, spmv::kernel_name(k), spmv::kernel_fn(k));
    }
    meta.put("threads", spmv::kThreads);
    meta.put("reps", opt.reps);
    meta.put("timing",
             "CUDA events around each launch and around the whole format (HYB: both "
             "launches), queued behind a 20 us one-block spin kernel so that host "
             "launch latency stays out; 2 warm-up runs; median/min/max over reps; y is "
             "memset before the spin (NaN poison; zero for COO, which only adds)");
    meta.put("makespan",
             "makespan_*_us: last block end - first block start of the instrumented "
             "runs' block records (per launch, or over both HYB launches), over reps");
    meta.put("instrumented",
             "inst_median_ms: same runs with thread 0 of each block recording "
             "%smid/%globaltimer at entry and after a final __syncthreads()");
    meta.put("values",
             "A[r][c] = ((7r+3c) mod 16 + 1)/16, x[c] = 1 + (c mod 7)/8: float sums "
             "exact, so every run's y must equal the CPU product exactly");
    meta.put("hyb_width",
             "largest K with at least rows/3 rows of >= K non-zeros (Bell-Garland, "
             "relative speed 3, no 4096-row breakeven)");
    meta.put("seeds",
             "splitmix64 seed 20251122 + 100 x matrix index (Table IV order, from 0) + "
             "size index (0 = 40k, 1 = 10k)");
  }
  runs << "matrix,size,paper_name,rows,nnz,max_row,format,launch,blocks,threads,hyb_width,reps,"
          "median_ms,min_ms,max_ms,inst_median_ms,makespan_median_us,makespan_min_us,makespan_max_"
          "us,check,mtx,workload_spec\n";
  long failures = 0;
  const auto& kinds = spmv::matrix_kinds();
  for (size_t ki = 0; ki < kinds.size(); ++ki) {
    if (opt.quick && ki != 0 && ki != 7) continue;
    const spmv::MatrixKind& kind = kinds[ki];
    for (size_t si = 0; si < sizes.size(); ++si) {
      const uint64_t seed = kBaseSeed + 100 * ki + si;
      const spmv::Pattern p =
          spmv::generate(kind, spmv::rows_for(kind, sizes[si].target_nnz), seed);
      const std::string stem = std::string(kind.name) + "-" + sizes[si].label;
      const std::string mtx = stem + ".mtx";
      write_mtx(opt.out_dir + "/" + mtx, p, kind, seed);
      const std::vector<float> ref = cpu_product(p);
      spmv::DeviceMatrix m = spmv::upload(p);
      int max_row = 0;
      for (int r = 0; r < p.rows; ++r) max_row = std::max(max_row, p.row_length(r));
      Runner exec(m, ref, sm_count);
      for (const Format& f : formats) {
        Timed plain, inst;
        for (int w = 0; w < 2; ++w) exec.run(f, false, false, plain);
        for (int r = 0; r < opt.reps; ++r) exec.run(f, false, true, plain);
        for (int r = 0; r < opt.reps; ++r) exec.run(f, true, true, inst);
        const long bad = plain.mismatches + inst.mismatches + inst.bad_records;
        if (bad > 0) {
          ++failures;
          std::fprintf(stderr, "spmv: %s %s check FAILED: %ld mismatches (%s), %ld bad records\n",
                       stem.c_str(), f.name, plain.mismatches + inst.mismatches,
                       (plain.first_mismatch + inst.first_mismatch).c_str(), inst.bad_records);
        }
        std::vector<kit::TimelineLaunch> tl;
        for (size_t l = 0; l < f.launches.size(); ++l) {
          tl.push_back({spmv::kernel_name(f.launches[l]), "", inst.records[l]});
        }
        if (si == 0) {
          const std::string name = "timeline_" + stem + "_" + f.name + ".csv";
          std::ofstream out =
              kit::open_csv(opt.out_dir, name, "spmv.timeline", opt.device, prop);
          runner::MetaWriter meta(out);
          meta.put("matrix", mtx);
          meta.put("format", f.name);
          meta.put("rows", p.rows);
          meta.put("nnz", p.nnz());
          meta.put("hyb_width", m.hyb_width);
          meta.put("threads", spmv::kThreads);
          meta.put("workload_spec", spec_of(mtx, f.name, m.hyb_width));
          for (size_t l = 0; l < f.launches.size(); ++l) {
            meta.put("launch." + std::to_string(l),
                     std::string(spmv::kernel_name(f.launches[l])) +
                         " blocks=" + std::to_string(spmv::grid_of(m, f.launches[l])) +
                         " threads=" + std::to_string(spmv::kThreads) + " stream=0");
          }
          meta.put("source", "last of " + std::to_string(opt.reps) + " instrumented runs");
          meta.put("check", bad == 0 ? "passed" : "FAILED");
          kit::write_timeline_rows(out, tl, "");
          kit::close_csv(out, name);
        }
        auto row = [&](const std::string& launch, int blocks, const std::vector<float>& t,
                       const std::vector<float>& ti, const std::vector<float>& span) {
          const Stats s = kit::stats_of(t), si_ = kit::stats_of(ti);
          const Stats ms = kit::stats_of(span);
          runs << kind.name << ',' << sizes[si].label << ',' << kind.paper_name << ',' << p.rows
               << ',' << p.nnz() << ',' << max_row << ',' << f.name << ',' << launch << ','
               << blocks << ',' << spmv::kThreads << ',' << m.hyb_width << ',' << s.reps << ','
               << kit::fmt(s.median) << ',' << kit::fmt(s.min) << ',' << kit::fmt(s.max)
               << ',' << kit::fmt(si_.median) << ',' << kit::fmt(ms.median, 3) << ','
               << kit::fmt(ms.min, 3) << ',' << kit::fmt(ms.max, 3) << ','
               << (bad == 0 ? "passed" : "FAILED") << ',' << mtx << ','
               << spec_of(mtx, f.name, m.hyb_width) << '\n';
        };
        int total_blocks = 0;
        for (size_t l = 0; l < f.launches.size(); ++l) {
          const int g = spmv::grid_of(m, f.launches[l]);
          total_blocks += g;
          if (f.launches.size() > 1) {
            row(spmv::kernel_name(f.launches[l]), g, plain.per_launch[l], inst.per_launch[l],
                inst.launch_span[l]);
          }
        }
        row("all", total_blocks, plain.total, inst.total, inst.span);
        std::printf("spmv %-18s rows=%6d nnz=%6d %-3s median=%8.4f ms %s\n", stem.c_str(), p.rows,
                    p.nnz(), f.name, kit::stats_of(plain.total).median,
                    bad == 0 ? "ok" : "FAIL");
        std::fflush(stdout);
      }
      spmv::release(m);
    }
  }
  kit::close_csv(runs, "runs.csv");
  if (failures > 0) {
    std::fprintf(stderr, "%s spmv: %ld configuration(s) failed the CPU check\n", kToolName,
                 failures);
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace runner

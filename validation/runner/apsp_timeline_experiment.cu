// `apsp-timeline` subcommand: per-block timelines of whole APSP runs (min-plus, Floyd-Warshall), queued behind a gate.
//
// Each case is one whole run of the `curves` APSP kernels (Init + every launch), launched behind
// the curves' one-block gate kernel (20 us + 5 us per launch) so the launches run back to back on
// the GPU. The kernels here are instrumented copies of curves_kernels.cu's init/minplus/fw kernels:
// thread (0, 0) of each block reads %smid and %globaltimer at entry and %globaltimer again after a
// final __syncthreads(), and stores one record per block of every launch. Per case: 1 warm-up,
// then --reps instrumented runs interleaved with --reps runs of the plain curves kernels (same
// gate, CUDA events from after the gate to the end), every run's distances compared exactly with a
// CPU Floyd-Warshall. DIR/<case>.csv is the last instrumented run's timeline (the simulator's
// timeline CSV columns; launch 0 = Init); DIR/summary.csv has the whole-run times of both variants.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "curves.h"
#include "device_probes.h"
#include "fw_step.cuh"
#include "grid_probe.cuh"
#include "workload_kit.h"
#include "minplus_argmin.cuh"
#include "placement.h"
#include "runner_common.h"

namespace {

using kit::BlockRecord;
using runner::fmt;
using runner::Stats;
using runner::stats_of;

// The `curves` graph generator (curves_experiment.cu), so a case is the same input as the curve point.

const char* const kHelp =
    "Usage: gpusched-runner apsp-timeline --out-dir DIR [--device N] [--reps N]\n"
    "\n"
    "Per-block timelines of whole APSP runs (the `curves` kernels with thread 0 of every block\n"
    "recording %smid and %globaltimer at entry and after a final barrier), every launch queued\n"
    "behind the curves' gate kernel (20 us + 5 us per launch) so they run back to back:\n"
    "  minplus_n90_bs8, minplus_n90_bs16, minplus_n90_bs32  Init + 7 min-plus launches\n"
    "  minplus_n1000_bs16                                   Init + 10 launches of 3969 blocks\n"
    "  fw_n128_bs16                                         Init + 128 Floyd-Warshall launches\n"
    "Writes DIR/<case>.csv (kernel,launch,block,sm,dispatch_ns,start_ns,end_ns; launch 0 = Init;\n"
    "the last instrumented run) and DIR/summary.csv (whole-run CUDA-event times, instrumented and\n"
    "plain, median/min/max of --reps runs each (default 15), and the instrumentation overhead).\n"
    "Every run's distances are compared exactly with a CPU Floyd-Warshall: exit 1 on a mismatch.\n";

struct CaseDef {
  std::string name;
  bool minplus = true;  // else Floyd-Warshall
  int n = 0;
  int block = 0;
};

std::vector<CaseDef> cases() {
  return {{"minplus_n90_bs8", true, 90, 8},
          {"minplus_n90_bs16", true, 90, 16},
          {"minplus_n90_bs32", true, 90, 32},
          {"minplus_n1000_bs16", true, 1000, 16},
          {"fw_n128_bs16", false, 128, 16}};
}

// ---- instrumented kernels (curves_kernels.cu's kernels plus the block probe) ----

using runner::Probe;

__global__ void init_timed(int n, const int* a, int* d, int* p, BlockRecord* rec) {
  Probe probe;
  probe.enter();
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    const int w = a[row * n + col];
    d[row * n + col] = w;
    p[row * n + col] = row == col ? row : (w < curves::kInf ? col : -1);
  }
  probe.leave(rec);
}

template <int BS>
__global__ void __launch_bounds__(BS * BS) minplus_timed(int n, int* d, int* p, BlockRecord* rec) {
  Probe probe;
  probe.enter();
  __shared__ int t1[BS][BS];
  __shared__ int t2[BS][BS];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
  const bool inside = row < n && col < n;
  int wmin = inside ? d[row * n + col] : curves::kInf;
  int kmin = -1;
  for (int b = 0; b < static_cast<int>(gridDim.x); ++b) {
    const int kc = b * BS + tx, kr = b * BS + ty;
    t1[ty][tx] = (row < n && kc < n) ? d[row * n + kc] : curves::kInf;
    t2[ty][tx] = (kr < n && col < n) ? d[kr * n + col] : curves::kInf;
    __syncthreads();
    int best, km;
    curves::minplus_tile_argmin<BS>(t1, t2, ty, tx, best, km);
    if (best < wmin) {
      wmin = best;
      kmin = b * BS + km;
    }
    __syncthreads();
  }
  if (inside && kmin >= 0) {
    d[row * n + col] = wmin;
    p[row * n + col] = p[row * n + kmin];
  }
  probe.leave(rec);
}

__global__ void fw_timed(int n, int k, int* d, int* p, BlockRecord* rec) {
  Probe probe;
  probe.enter();
  curves::fw_step(n, k, d, p);
  probe.leave(rec);
}

const void* case_kernel(const CaseDef& c) {
  if (!c.minplus) return reinterpret_cast<const void*>(&fw_timed);
  switch (c.block) {
    case 8: return reinterpret_cast<const void*>(&minplus_timed<8>);
    case 16: return reinterpret_cast<const void*>(&minplus_timed<16>);
    default: return reinterpret_cast<const void*>(&minplus_timed<32>);
  }
}

std::string kernel_name(const CaseDef& c) { return c.minplus ? "minplus_bs" + std::to_string(c.block) : "fw"; }

// ---- host side ----

int apsp_launches(const CaseDef& c) { return c.minplus ? curves::minplus_launches(c.n) : c.n; }
int grid_side(const CaseDef& c) { return (c.n + c.block - 1) / c.block; }

// One instrumented whole run: gate, start event, Init, the launches, stop event; returns ms.
// Launch l writes its records at rec + l * blocks (l = 0: Init).
float run_instrumented(const curves::ApspBuffers& b, const CaseDef& c, BlockRecord* rec, unsigned gate_ns) {
  const unsigned g = static_cast<unsigned>(grid_side(c));
  const dim3 grid(g, g), threads(c.block, c.block);
  const size_t blocks = static_cast<size_t>(g) * g;
  runner::EventPair ev;
  kit::gpu_busy(nullptr, gate_ns);
  RUNNER_CUDA_CHECK(cudaEventRecord(ev.start));
  init_timed<<<grid, threads>>>(b.n, b.a, b.d, b.p, rec);
  RUNNER_CUDA_CHECK(cudaGetLastError());
  for (int s = 0; s < apsp_launches(c); ++s) {
    BlockRecord* r = rec + static_cast<size_t>(s + 1) * blocks;
    if (!c.minplus) {
      fw_timed<<<grid, threads>>>(b.n, s, b.d, b.p, r);
    } else if (c.block == 8) {
      minplus_timed<8><<<grid, threads>>>(b.n, b.d, b.p, r);
    } else if (c.block == 16) {
      minplus_timed<16><<<grid, threads>>>(b.n, b.d, b.p, r);
    } else {
      minplus_timed<32><<<grid, threads>>>(b.n, b.d, b.p, r);
    }
    RUNNER_CUDA_CHECK(cudaGetLastError());
  }
  RUNNER_CUDA_CHECK(cudaEventRecord(ev.stop));
  return ev.elapsed_ms();
}

float run_plain(const curves::ApspBuffers& b, const CaseDef& c, unsigned gate_ns) {
  return c.minplus ? curves::run_minplus(b, c.block, gate_ns) : curves::run_fw(b, c.block, gate_ns);
}

struct Attr {
  int regs = 0, local = 0, per_sm = 0;
  size_t smem = 0;
};

Attr attributes_of(const void* fn, int threads) {
  cudaFuncAttributes a{};
  RUNNER_CUDA_CHECK(cudaFuncGetAttributes(&a, fn));
  Attr out;
  out.regs = a.numRegs;
  out.local = static_cast<int>(a.localSizeBytes);
  out.smem = a.sharedSizeBytes;
  RUNNER_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&out.per_sm, fn, threads, 0));
  return out;
}

const curves::KernelInfo* plain_info(const std::vector<curves::KernelInfo>& infos, const std::string& name) {
  for (const auto& k : infos) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

std::string probe_text(const placement::TimerProbe& p) {
  return "min_step_ns=" + fmt(p.min_step_ns, 0) + " mean_step_ns=" + fmt(p.mean_step_ns, 2) +
         " sm_clock_mhz=" + fmt(p.sm_clock_mhz, 1);
}

struct CaseResult {
  Stats instrumented, plain;
  double overhead_percent = 0;
  double timeline_run_ms = 0;
  unsigned long long span_ns = 0;
  size_t records = 0;
  long failures = 0;
};

CaseResult run_case(const CaseDef& c, const runner::CommonOptions& opt, const cudaDeviceProp& prop,
                    const std::vector<curves::KernelInfo>& infos, const placement::TimerProbe& probe) {
  const std::vector<int> a = curves::make_graph(c.n);
  const std::vector<int> ref = curves::cpu_floyd_warshall(a, c.n);
  curves::ApspBuffers buf = curves::apsp_alloc(a, c.n);
  const int g = grid_side(c), launches = apsp_launches(c) + 1;
  const size_t blocks = static_cast<size_t>(g) * g, n_rec = blocks * static_cast<size_t>(launches);
  BlockRecord* rec = nullptr;
  RUNNER_CUDA_CHECK(cudaMalloc(&rec, n_rec * sizeof(BlockRecord)));
  const unsigned gate = 20000u + 5000u * static_cast<unsigned>(launches);
  CaseResult res;
  std::string first_bad;
  const auto check = [&](const char* what) {
    const std::string bad = curves::compare_distances(curves::copy_distances(buf), ref, c.n);
    if (bad.empty()) return;
    if (res.failures++ == 0) first_bad = std::string(what) + ": " + bad;
  };
  RUNNER_CUDA_CHECK(cudaMemset(rec, 0xff, n_rec * sizeof(BlockRecord)));
  run_instrumented(buf, c, rec, gate);  // warm-up of both variants
  check("warm-up instrumented");
  run_plain(buf, c, gate);
  check("warm-up plain");
  std::vector<float> t_inst, t_plain;
  for (int r = 0; r < opt.reps; ++r) {
    RUNNER_CUDA_CHECK(cudaMemset(rec, 0xff, n_rec * sizeof(BlockRecord)));  // poison: smid 0xffffffff
    t_inst.push_back(run_instrumented(buf, c, rec, gate));
    check("instrumented");
    t_plain.push_back(run_plain(buf, c, gate));
    check("plain");
  }
  std::vector<BlockRecord> host(n_rec);
  RUNNER_CUDA_CHECK(cudaMemcpy(host.data(), rec, n_rec * sizeof(BlockRecord), cudaMemcpyDeviceToHost));
  RUNNER_CUDA_CHECK(cudaFree(rec));
  curves::apsp_free(buf);
  const long bad_rec = kit::bad_records(host, prop.multiProcessorCount);
  if (bad_rec > 0) {
    if (res.failures++ == 0) first_bad = std::to_string(bad_rec) + " block records unwritten or invalid";
  }
  if (res.failures > 0) std::fprintf(stderr, "apsp-timeline: %s FAILED: %s\n", c.name.c_str(), first_bad.c_str());
  res.instrumented = stats_of(t_inst);
  res.plain = stats_of(t_plain);
  res.overhead_percent = 100.0 * (res.instrumented.median - res.plain.median) / res.plain.median;
  res.timeline_run_ms = t_inst.back();
  res.records = n_rec;

  std::vector<kit::TimelineLaunch> tl(static_cast<size_t>(launches));
  for (int l = 0; l < launches; ++l) {
    tl[l].kernel = l == 0 ? "init" : kernel_name(c);
    tl[l].records.assign(host.begin() + static_cast<long>(l * blocks), host.begin() + static_cast<long>((l + 1) * blocks));
  }
  res.span_ns = kit::makespan_ns(tl);

  const int threads = c.block * c.block;
  std::ofstream out = kit::open_csv(opt.out_dir, c.name + ".csv", "apsp_timeline", opt.device, prop);
  runner::MetaWriter meta(out);
  meta.put("globaltimer_probe", probe_text(probe));
  meta.put("case", c.name);
  meta.put("algorithm", c.minplus ? "minplus" : "fw");
  meta.put("n", c.n);
  meta.put("block", c.block);
  meta.put("threads", threads);
  meta.put("grid", std::to_string(g) + "x" + std::to_string(g));
  meta.put("blocks_per_launch", blocks);
  meta.put("launches", launches);
  meta.put("apsp_launches", launches - 1);
  meta.put("workload_spec", std::string(c.minplus ? "apsp-minplus" : "apsp-fw") + ":n=" + std::to_string(c.n) +
                                ",block=" + std::to_string(c.block));
  meta.put("launch_note", "launch 0 = Init (kernel init: D = A, P = first hop), launches 1.." +
                              std::to_string(launches - 1) + " = the " + (c.minplus ? "min-plus steps" : "FW steps k = 0..n-1") +
                              " in issue order, all on stream 0");
  meta.put("issue", "queued (a 1-block gate kernel of 20 us + 5 us per launch ran before the start event, so all "
                    "launches were queued before the first began)");
  meta.put("gate_ns", gate);
  for (const auto& [name, fn, plain] :
       {std::tuple<std::string, const void*, std::string>{"init", reinterpret_cast<const void*>(&init_timed), "init"},
        std::tuple<std::string, const void*, std::string>{kernel_name(c), case_kernel(c), kernel_name(c)}}) {
    const Attr at = attributes_of(fn, threads);
    meta.put("kernel." + name + ".numRegs", at.regs);
    meta.put("kernel." + name + ".sharedSizeBytes", at.smem);
    meta.put("kernel." + name + ".localSizeBytes", at.local);
    meta.put("kernel." + name + ".blocks_per_sm", at.per_sm);
    if (const curves::KernelInfo* k = plain_info(infos, plain)) meta.put("kernel." + name + ".plain_numRegs", k->num_regs);
  }
  meta.put("reps", opt.reps);
  meta.put("rep_note", "rows are the last of the instrumented runs; 1 untimed warm-up of each variant first");
  meta.put("timeline_run_us", fmt(res.timeline_run_ms * 1000.0, 3));
  meta.put("timeline_span_us", fmt(static_cast<double>(res.span_ns) / 1000.0, 3));
  meta.put("instrumented_median_us", fmt(res.instrumented.median * 1000.0, 3));
  meta.put("instrumented_min_us", fmt(res.instrumented.min * 1000.0, 3));
  meta.put("instrumented_max_us", fmt(res.instrumented.max * 1000.0, 3));
  meta.put("plain_median_us", fmt(res.plain.median * 1000.0, 3));
  meta.put("plain_min_us", fmt(res.plain.min * 1000.0, 3));
  meta.put("plain_max_us", fmt(res.plain.max * 1000.0, 3));
  meta.put("overhead_percent", fmt(res.overhead_percent, 2));
  meta.put("timing", "CUDA events from after the gate kernel to after the last launch (Init included); "
                     "instrumented and plain (the curves kernels) runs interleaved");
  meta.put("check", res.failures == 0 ? "passed: every run's D equal to CPU Floyd-Warshall, every block recorded"
                                      : "FAILED: " + first_bad);
  meta.put("time_unit", "integer ns of %globaltimer relative to the earliest block start of the run");
  meta.put("start_note", "start = thread (0,0)'s %globaltimer at entry; dispatch_ns = start_ns (not observable)");
  meta.put("end_note", "end = thread (0,0)'s %globaltimer after the block's final __syncthreads()");
  meta.put("block_note", "block = blockIdx.y * gridDim.x + blockIdx.x");
  kit::write_timeline_rows(out, tl, "");
  kit::close_csv(out, c.name + ".csv");
  return res;
}

}  // namespace

namespace runner {

int apsp_timeline_main(int argc, char** argv) {
  CommonOptions opt;
  opt.reps = 15;
  if (!parse_common_options("apsp-timeline", kHelp, argc, argv, &opt)) return kExitOk;
  std::error_code ec;
  std::filesystem::create_directories(opt.out_dir, ec);
  if (ec) fatal("cannot create directory '" + opt.out_dir + "': " + ec.message());
  const auto t0 = std::chrono::steady_clock::now();
  const cudaDeviceProp prop = select_device(opt.device);
  const std::vector<curves::KernelInfo> infos = curves::kernel_infos();
  const placement::TimerProbe probe = placement::probe_globaltimer(100000);
  std::printf("apsp-timeline: %s, %d SMs, %d reps; globaltimer %s\n", prop.name, prop.multiProcessorCount, opt.reps,
              probe_text(probe).c_str());
  std::vector<std::string> rows;
  long failures = 0;
  std::printf("%-20s %8s %10s %10s %10s %9s %10s\n", "case", "records", "inst_us", "plain_us", "spread_us", "overhead",
              "span_us");
  for (const CaseDef& c : cases()) {
    const CaseResult r = run_case(c, opt, prop, infos, probe);
    failures += r.failures;
    const int g = grid_side(c);
    std::ostringstream row;
    row << c.name << ',' << (c.minplus ? "minplus" : "fw") << ',' << c.n << ',' << c.block << ','
        << apsp_launches(c) + 1 << ',' << g * g << ',' << r.records << ',' << opt.reps << ','
        << fmt(r.instrumented.median * 1e3, 3) << ',' << fmt(r.instrumented.min * 1e3, 3) << ','
        << fmt(r.instrumented.max * 1e3, 3) << ',' << fmt(r.plain.median * 1e3, 3) << ','
        << fmt(r.plain.min * 1e3, 3) << ',' << fmt(r.plain.max * 1e3, 3) << ',' << fmt(r.overhead_percent, 2)
        << ',' << fmt(r.timeline_run_ms * 1e3, 3) << ',' << fmt(static_cast<double>(r.span_ns) / 1e3, 3) << ','
        << (r.failures == 0 ? 1 : 0);
    rows.push_back(row.str());
    std::printf("%-20s %8zu %10.2f %10.2f %10.2f %8.2f%% %10.2f %s\n", c.name.c_str(), r.records,
                r.instrumented.median * 1e3, r.plain.median * 1e3, (r.plain.max - r.plain.min) * 1e3,
                r.overhead_percent, static_cast<double>(r.span_ns) / 1e3, r.failures == 0 ? "ok" : "FAIL");
    std::fflush(stdout);
  }
  const placement::TimerProbe probe_end = placement::probe_globaltimer(100000);
  std::ofstream summary = kit::open_csv(opt.out_dir, "summary.csv", "apsp_timeline.summary", opt.device, prop);
  {
    MetaWriter meta(summary);
    meta.put("globaltimer_probe_begin", probe_text(probe));
    meta.put("globaltimer_probe_end", probe_text(probe_end));
    meta.put("reps", opt.reps);
    meta.put("timing", "whole run (Init + every launch) queued behind a gate kernel, CUDA events from after the gate "
                       "to after the last launch; instrumented and plain runs interleaved; us");
    meta.put("overhead_note", "overhead_percent = 100 (instrumented_median - plain_median) / plain_median");
  }
  summary << "case,algorithm,n,block,launches,blocks_per_launch,records,reps,instrumented_median_us,"
             "instrumented_min_us,instrumented_max_us,plain_median_us,plain_min_us,plain_max_us,overhead_percent,"
             "timeline_run_us,timeline_span_us,checked\n";
  for (const auto& r : rows) summary << r << '\n';
  kit::close_csv(summary, "summary.csv");
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("apsp-timeline: wrote %zu timelines + summary.csv to %s in %.1f s; globaltimer end %s; %ld failure(s)\n",
              cases().size(), opt.out_dir.c_str(), secs, probe_text(probe_end).c_str(), failures);
  if (failures > 0) {
    std::fprintf(stderr, "%s apsp-timeline: %ld failed check(s)\n", kToolName, failures);
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace runner

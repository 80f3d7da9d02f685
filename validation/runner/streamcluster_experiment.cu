// `streamcluster` subcommand: pgain kernel vs rake size R, kernel and D2H times -> runs.csv.
//
// A seeded point set (points x dim, uniform in [0,1)) with K centres (points c * points / K) and
// every point assigned to its nearest centre. For each R: 1 warm-up + --reps pgain calls, each
// with another candidate x: the work array and switch flags are zeroed (not timed), the kernel
// is timed with CUDA events, then the work array (tines x (K + 1) floats) and the switch flags
// (points bytes) are copied to pinned host memory (events) and to pageable host memory (host
// clock, synchronous copies). The host sums the work array per centre and compares it and the
// switch flags with a CPU pgain in double (exit 1 on a mismatch). Instrumented runs give
// DIR/timeline_r<R>.csv for a few R.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "streamcluster.h"

namespace {

using kit::BlockRecord;
using streamcluster::DevicePoints;

constexpr uint64_t kSeed = 20251123;

const char* const kHelp =
    "Usage: gpusched-runner streamcluster --out-dir DIR [--device N] [--reps N] [--quick]\n"
    "\n"
    "Rodinia streamcluster's pgain kernel with rake size R = 1, 2, 4, ..., 512 (each thread\n"
    "handles R points, so the work array copied back shrinks as 1/R) over 65536 seeded points\n"
    "of 256 dimensions and 20 centres. Writes DIR/runs.csv (kernel, pinned and pageable\n"
    "device-to-host times and their totals per R) and DIR/timeline_r<R>.csv (R = 1, 8, 64,\n"
    "512). --quick: 8192 points of 32 dimensions. Exit 1 on any CPU mismatch.\n";

struct Host {
  int points = 0, dim = 0, k = 0;
  std::vector<float> coord, weight, cost;  // coord dimension-major
  std::vector<int> assign, center_table, centers;
};

Host make_points(int points, int dim, int k) {
  Host h;
  h.points = points;
  h.dim = dim;
  h.k = k;
  h.coord.resize(static_cast<size_t>(points) * dim);
  kit::SplitMix64 rng(kSeed);
  for (int p = 0; p < points; ++p) {
    for (int d = 0; d < dim; ++d) {
      h.coord[static_cast<size_t>(d) * points + p] = static_cast<float>(rng.uniform());
    }
  }
  h.weight.assign(static_cast<size_t>(points), 1.0f);
  h.center_table.assign(static_cast<size_t>(points), 0);
  for (int c = 0; c < k; ++c) {
    h.centers.push_back(static_cast<int>(static_cast<long long>(c) * points / k));
    h.center_table[h.centers.back()] = c;
  }
  h.cost.resize(static_cast<size_t>(points));
  h.assign.resize(static_cast<size_t>(points));
  for (int p = 0; p < points; ++p) {
    double best = INFINITY;
    for (int c : h.centers) {
      double s = 0;
      for (int d = 0; d < dim; ++d) {
        const double diff = static_cast<double>(h.coord[static_cast<size_t>(d) * points + p]) -
                            h.coord[static_cast<size_t>(d) * points + c];
        s += diff * diff;
      }
      if (s < best) {
        best = s;
        h.assign[p] = c;
      }
    }
    h.cost[p] = static_cast<float>(best * h.weight[p]);
  }
  return h;
}

// CPU pgain for candidate x: per slot (K centres + "open x") the expected sum and a tolerance.
struct Reference {
  std::vector<double> sum, tol;
  std::vector<signed char> flag;  // 1 switch, 0 stay, -1 too close to call
};

Reference cpu_pgain(const Host& h, int x) {
  Reference r;
  r.sum.assign(static_cast<size_t>(h.k) + 1, 0.0);
  r.tol.assign(static_cast<size_t>(h.k) + 1, 1e-3);
  r.flag.resize(static_cast<size_t>(h.points));
  for (int p = 0; p < h.points; ++p) {
    double s = 0;
    for (int d = 0; d < h.dim; ++d) {
      const double diff = static_cast<double>(h.coord[static_cast<size_t>(d) * h.points + p]) -
                          h.coord[static_cast<size_t>(d) * h.points + x];
      s += diff * diff;
    }
    const double x_cost = s * h.weight[p], cost = h.cost[p];
    const double mag = 1e-4 * (x_cost + cost);
    const int slot = h.center_table[h.assign[p]];
    if (std::fabs(x_cost - cost) <= mag) {
      r.flag[p] = -1;
      r.tol[h.k] += mag;
      r.tol[slot] += mag;
    } else {
      r.flag[p] = x_cost < cost ? 1 : 0;
    }
    if (x_cost < cost) {
      r.sum[h.k] += x_cost - cost;
      r.tol[h.k] += mag;
    } else {
      r.sum[slot] += cost - x_cost;
      r.tol[slot] += mag;
    }
  }
  return r;
}

// Mismatches of one call's copied-back work array and flags against the reference.
long compare(const Host& h, int tines, const float* work, const unsigned char* flags,
             const Reference& ref, std::string& first) {
  long bad = 0;
  std::vector<double> sum(static_cast<size_t>(h.k) + 1, 0.0);
  for (int t = 0; t < tines; ++t) {
    for (int s = 0; s <= h.k; ++s) sum[s] += work[static_cast<size_t>(t) * (h.k + 1) + s];
  }
  for (int s = 0; s <= h.k; ++s) {
    if (std::fabs(sum[s] - ref.sum[s]) <= ref.tol[s]) continue;
    if (bad++ == 0) {
      first = "slot " + std::to_string(s) + " sum " + kit::fmt(sum[s]) + " expected " +
              kit::fmt(ref.sum[s]);
    }
  }
  for (int p = 0; p < h.points; ++p) {
    if (ref.flag[p] < 0 || flags[p] == ref.flag[p]) continue;
    if (bad++ == 0) first = "switch flag of point " + std::to_string(p);
  }
  return bad;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

namespace runner {

int streamcluster_main(int argc, char** argv) {
  const kit::Options opt = kit::parse_options("streamcluster", argc, argv, kHelp);
  const cudaDeviceProp prop = select_device(opt.device);
  const int points = opt.quick ? 8192 : 65536, dim = opt.quick ? 32 : 256, k = 20;
  const Host h = make_points(points, dim, k);
  DevicePoints d;
  d.points = points;
  d.dim = dim;
  d.k = k;
  d.coord = kit::to_device(h.coord);
  d.weight = kit::to_device(h.weight);
  d.cost = kit::to_device(h.cost);
  d.assign = kit::to_device(h.assign);
  d.center_table = kit::to_device(h.center_table);
  const size_t work_max = static_cast<size_t>(points) * (k + 1);
  RUNNER_CUDA_CHECK(cudaMalloc(&d.work, work_max * sizeof(float)));
  RUNNER_CUDA_CHECK(cudaMalloc(&d.switch_flag, static_cast<size_t>(points)));
  float* pinned_work = nullptr;
  unsigned char* pinned_flags = nullptr;
  RUNNER_CUDA_CHECK(cudaMallocHost(&pinned_work, work_max * sizeof(float)));
  RUNNER_CUDA_CHECK(cudaMallocHost(&pinned_flags, static_cast<size_t>(points)));
  std::vector<float> pageable_work(work_max);
  std::vector<unsigned char> pageable_flags(static_cast<size_t>(points));
  BlockRecord* rec = nullptr;
  RUNNER_CUDA_CHECK(cudaMalloc(&rec, sizeof(BlockRecord) * streamcluster::grid_of(points, 1)));
  cudaEvent_t ev[4];
  for (auto& e : ev) RUNNER_CUDA_CHECK(cudaEventCreate(&e));

  // Candidate x of call r (r = -1 is the warm-up): a fixed pseudo-random point each.
  std::vector<int> cand;
  std::vector<Reference> refs;
  for (int r = -1; r < opt.reps; ++r) {
    cand.push_back(static_cast<int>((7919LL * (r + 2)) % points));
    refs.push_back(cpu_pgain(h, cand.back()));
  }

  std::ofstream runs = kit::open_csv(opt.out_dir, "runs.csv", "streamcluster", opt.device, prop);
  {
    runner::MetaWriter meta(runs);
    kit::put_kernel_attributes(meta, "pgain", streamcluster::kernel_fn());
    meta.put("points", points);
    meta.put("dim", dim);
    meta.put("centers", k);
    meta.put("threads", streamcluster::kThreads);
    meta.put("reps", opt.reps);
    meta.put("data",
             "splitmix64 seed 20251123: coordinate d of point p = uniform() drawn in "
             "order p-major, d-minor; weights 1; centres c*points/K; assignment to the "
             "nearest centre (squared distance, lowest index on ties)");
    meta.put("candidates",
             "call r (r=-1 warm-up, 0..reps-1 timed) opens x = 7919*(r+2) mod points");
    meta.put("timing",
             "kernel: CUDA events around one launch, queued behind a 20 us one-block "
             "spin kernel (host launch latency hidden); d2h_pinned: events around "
             "cudaMemcpyAsync of work then flags into cudaMallocHost memory; "
             "d2h_pageable: host steady_clock around synchronous cudaMemcpy of both "
             "into std::vector memory; totals = kernel + d2h per call; medians over reps; "
             "makespan_median_us: block records of the instrumented calls");
    meta.put("check",
             "passed: every call's per-centre sums of the work array (pinned and "
             "pageable copies) within 1e-4 relative of a double CPU pgain, switch flags "
             "equal except where |x_cost - cost| <= 1e-4 (x_cost + cost)");
  }
  runs << "points,dim,centers,rake,tines,blocks,threads,work_bytes,flag_bytes,reps,"
          "kernel_median_ms,kernel_min_ms,kernel_max_ms,d2h_pinned_median_ms,"
          "d2h_pinned_work_median_ms,d2h_pageable_median_ms,d2h_pageable_work_median_ms,"
          "total_pinned_median_ms,total_pinned_min_ms,total_pinned_max_ms,"
          "total_pageable_median_ms,inst_kernel_median_ms,makespan_median_us,check\n";
  long failures = 0;
  for (int rake = 1; rake <= 512; rake *= 2) {
    const int tines = streamcluster::tines_of(points, rake);
    const int blocks = streamcluster::grid_of(points, rake);
    const size_t work_bytes = static_cast<size_t>(tines) * (k + 1) * sizeof(float);
    std::vector<float> kern, pin, pin_work, page, page_work, tot_pin, tot_page, inst, spans;
    long bad = 0, bad_rec = 0;
    std::string first;
    std::vector<BlockRecord> records(static_cast<size_t>(blocks));
    for (int pass = 0; pass < 2; ++pass) {  // pass 1: instrumented
      for (int r = -1; r < opt.reps; ++r) {
        const int x = cand[r + 1];
        RUNNER_CUDA_CHECK(cudaMemset(d.work, 0, work_bytes));
        RUNNER_CUDA_CHECK(cudaMemset(d.switch_flag, 0, static_cast<size_t>(points)));
        if (pass == 1) RUNNER_CUDA_CHECK(cudaMemset(rec, 0xff, sizeof(BlockRecord) * blocks));
        kit::gpu_busy(0, 20000);
        RUNNER_CUDA_CHECK(cudaEventRecord(ev[0], 0));
        streamcluster::launch_pgain(d, x, rake, 0, pass == 1 ? rec : nullptr);
        RUNNER_CUDA_CHECK(cudaEventRecord(ev[1], 0));
        RUNNER_CUDA_CHECK(
            cudaMemcpyAsync(pinned_work, d.work, work_bytes, cudaMemcpyDeviceToHost, 0));
        RUNNER_CUDA_CHECK(cudaEventRecord(ev[2], 0));
        RUNNER_CUDA_CHECK(cudaMemcpyAsync(pinned_flags, d.switch_flag, static_cast<size_t>(points),
                                          cudaMemcpyDeviceToHost, 0));
        RUNNER_CUDA_CHECK(cudaEventRecord(ev[3], 0));
        RUNNER_CUDA_CHECK(cudaEventSynchronize(ev[3]));
        RUNNER_CUDA_CHECK(cudaGetLastError());
        const auto t0 = std::chrono::steady_clock::now();
        RUNNER_CUDA_CHECK(
            cudaMemcpy(pageable_work.data(), d.work, work_bytes, cudaMemcpyDeviceToHost));
        const double pw = ms_since(t0);
        RUNNER_CUDA_CHECK(cudaMemcpy(pageable_flags.data(), d.switch_flag,
                                     static_cast<size_t>(points), cudaMemcpyDeviceToHost));
        const double pt = ms_since(t0);
        float t[3];
        for (int i = 0; i < 3; ++i)
          RUNNER_CUDA_CHECK(cudaEventElapsedTime(&t[i], ev[i], ev[i + 1]));
        bad += compare(h, tines, pinned_work, pinned_flags, refs[r + 1], first);
        bad += compare(h, tines, pageable_work.data(), pageable_flags.data(), refs[r + 1], first);
        if (r < 0) continue;
        if (pass == 1) {
          inst.push_back(t[0]);
          RUNNER_CUDA_CHECK(cudaMemcpy(records.data(), rec, sizeof(BlockRecord) * blocks,
                                       cudaMemcpyDeviceToHost));
          bad_rec += kit::bad_records(records, prop.multiProcessorCount);
          spans.push_back(kit::makespan_ns({{"pgain", "", records}}) / 1000.0f);
          continue;
        }
        kern.push_back(t[0]);
        pin_work.push_back(t[1]);
        pin.push_back(t[1] + t[2]);
        page_work.push_back(static_cast<float>(pw));
        page.push_back(static_cast<float>(pt));
        tot_pin.push_back(t[0] + t[1] + t[2]);
        tot_page.push_back(static_cast<float>(t[0] + pt));
      }
    }
    std::vector<kit::TimelineLaunch> tl = {{"pgain", "", records}};
    if (rake == 1 || rake == 8 || rake == 64 || rake == 512) {
      const std::string name = "timeline_r" + std::to_string(rake) + ".csv";
      std::ofstream out =
          kit::open_csv(opt.out_dir, name, "streamcluster.timeline", opt.device, prop);
      runner::MetaWriter meta(out);
      meta.put("rake", rake);
      meta.put("points", points);
      meta.put("dim", dim);
      meta.put("centers", k);
      meta.put("launch.0", "pgain blocks=" + std::to_string(blocks) +
                               " threads=" + std::to_string(streamcluster::kThreads) + " stream=0");
      meta.put("source", "last of " + std::to_string(opt.reps) + " instrumented calls");
      meta.put("check", bad + bad_rec == 0 ? "passed" : "FAILED");
      kit::write_timeline_rows(out, tl, "");
      kit::close_csv(out, name);
    }
    if (bad + bad_rec > 0) {
      ++failures;
      std::fprintf(stderr,
                   "streamcluster: R=%d check FAILED: %ld mismatches (%s), %ld bad records\n", rake,
                   bad, first.c_str(), bad_rec);
    }
    using kit::fmt;
    using kit::stats_of;
    const kit::Stats sk = stats_of(kern), stp = stats_of(tot_pin);
    runs << points << ',' << dim << ',' << k << ',' << rake << ',' << tines << ',' << blocks << ','
         << streamcluster::kThreads << ',' << work_bytes << ',' << points << ',' << sk.reps << ','
         << fmt(sk.median) << ',' << fmt(sk.min) << ',' << fmt(sk.max) << ','
         << fmt(stats_of(pin).median) << ',' << fmt(stats_of(pin_work).median) << ','
         << fmt(stats_of(page).median) << ',' << fmt(stats_of(page_work).median) << ','
         << fmt(stp.median) << ',' << fmt(stp.min) << ',' << fmt(stp.max) << ','
         << fmt(stats_of(tot_page).median) << ',' << fmt(stats_of(inst).median) << ','
         << fmt(stats_of(spans).median, 3) << ',' << (bad + bad_rec == 0 ? "passed" : "FAILED")
         << '\n';
    std::printf(
        "streamcluster R=%3d tines=%6d kernel=%8.4f ms d2h pinned=%8.4f pageable=%8.4f "
        "total pinned=%8.4f ms %s\n",
        rake, tines, sk.median, stats_of(pin).median, stats_of(page).median, stp.median,
        bad + bad_rec == 0 ? "ok" : "FAIL");
    std::fflush(stdout);
  }
  kit::close_csv(runs, "runs.csv");
  for (auto& e : ev) RUNNER_CUDA_CHECK(cudaEventDestroy(e));
  for (void* p :
       {static_cast<void*>(d.coord), static_cast<void*>(d.weight), static_cast<void*>(d.cost),
        static_cast<void*>(d.assign), static_cast<void*>(d.center_table),
        static_cast<void*>(d.work), static_cast<void*>(d.switch_flag), static_cast<void*>(rec)}) {
    RUNNER_CUDA_CHECK(cudaFree(p));
  }
  RUNNER_CUDA_CHECK(cudaFreeHost(pinned_work));
  RUNNER_CUDA_CHECK(cudaFreeHost(pinned_flags));
  if (failures > 0) {
    std::fprintf(stderr, "%s streamcluster: %ld R value(s) failed the CPU check\n", kToolName,
                 failures);
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace runner

// `refill-latency` subcommand: how long after a block ends the next block of the same kernel
// starts in the freed slot -> one timeline CSV per case + summary.csv.
//
// Why: the simulator starts a refill at max(t + D, SM's previous start) + a + b * warps and
// releases completions one per 0.595 ns GPU-wide; the placement data (stagger397_bs1024, tiny32)
// cannot tell a fixed completion->dispatch latency from a per-warp launch cost or a GPU-wide
// throughput limit. Three case groups separate them:
//   isolated_bs<T>:  full occupancy, grid = capacity C + C/2; first-wave block of rank r (a fixed
//                    random permutation) ends at origin + 20 us + r * 500 ns (absolute deadline,
//                    origin = the first block's entry), refills spin 20 us: every refill is alone.
//   burst_bs<T>:     full occupancy, grid = 3 C; the whole first wave ends at origin + 6 us (C
//                    slots free at once), every later block spins 2 us.
//   sizes_k<k>:      32-thread blocks limited to k per SM by dynamic shared memory, grid = 5 C,
//                    every block spins 1 us: sustained refill rate vs resident blocks.
// The kernel is the placement instrumented spin kernel (same BlockRecord: %smid, entry and exit
// %globaltimer of thread 0, exit after the final __syncthreads) with three changes: the dynamic
// shared memory is reserved but not touched (a 32-thread block touching 170 KB would take
// microseconds), a duration with bit 31 set is a deadline relative to the launch's first block
// entry instead of the block's own entry (thread 0 claims/reads it with one atomicCAS, then a
// __syncthreads), and the last 300 ns are busy-spun (tighter ends).
// BlockRecord.pad holds the latest warp entry - thread 0's entry (ns): the per-warp launch spread.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "device_probes.h"
#include "placement.h"
#include "runner_common.h"

namespace {

using placement::BlockRecord;
using runner::fmt;

const char* const kHelp =
    "Usage: gpusched-runner refill-latency --out-dir DIR [--device N] [--reps N (default 5)]\n"
    "\n"
    "Instrumented spin launches that measure the delay between a block's end and the start of\n"
    "the block that refills its slot (1 warm-up + N timed repetitions per case):\n"
    "  isolated_bs<T>  T = 32..1024 threads at full occupancy, grid 1.5 x capacity; first-wave\n"
    "                  ends 500 ns apart (absolute deadlines 20 us + rank x 500 ns), refills 20 us\n"
    "  burst_bs<T>     T = 32..1024, grid 3 x capacity; the whole first wave ends at once (6 us\n"
    "                  after the first entry), later blocks 2 us\n"
    "  sizes_k<k>      32-thread blocks, k = 1..32 per SM (dynamic shared memory), grid 5 x\n"
    "                  capacity, all 1 us\n"
    "Writes DIR/<case>.csv (last repetition, placement timeline schema) and DIR/summary.csv\n"
    "(per case and repetition: refill gaps, first-100 gaps, steady refill rate).\n";

constexpr uint32_t kAbsolute = 0x80000000u;  // duration flag: deadline relative to the launch origin
constexpr uint32_t kIsoBaseNs = 20000, kIsoStepNs = 500, kIsoRefillNs = 20000;
constexpr uint32_t kBurstDeadlineNs = 6000, kBurstNs = 2000;
constexpr uint32_t kSizesNs = 1000;

__device__ __forceinline__ void spin_to(unsigned long long deadline) {
  for (;;) {
    const unsigned long long now = runner::read_globaltimer();
    if (now >= deadline) break;
    const unsigned long long left = deadline - now;
    if (left > 2000ull) {
      __nanosleep(500u);
    } else if (left > 300ull) {
      __nanosleep(100u);
    }
  }
}

__global__ void refill_spin_kernel(const uint32_t* __restrict__ duration_ns, BlockRecord* __restrict__ records,
                                   unsigned long long* origin) {
  __shared__ unsigned long long warp_entry[32];
  __shared__ unsigned long long block_origin;
  const unsigned long long t0 = runner::read_globaltimer();
  unsigned int sm = 0;
  if (threadIdx.x == 0) sm = runner::read_smid();
  if ((threadIdx.x & 31u) == 0) warp_entry[threadIdx.x >> 5] = t0;
  const uint32_t d = duration_ns[blockIdx.x];
  unsigned long long deadline = t0 + d;
  if (d & kAbsolute) {
    // Thread 0 alone reads (and, while unset, claims) the launch origin: one CAS per block at
    // most. A CAS per thread (270k on one address) took up to ~100 us and delayed the blocks.
    if (threadIdx.x == 0) {
      unsigned long long o = *reinterpret_cast<volatile unsigned long long*>(origin);
      if (o == 0) {
        o = atomicCAS(origin, 0ull, t0);
        if (o == 0) o = t0;
      }
      block_origin = o;
    }
    __syncthreads();
    deadline = block_origin + (d & ~kAbsolute);
  }
  spin_to(deadline);
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long last = t0;
    const unsigned warps = (blockDim.x + 31u) / 32u;
    for (unsigned w = 0; w < warps; ++w) last = warp_entry[w] > last ? warp_entry[w] : last;
    BlockRecord r;
    r.start_ns = t0;
    r.end_ns = runner::read_globaltimer();  // after the warp scan: retirement follows only the store
    r.smid = sm;
    r.pad = static_cast<unsigned int>(last - t0);
    records[blockIdx.x] = r;
  }
}

int occupancy(int threads, int smem) {
  int blocks = 0;
  RUNNER_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, refill_spin_kernel, threads,
                                                                  static_cast<size_t>(smem)));
  return blocks;
}

struct Case {
  std::string name, group, note, durations;
  int threads = 0, smem = 0, bps = 0, capacity = 0, blocks = 0;
  std::vector<uint32_t> duration_ns;  // per block; kAbsolute flag = deadline after the origin
};

// A case's shape: name, group, block size, dynamic smem, blocks per SM, capacity, grid size.
Case case_of(const std::string& name, const char* group, int threads, int smem, int bps, int capacity,
             int blocks) {
  Case c;
  c.name = name;
  c.group = group;
  c.threads = threads;
  c.smem = smem;
  c.bps = bps;
  c.capacity = capacity;
  c.blocks = blocks;
  return c;
}

std::vector<Case> build_cases(const cudaDeviceProp& prop) {
  const int sms = prop.multiProcessorCount;
  std::vector<Case> cases;
  for (int threads : {32, 64, 128, 256, 512, 1024}) {
    const int bps = occupancy(threads, 0);
    if (bps < 1) continue;
    const int cap = sms * bps;
    Case c = case_of("isolated_bs" + std::to_string(threads), "isolated", threads, 0, bps, cap, cap + cap / 2);
    c.note = "first-wave ends 500 ns apart in a random order; each refill happens alone";
    c.durations = "blocks 0..capacity-1: end at origin + 20us + rank * 500ns (rank: std::mt19937(" +
                  std::to_string(threads) + ") shuffle); later blocks: 20us each";
    std::vector<uint32_t> rank(static_cast<size_t>(cap));
    std::iota(rank.begin(), rank.end(), 0u);
    std::mt19937 rng(static_cast<uint32_t>(threads));
    std::shuffle(rank.begin(), rank.end(), rng);
    for (int i = 0; i < c.blocks; ++i)
      c.duration_ns.push_back(i < cap ? kAbsolute | (kIsoBaseNs + rank[static_cast<size_t>(i)] * kIsoStepNs)
                                      : kIsoRefillNs);
    cases.push_back(c);
  }
  for (int threads : {32, 64, 128, 256, 512, 1024}) {
    const int bps = occupancy(threads, 0);
    if (bps < 1) continue;
    const int cap = sms * bps;
    Case c = case_of("burst_bs" + std::to_string(threads), "burst", threads, 0, bps, cap, 3 * cap);
    c.note = "the whole first wave ends at once; C slots free together, then 2 us blocks";
    c.durations = "blocks 0..capacity-1: end at origin + 6us; later blocks: 2us each";
    for (int i = 0; i < c.blocks; ++i) c.duration_ns.push_back(i < cap ? kAbsolute | kBurstDeadlineNs : kBurstNs);
    cases.push_back(c);
  }
  const int smem_sm = static_cast<int>(prop.sharedMemPerMultiprocessor);
  const int reserved = static_cast<int>(prop.reservedSharedMemPerBlock);
  const int static_smem = 33 * static_cast<int>(sizeof(unsigned long long));
  for (int k : {1, 2, 4, 8, 16, 32}) {
    int smem = 0;
    if (k < 32) {
      // A footprint halfway between the largest that fits k + 1 and the largest that fits k.
      const int footprint = (smem_sm / k + smem_sm / (k + 1)) / 2;
      smem = (footprint - reserved - static_smem) / 128 * 128;
      smem = std::min(smem, static_cast<int>(prop.sharedMemPerBlockOptin) - static_smem);
    }
    const int bps = occupancy(32, smem);
    if (bps != k) {
      std::fprintf(stderr, "refill-latency: sizes_k%d left out: %d B dynamic smem gives %d blocks/SM\n", k, smem,
                   bps);
      continue;
    }
    const int cap = sms * k;
    Case c = case_of("sizes_k" + std::to_string(k), "burst_sizes", 32, smem, k, cap, 5 * cap);
    c.note = "32-thread blocks limited to k per SM by dynamic shared memory: sustained refill rate vs k";
    c.durations = "constant 1us (relative to each block's entry)";
    c.duration_ns.assign(static_cast<size_t>(c.blocks), kSizesNs);
    cases.push_back(c);
  }
  return cases;
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const size_t lo = static_cast<size_t>(pos);
  const size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

// Refill matching of one repetition: per SM, blocks in start order; a block whose SM has an
// ended, not yet reused block (end <= its start) refills the earliest-ending one, else it is
// initial. Then GPU-wide statistics.
struct RepStats {
  int initial = 0, refills = 0, max_resident = 0;
  double gap_p10 = 0, gap_p50 = 0, gap_p90 = 0, gap_mean = 0;
  double first100_p10 = 0, first100_p50 = 0, first100_p90 = 0, first100_span_ns = 0;
  double steady_rate = 0;  // refills per us between the 10% and 90% refill (start order)
  double spread_p50 = 0, spread_max = 0;
  double late_p50 = 0, late_max = 0;  // absolute-deadline blocks: end - (first start + deadline)
  unsigned long long makespan = 0;
};

RepStats analyse(const std::vector<BlockRecord>& rec, const std::vector<uint32_t>& dur, int sms) {
  RepStats s;
  std::vector<std::vector<int>> on_sm(static_cast<size_t>(sms));
  unsigned long long t0 = ~0ull, t1 = 0;
  std::vector<double> spread;
  for (size_t i = 0; i < rec.size(); ++i) {
    if (rec[i].smid < static_cast<unsigned>(sms)) on_sm[rec[i].smid].push_back(static_cast<int>(i));
    t0 = std::min(t0, rec[i].start_ns);
    t1 = std::max(t1, rec[i].end_ns);
    spread.push_back(rec[i].pad);
  }
  s.makespan = t1 > t0 ? t1 - t0 : 0;
  struct Refill {
    unsigned long long start;
    double gap;
  };
  std::vector<Refill> refills;
  for (const std::vector<int>& blocks : on_sm) {
    std::vector<int> by_start = blocks, by_end = blocks;
    std::sort(by_start.begin(), by_start.end(), [&](int a, int b) {
      return rec[a].start_ns != rec[b].start_ns ? rec[a].start_ns < rec[b].start_ns : a < b;
    });
    std::sort(by_end.begin(), by_end.end(), [&](int a, int b) {
      return rec[a].end_ns != rec[b].end_ns ? rec[a].end_ns < rec[b].end_ns : a < b;
    });
    size_t matched = 0;
    for (int b : by_start) {
      if (matched < by_end.size() && rec[by_end[matched]].end_ns <= rec[b].start_ns) {
        refills.push_back({rec[b].start_ns, static_cast<double>(rec[b].start_ns - rec[by_end[matched]].end_ns)});
        ++matched;
      } else {
        ++s.initial;
      }
    }
    // Residency: +1 at start, -1 at end (ends first at equal times).
    std::vector<std::pair<unsigned long long, int>> ev;
    for (int b : blocks) {
      ev.push_back({rec[b].start_ns, 1});
      ev.push_back({rec[b].end_ns, -1});
    }
    std::sort(ev.begin(), ev.end());
    int cur = 0;
    for (const auto& e : ev) s.max_resident = std::max(s.max_resident, cur += e.second);
  }
  std::sort(refills.begin(), refills.end(), [](const Refill& a, const Refill& b) { return a.start < b.start; });
  s.refills = static_cast<int>(refills.size());
  std::vector<double> gaps, first;
  for (const Refill& r : refills) gaps.push_back(r.gap);
  for (size_t i = 0; i < refills.size() && i < 100; ++i) first.push_back(refills[i].gap);
  s.gap_p10 = quantile(gaps, 0.1);
  s.gap_p50 = quantile(gaps, 0.5);
  s.gap_p90 = quantile(gaps, 0.9);
  s.gap_mean = gaps.empty() ? 0 : std::accumulate(gaps.begin(), gaps.end(), 0.0) / static_cast<double>(gaps.size());
  s.first100_p10 = quantile(first, 0.1);
  s.first100_p50 = quantile(first, 0.5);
  s.first100_p90 = quantile(first, 0.9);
  if (refills.size() >= 100) s.first100_span_ns = static_cast<double>(refills[99].start - refills[0].start);
  if (refills.size() >= 10) {
    const size_t a = refills.size() / 10, b = refills.size() * 9 / 10;
    const double dt = static_cast<double>(refills[b].start - refills[a].start);
    if (dt > 0) s.steady_rate = 1e3 * static_cast<double>(b - a) / dt;
  }
  std::vector<double> late;
  for (size_t i = 0; i < rec.size() && i < dur.size(); ++i)
    if (dur[i] & kAbsolute)
      late.push_back(static_cast<double>(rec[i].end_ns) - static_cast<double>(t0) - (dur[i] & ~kAbsolute));
  s.late_p50 = quantile(late, 0.5);
  s.late_max = late.empty() ? 0 : *std::max_element(late.begin(), late.end());
  s.spread_p50 = quantile(spread, 0.5);
  s.spread_max = spread.empty() ? 0 : *std::max_element(spread.begin(), spread.end());
  return s;
}

struct CaseOutput {
  std::vector<BlockRecord> last;
  std::vector<float> ms;
  long failures = 0;
  std::string first_failure;
};

CaseOutput run_case(const Case& c, int reps, int sms, std::ofstream& summary) {
  uint32_t* d_dur = nullptr;
  BlockRecord* d_rec = nullptr;
  unsigned long long* d_origin = nullptr;
  const size_t n = static_cast<size_t>(c.blocks);
  RUNNER_CUDA_CHECK(cudaMalloc(&d_dur, sizeof(uint32_t) * n));
  RUNNER_CUDA_CHECK(cudaMalloc(&d_rec, sizeof(BlockRecord) * n));
  RUNNER_CUDA_CHECK(cudaMalloc(&d_origin, sizeof(unsigned long long)));
  RUNNER_CUDA_CHECK(cudaMemcpy(d_dur, c.duration_ns.data(), sizeof(uint32_t) * n, cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  RUNNER_CUDA_CHECK(cudaEventCreate(&start));
  RUNNER_CUDA_CHECK(cudaEventCreate(&stop));
  CaseOutput out;
  std::vector<BlockRecord> rec(n);
  for (int rep = -1; rep < reps; ++rep) {  // rep -1: warm-up
    RUNNER_CUDA_CHECK(cudaMemsetAsync(d_rec, 0xff, sizeof(BlockRecord) * n, 0));
    RUNNER_CUDA_CHECK(cudaMemsetAsync(d_origin, 0, sizeof(unsigned long long), 0));
    RUNNER_CUDA_CHECK(cudaEventRecord(start, 0));
    refill_spin_kernel<<<c.blocks, c.threads, static_cast<size_t>(c.smem), 0>>>(d_dur, d_rec, d_origin);
    RUNNER_CUDA_CHECK(cudaGetLastError());
    RUNNER_CUDA_CHECK(cudaEventRecord(stop, 0));
    RUNNER_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    RUNNER_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    RUNNER_CUDA_CHECK(cudaMemcpy(rec.data(), d_rec, sizeof(BlockRecord) * n, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; ++i) {
      const BlockRecord& x = rec[i];
      const uint32_t d = c.duration_ns[i];
      const bool ok = x.smid < static_cast<unsigned>(sms) && x.end_ns >= x.start_ns &&
                      ((d & kAbsolute) != 0 || 10ull * (x.end_ns - x.start_ns) >= 9ull * d);
      if (ok) continue;
      if (out.failures++ == 0)
        out.first_failure = c.name + " rep " + std::to_string(rep) + " block " + std::to_string(i) +
                            ": smid=" + std::to_string(x.smid) + " start=" + std::to_string(x.start_ns) +
                            " end=" + std::to_string(x.end_ns);
    }
    if (rep < 0) continue;
    out.ms.push_back(ms);
    const RepStats s = analyse(rec, c.duration_ns, sms);
    summary << c.name << ',' << c.group << ',' << rep << ',' << c.threads << ',' << c.threads / 32 << ',' << c.smem
            << ',' << c.bps << ',' << c.capacity << ',' << c.blocks << ',' << fmt(ms, 4) << ',' << s.makespan << ','
            << s.max_resident << ',' << s.initial << ',' << s.refills << ',' << fmt(s.gap_p10, 1) << ','
            << fmt(s.gap_p50, 1) << ',' << fmt(s.gap_p90, 1) << ',' << fmt(s.gap_mean, 1) << ','
            << fmt(s.first100_p10, 1) << ',' << fmt(s.first100_p50, 1) << ',' << fmt(s.first100_p90, 1) << ','
            << fmt(s.first100_span_ns, 0) << ',' << fmt(s.steady_rate, 2) << ',' << fmt(s.spread_p50, 0) << ','
            << fmt(s.spread_max, 0) << ',' << fmt(s.late_p50, 0) << ',' << fmt(s.late_max, 0) << '\n';
    std::printf("refill-latency %-16s rep %d: %.4f ms, refills %d, gap p50 %.0f ns (p10 %.0f, p90 %.0f), first-100 "
                "p50 %.0f ns, steady %.1f blocks/us, resident max %d, warp spread max %.0f ns\n",
                c.name.c_str(), rep, ms, s.refills, s.gap_p50, s.gap_p10, s.gap_p90, s.first100_p50, s.steady_rate,
                s.max_resident, s.spread_max);
    if (s.late_max > 0) std::printf("  deadline lateness p50 %.0f ns, max %.0f ns\n", s.late_p50, s.late_max);
  }
  out.last = rec;
  RUNNER_CUDA_CHECK(cudaEventDestroy(start));
  RUNNER_CUDA_CHECK(cudaEventDestroy(stop));
  RUNNER_CUDA_CHECK(cudaFree(d_dur));
  RUNNER_CUDA_CHECK(cudaFree(d_rec));
  RUNNER_CUDA_CHECK(cudaFree(d_origin));
  return out;
}

void write_timeline(const std::string& path, const Case& c, int reps, int device, const cudaDeviceProp& prop,
                    const placement::TimerProbe& probe, const CaseOutput& r) {
  std::ofstream out(path, std::ios::out | std::ios::trunc);
  if (!out) runner::fatal("cannot open '" + path + "' for writing");
  unsigned long long origin = ~0ull, last_end = 0;
  for (const BlockRecord& x : r.last) {
    origin = std::min(origin, x.start_ns);
    last_end = std::max(last_end, x.end_ns);
  }
  const runner::Stats st = runner::stats_of(r.ms);
  runner::MetaWriter meta(out);
  meta.put("experiment", "refill_latency");
  runner::write_device_metadata(meta, device, prop);
  meta.put("globaltimer_probe", "min_step_ns=" + fmt(probe.min_step_ns, 0) + " mean_step_ns=" +
                                    fmt(probe.mean_step_ns, 2) + " sm_clock_mhz=" + fmt(probe.sm_clock_mhz, 1));
  runner::put_case_shape(meta, c);
  meta.put("static_smem", 33 * sizeof(unsigned long long));
  meta.put("launches", 1);
  meta.put("durations", c.durations);
  meta.put("blocks_per_sm", c.bps);
  meta.put("capacity", c.capacity);
  meta.put("instrumented", 1);
  meta.put("reps", reps);
  meta.put("rep_index", reps - 1);
  meta.put("rep_note", "rows are the last timed repetition (0-based); 1 untimed warm-up first");
  meta.put("time_unit", "integer ns of %globaltimer relative to the earliest block start of the repetition");
  meta.put("dispatch_note", "dispatch is not observable on the GPU: dispatch_ns = start_ns");
  meta.put("start_note", "start = thread 0's %globaltimer at entry; end = thread 0's %globaltimer after the final "
                         "__syncthreads() and a scan of the warps' entry stamps (the record store follows)");
  meta.put("kernel", "refill_spin_kernel (refill_latency_experiment.cu): the placement spin kernel without the "
                     "shared-memory touch, with deadlines relative to the first block's entry for the first wave "
                     "(isolated, burst), busy spin in the last 300 ns, default stream");
  meta.put("run_median_ms", fmt(st.median, 4));
  meta.put("run_min_ms", fmt(st.min, 4));
  meta.put("run_max_ms", fmt(st.max, 4));
  meta.put("makespan_ns", last_end > origin ? last_end - origin : 0);
  meta.put("check", r.failures == 0 ? std::string("ok")
                                     : "FAILED " + std::to_string(r.failures) + " block(s); first: " + r.first_failure);
  meta.put("launch.0", c.name + " blocks=" + std::to_string(c.blocks) + " threads=" + std::to_string(c.threads) +
                           " stream=0");
  out << "kernel,launch,block,sm,dispatch_ns,start_ns,end_ns\n";
  char line[160];
  for (size_t k = 0; k < r.last.size(); ++k) {
    const BlockRecord& x = r.last[k];
    const unsigned long long s = x.start_ns - origin;
    std::snprintf(line, sizeof(line), "%s,0,%zu,%u,%llu,%llu,%llu\n", c.name.c_str(), k, x.smid, s, s,
                  x.end_ns - origin);
    out << line;
  }
  out.flush();
  if (!out) runner::fatal("error while writing '" + path + "'");
}

}  // namespace

namespace runner {

int refill_latency_main(int argc, char** argv) {
  CommonOptions options;
  options.reps = 5;
  if (!parse_common_options("refill-latency", kHelp, argc, argv, &options)) return kExitOk;
  const cudaDeviceProp prop = select_device(options.device);
  const int sms = prop.multiProcessorCount;
  RUNNER_CUDA_CHECK(cudaFuncSetAttribute(refill_spin_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(prop.sharedMemPerBlockOptin) - 512));
  RUNNER_CUDA_CHECK(cudaFuncSetAttribute(refill_spin_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                         static_cast<int>(cudaSharedmemCarveoutMaxShared)));
  const placement::TimerProbe probe = placement::probe_globaltimer(200000);
  const std::vector<Case> cases = build_cases(prop);

  const std::string summary_path = options.out_dir + "/summary.csv";
  std::ofstream summary(summary_path);
  if (!summary) fatal("cannot write " + summary_path);
  MetaWriter meta(summary);
  meta.put("experiment", "refill_latency");
  write_device_metadata(meta, options.device, prop);
  meta.put("globaltimer_probe", "min_step_ns=" + fmt(probe.min_step_ns, 0) + " mean_step_ns=" +
                                    fmt(probe.mean_step_ns, 2) + " sm_clock_mhz=" + fmt(probe.sm_clock_mhz, 1));
  meta.put("reps", options.reps);
  meta.put("matching", "per SM, blocks in start order; a block refills the earliest-ending not yet reused block of "
                       "its SM with end <= its start (gap = start - that end), else it is initial");
  meta.put("columns", "run_ms: CUDA events around the launch; makespan_ns: last end - first start; max_resident: most "
                      "blocks resident on one SM at once; gap_*: over all refills (ns); first100_*: gaps of the first "
                      "100 refills in start order, span = 100th - 1st refill start (ns); steady_rate: refills per us "
                      "between the 10% and the 90% refill in start order; warp_spread_*: latest warp entry - "
                      "thread 0 entry per block (ns); deadline_late_*: first-wave blocks with an absolute deadline, "
                      "end - (earliest start + deadline) (ns; empty cases 0)");
  summary << "case,group,rep,threads,warps,smem,blocks_per_sm,capacity,blocks,run_ms,makespan_ns,max_resident,"
             "initial,refills,gap_p10_ns,gap_p50_ns,gap_p90_ns,gap_mean_ns,first100_p10_ns,first100_p50_ns,"
             "first100_p90_ns,first100_span_ns,steady_rate_per_us,warp_spread_p50_ns,warp_spread_max_ns,deadline_late_p50_ns,"
             "deadline_late_max_ns\n";
  long failures = 0;
  std::string first_failure;
  for (const Case& c : cases) {
    const CaseOutput r = run_case(c, options.reps, sms, summary);
    write_timeline(options.out_dir + "/" + c.name + ".csv", c, options.reps, options.device, prop, probe, r);
    if (r.failures > 0 && failures == 0) first_failure = r.first_failure;
    failures += r.failures;
  }
  summary.flush();
  if (!summary) fatal("error while writing " + summary_path);
  if (failures > 0)
    fatal("refill-latency: " + std::to_string(failures) + " block record(s) failed the check, first: " + first_failure);
  std::printf("refill-latency: %zu cases -> %s\n", cases.size(), options.out_dir.c_str());
  return kExitOk;
}

}  // namespace runner

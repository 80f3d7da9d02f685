// `walk-state` subcommand: how the block distributor's first-wave "walk" position moves between launches -> CSVs.
//
// Why: on the H100 the first wave of a launch goes to a lead group L (8 SMs, rotated by
// `lead_start`) and then to a cycle of 8 SM rows A..H starting at row `start_row`; both move
// between launches in ways the simulator does not know. This experiment runs short sequences of
// instrumented spin launches (the `placement` kernel: per block %smid, entry and exit
// %globaltimer) -- back to back, with cudaDeviceSynchronize or a host sleep between launches,
// after launches of k blocks, after cudaMemsetAsync -- and writes per launch (lead_start,
// start_row) as read from blocks 0 and 8, and the whole block->SM map, so a rule that predicts
// the walk position from the previous launches can be tested (validation/scripts/
// analyze-walk-state.py). Every sequence starts after an H2D cudaMemcpy (copy engine, no kernel)
// that poisons the record buffer, and a cudaDeviceSynchronize; sequences run in a fixed order
// and `launch` numbers all launches of the process, so state carried across sequences is visible.
// Writes DIR/launches.csv (one row per launch) and DIR/maps.csv (block->SM map of every launch,
// block start offsets for the launches that are not the 132 x 1024 probe).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "placement.h"
#include "runner_common.h"

namespace {

const char* const kHelp =
    "Usage: gpusched-runner walk-state --out-dir DIR [--device N] [--reps N (default 5)]\n"
    "\n"
    "Sequences of instrumented spin launches (probe P = SMs x 1024 threads, 2 us per block):\n"
    "16 x P back to back / with cudaDeviceSynchronize / with a 200 us host sleep between; k\n"
    "blocks x 1024 threads then P, P (with and without sync between); k x 32 threads then P, P;\n"
    "cudaMemsetAsync 1 MiB or 64 MiB then P, P; k x 1024 threads at 5 us (several waves) then P,\n"
    "P; a fixed pseudo-random mix of 40 launch shapes and gaps. Each sequence runs --reps\n"
    "times. Per launch: lead_start / start_row of the first-wave walk (from the SMs of blocks 0\n"
    "and 8), block->SM map hash and first 32 SMs.\n"
    "Writes DIR/launches.csv and DIR/maps.csv (full block->SM maps). Needs 132 SMs (H100).\n";

// The walk measured on the H100 (132 SMs): lead group, then rows A..H cyclically.
const std::vector<int> kLead = {124, 125, 126, 127, 128, 129, 130, 131};
const std::vector<std::vector<int>> kRows = {
    {0, 1, 16, 17, 32, 33, 48, 49},
    {2, 3, 18, 19, 34, 35, 50, 51, 64, 65, 78, 79, 92, 93, 106, 107},
    {4, 5, 20, 21, 36, 37, 52, 53, 66, 67, 80, 81, 94, 95, 108, 109},
    {6, 7, 22, 23, 38, 39, 54, 55, 68, 69, 82, 83, 96, 97, 110, 111},
    {8, 9, 24, 25, 40, 41, 56, 57, 70, 71, 84, 85, 98, 99, 112, 113},
    {10, 11, 26, 27, 42, 43, 58, 59, 72, 73, 86, 87, 100, 101, 114, 115},
    {12, 13, 28, 29, 44, 45, 60, 61, 74, 75, 88, 89, 102, 103, 116, 117, 120, 121},
    {14, 15, 30, 31, 46, 47, 62, 63, 76, 77, 90, 91, 104, 105, 118, 119, 122, 123},
};
constexpr int kWalkSms = 132;

// The first 132 SMs of the walk for (lead_start, start_row).
std::vector<int> walk_order(int lead_start, int start_row) {
  std::vector<int> w;
  for (int i = 0; i < 8; ++i) w.push_back(kLead[static_cast<size_t>((lead_start + i) % 8)]);
  for (int r = 0; r < 8; ++r)
    for (int sm : kRows[static_cast<size_t>((start_row + r) % 8)]) w.push_back(sm);
  return w;
}

enum class OpKind { kLaunch, kSync, kSleep, kMemset };

struct Op {
  OpKind kind;
  int blocks = 0, threads = 0;  // launch
  int spin_ns = 0;              // launch: per-block spin
  size_t bytes = 0;             // memset
  int sleep_us = 0;             // sleep
};

struct Sequence {
  std::string name;
  std::vector<Op> ops;
};

Op launch(int blocks, int threads, int spin_ns) { return {OpKind::kLaunch, blocks, threads, spin_ns, 0, 0}; }
Op sync_op() { return {OpKind::kSync, 0, 0, 0, 0, 0}; }
Op sleep_op(int us) { return {OpKind::kSleep, 0, 0, 0, 0, us}; }
Op memset_op(size_t bytes) { return {OpKind::kMemset, 0, 0, 0, bytes, 0}; }

constexpr int kProbeThreads = 1024;
constexpr int kProbeSpinNs = 2000;
constexpr int kRefillSpinNs = 5000;
constexpr int kSleepUs = 200;

std::vector<Sequence> build_sequences(int sms) {
  const Op p = launch(sms, kProbeThreads, kProbeSpinNs);
  std::vector<Sequence> s;
  {
    Sequence b2b{"a_b2b16", {}}, syn{"a_sync16", {}}, slp{"a_sleep16", {}};
    for (int i = 0; i < 16; ++i) {
      if (i > 0) syn.ops.push_back(sync_op());
      if (i > 0) slp.ops.push_back(sleep_op(kSleepUs));
      b2b.ops.push_back(p);
      syn.ops.push_back(p);
      slp.ops.push_back(p);
    }
    s.push_back(b2b);
    s.push_back(syn);
    s.push_back(slp);
  }
  const int ks[] = {1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 17, 24, 32, 40, 64, 100, 124, 131, 132, 133, 140,
                    200, 263, 264, 265, 300, 396, 397, 528};
  for (int with_sync = 0; with_sync < 2; ++with_sync) {
    for (int k : ks) {
      Sequence q{"b_k" + std::to_string(k) + (with_sync ? "_sync" : "_nosync"), {}};
      q.ops.push_back(launch(k, kProbeThreads, kProbeSpinNs));
      if (with_sync) q.ops.push_back(sync_op());
      q.ops.push_back(p);
      if (with_sync) q.ops.push_back(sync_op());
      q.ops.push_back(p);
      s.push_back(q);
    }
  }
  for (int k : {132, 4224, 4225})
    s.push_back({"c_t32_k" + std::to_string(k), {launch(k, 32, kProbeSpinNs), p, p}});
  s.push_back({"d_memset1M", {memset_op(size_t{1} << 20), p, p}});
  s.push_back({"d_memset64M", {memset_op(size_t{64} << 20), p, p}});
  for (int k : {265, 397, 1000})
    s.push_back({"e_k" + std::to_string(k) + "_5us", {launch(k, kProbeThreads, kRefillSpinNs), p, p}});
  // A fixed pseudo-random mix (out-of-sample test of a rule): 40 launches of varied shapes, each
  // preceded by nothing, cudaDeviceSynchronize or a host sleep.
  struct Shape {
    int blocks, threads;
  };
  const Shape shapes[] = {{1, 1024},   {2, 1024},  {3, 1024},  {5, 1024},  {9, 1024},   {12, 1024},
                          {40, 1024},  {132, 1024}, {200, 1024}, {264, 1024}, {265, 1024}, {300, 1024},
                          {528, 1024}, {100, 256}, {1056, 256}, {1057, 256}, {2000, 256}, {132, 1024}};
  std::mt19937 rng(12345);
  Sequence mix{"f_mix40", {}};
  for (int i = 0; i < 40; ++i) {
    const Shape& sh = shapes[rng() % (sizeof(shapes) / sizeof(shapes[0]))];
    const unsigned gap = rng() % 3;
    if (i > 0 && gap == 1) mix.ops.push_back(sync_op());
    if (i > 0 && gap == 2) mix.ops.push_back(sleep_op(kSleepUs));
    mix.ops.push_back(launch(sh.blocks, sh.threads, kProbeSpinNs));
  }
  s.push_back(mix);
  return s;
}

uint64_t fnv1a(const std::vector<unsigned>& v) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned x : v) {
    for (int b = 0; b < 4; ++b) {
      h ^= (x >> (8 * b)) & 0xffu;
      h *= 1099511628211ull;
    }
  }
  return h;
}

int index_of(const std::vector<int>& v, int x) {
  const auto it = std::find(v.begin(), v.end(), x);
  return it == v.end() ? -1 : static_cast<int>(it - v.begin());
}

struct Buffers {
  uint32_t* dur2 = nullptr;  // kProbeSpinNs per block
  uint32_t* dur5 = nullptr;  // kRefillSpinNs per block
  placement::BlockRecord* records = nullptr;
  size_t record_slots = 0;
  void* scratch = nullptr;  // memset target
  size_t scratch_bytes = 0;
};

struct Writers {
  std::ofstream& launches;
  std::ofstream& maps;
  long launch_index = 0;
  long bad_blocks = 0;
  std::string first_bad;
};

// Runs one sequence: poison records (H2D copy), synchronise, issue the ops, synchronise, read back.
void run_sequence(const Sequence& seq, int rep, int sm_count, const Buffers& b, Writers& w) {
  std::vector<size_t> offset;
  size_t total = 0;
  for (const Op& op : seq.ops)
    if (op.kind == OpKind::kLaunch) {
      offset.push_back(total);
      total += static_cast<size_t>(op.blocks);
    }
  if (total > b.record_slots) runner::fatal("walk-state: record buffer too small for " + seq.name);
  const std::vector<unsigned char> poison(sizeof(placement::BlockRecord) * total, 0xff);
  RUNNER_CUDA_CHECK(cudaMemcpy(b.records, poison.data(), poison.size(), cudaMemcpyHostToDevice));
  RUNNER_CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<std::string> preceded;  // per launch: ops since the previous launch
  std::vector<int> sync_before;
  std::string pending = "seqstart";
  int pending_sync = 1;
  size_t li = 0;
  for (const Op& op : seq.ops) {
    switch (op.kind) {
      case OpKind::kLaunch:
        placement::launch_spin(true, op.blocks, op.threads, 0, 0, op.spin_ns == kRefillSpinNs ? b.dur5 : b.dur2,
                               b.records + offset[li]);
        preceded.push_back(pending.empty() ? "-" : pending);
        sync_before.push_back(pending_sync);
        pending.clear();
        pending_sync = 0;
        ++li;
        break;
      case OpKind::kSync:
        RUNNER_CUDA_CHECK(cudaDeviceSynchronize());
        pending += pending.empty() ? "sync" : "+sync";
        pending_sync = 1;
        break;
      case OpKind::kSleep:
        std::this_thread::sleep_for(std::chrono::microseconds(op.sleep_us));
        pending += (pending.empty() ? "sleep" : "+sleep") + std::to_string(op.sleep_us) + "us";
        break;
      case OpKind::kMemset: {
        if (op.bytes > b.scratch_bytes) runner::fatal("walk-state: scratch buffer too small");
        RUNNER_CUDA_CHECK(cudaMemsetAsync(b.scratch, 0x5a, op.bytes, 0));
        pending += (pending.empty() ? "memset" : "+memset") + std::to_string(op.bytes >> 20) + "MiB";
        break;
      }
    }
  }
  RUNNER_CUDA_CHECK(cudaDeviceSynchronize());
  RUNNER_CUDA_CHECK(cudaGetLastError());
  std::vector<placement::BlockRecord> rec(total);
  RUNNER_CUDA_CHECK(cudaMemcpy(rec.data(), b.records, sizeof(placement::BlockRecord) * total, cudaMemcpyDeviceToHost));

  unsigned long long seq_t0 = 0, prev_end = 0;
  li = 0;
  for (const Op& op : seq.ops) {
    if (op.kind != OpKind::kLaunch) continue;
    const placement::BlockRecord* r = rec.data() + offset[li];
    const int n = op.blocks;
    std::vector<unsigned> sm(static_cast<size_t>(n));
    unsigned long long t0 = ~0ull, t1 = 0;
    int bad = 0;
    for (int i = 0; i < n; ++i) {
      const placement::BlockRecord& x = r[i];
      const bool ok = x.pad == 0 && x.smid < static_cast<unsigned>(sm_count) && x.end_ns >= x.start_ns &&
                      10ull * (x.end_ns - x.start_ns) >= 9ull * static_cast<unsigned long long>(op.spin_ns);
      if (!ok) {
        if (w.bad_blocks + bad == 0)
          w.first_bad = seq.name + " rep " + std::to_string(rep) + " step " + std::to_string(li) + " block " +
                        std::to_string(i) + " smid=" + std::to_string(x.smid);
        ++bad;
      }
      sm[static_cast<size_t>(i)] = x.smid;
      t0 = std::min(t0, x.start_ns);
      t1 = std::max(t1, x.end_ns);
    }
    w.bad_blocks += bad;
    if (li == 0) seq_t0 = t0;
    const int block0 = static_cast<int>(sm[0]);
    const int block8 = n > 8 ? static_cast<int>(sm[8]) : -1;
    const int lead_start = index_of(kLead, block0);
    int start_row = -1;
    for (size_t rr = 0; rr < kRows.size() && block8 >= 0; ++rr)
      if (kRows[rr][0] == block8) start_row = static_cast<int>(rr);
    // walk_match: 1 when the first min(n, 132) blocks follow walk_order(lead_start, start_row).
    int walk_match = -1;
    if (lead_start >= 0 && (n <= 8 || start_row >= 0)) {
      const std::vector<int> wo = walk_order(lead_start, std::max(start_row, 0));
      walk_match = 1;
      for (int i = 0; i < std::min(n, kWalkSms); ++i)
        if (static_cast<int>(sm[static_cast<size_t>(i)]) != wo[static_cast<size_t>(i)]) walk_match = 0;
    }
    std::string first32;
    for (int i = 0; i < std::min(n, 32); ++i) first32 += (i ? ";" : "") + std::to_string(sm[static_cast<size_t>(i)]);
    char hash[17];
    std::snprintf(hash, sizeof(hash), "%016llx", static_cast<unsigned long long>(fnv1a(sm)));
    w.launches << w.launch_index << ',' << seq.name << ',' << rep << ',' << li << ',' << n << ',' << op.threads << ','
               << op.spin_ns << ',' << runner::fmt((t1 - t0) / 1e3, 3) << ',' << runner::fmt((t0 - seq_t0) / 1e3, 3)
               << ',' << (li == 0 ? std::string("") : runner::fmt((static_cast<double>(t0) - prev_end) / 1e3, 3))
               << ',' << sync_before[li] << ',' << preceded[li] << ',' << lead_start << ',' << start_row << ','
               << block0 << ',' << block8 << ',' << static_cast<int>(sm[static_cast<size_t>(n - 1)]) << ','
               << walk_match << ',' << bad << ',' << hash << ',' << first32 << '\n';
    const bool probe = n == sm_count && op.threads == kProbeThreads;
    w.maps << w.launch_index << ',' << seq.name << ',' << rep << ',' << li << ',' << n << ',' << op.threads << ',';
    for (int i = 0; i < n; ++i) w.maps << (i ? ";" : "") << sm[static_cast<size_t>(i)];
    w.maps << ',';
    if (!probe)
      for (int i = 0; i < n; ++i) w.maps << (i ? ";" : "") << (r[i].start_ns - t0);
    w.maps << '\n';
    prev_end = t1;
    ++w.launch_index;
    ++li;
  }
}

}  // namespace

namespace runner {

int walk_state_main(int argc, char** argv) {
  CommonOptions options;
  options.reps = 5;
  if (!parse_common_options("walk-state", kHelp, argc, argv, &options)) return kExitOk;
  const cudaDeviceProp prop = select_device(options.device);
  const int sms = prop.multiProcessorCount;
  if (sms != kWalkSms)
    fatal("walk-state: the walk (lead group and rows) is the H100's, for 132 SMs; this device has " +
          std::to_string(sms));
  const int bps1024 = placement::blocks_per_sm(true, kProbeThreads, 0);
  const int bps32 = placement::blocks_per_sm(true, 32, 0);
  if (bps1024 < 1) fatal("walk-state: the spin kernel cannot run 1024-thread blocks on this device");
  const std::vector<Sequence> seqs = build_sequences(sms);

  Buffers b;
  int max_blocks = 0;
  for (const Sequence& q : seqs) {
    size_t t = 0;
    for (const Op& op : q.ops)
      if (op.kind == OpKind::kLaunch) {
        t += static_cast<size_t>(op.blocks);
        max_blocks = std::max(max_blocks, op.blocks);
      }
    b.record_slots = std::max(b.record_slots, t);
  }
  const std::vector<uint32_t> d2(static_cast<size_t>(max_blocks), kProbeSpinNs),
      d5(static_cast<size_t>(max_blocks), kRefillSpinNs);
  RUNNER_CUDA_CHECK(cudaMalloc(&b.dur2, sizeof(uint32_t) * d2.size()));
  RUNNER_CUDA_CHECK(cudaMalloc(&b.dur5, sizeof(uint32_t) * d5.size()));
  RUNNER_CUDA_CHECK(cudaMemcpy(b.dur2, d2.data(), sizeof(uint32_t) * d2.size(), cudaMemcpyHostToDevice));
  RUNNER_CUDA_CHECK(cudaMemcpy(b.dur5, d5.data(), sizeof(uint32_t) * d5.size(), cudaMemcpyHostToDevice));
  RUNNER_CUDA_CHECK(cudaMalloc(&b.records, sizeof(placement::BlockRecord) * b.record_slots));
  b.scratch_bytes = size_t{64} << 20;
  RUNNER_CUDA_CHECK(cudaMalloc(&b.scratch, b.scratch_bytes));
  RUNNER_CUDA_CHECK(cudaDeviceSynchronize());

  const std::string launches_path = options.out_dir + "/launches.csv", maps_path = options.out_dir + "/maps.csv";
  std::ofstream launches(launches_path), maps(maps_path);
  if (!launches || !maps) fatal("cannot write " + launches_path + " or " + maps_path);
  MetaWriter meta(launches);
  meta.put("experiment", "walk_state");
  write_device_metadata(meta, options.device, prop);
  meta.put("reps", options.reps);
  meta.put("blocks_per_sm_1024", bps1024);
  meta.put("blocks_per_sm_32", bps32);
  meta.put("kernel", "placement spin kernel (instrumented): thread 0 records %smid and %globaltimer at entry and "
                     "after the final __syncthreads(); every block spins spin_ns; no dynamic shared memory; "
                     "default stream");
  meta.put("walk_lead", "124,125,126,127,128,129,130,131");
  meta.put("walk_rows", "A=0,1,16,17,32,33,48,49 B=2,3,18,19,34,35,50,51,64,65,78,79,92,93,106,107 "
                        "C=4,5,...,108,109 D=6,7,...,110,111 E=8,9,...,112,113 F=10,11,...,114,115 "
                        "G=12,13,...,116,117,120,121 H=14,15,...,118,119,122,123");
  meta.put("order", "warmup (rep -1: 4 x P back to back) once, then for rep in 0..reps-1 every sequence in the "
                    "listed order; before each sequence an H2D cudaMemcpy poisons the records and "
                    "cudaDeviceSynchronize runs (preceded_by=seqstart); after it cudaDeviceSynchronize and a D2H copy");
  meta.put("columns", "launch: index over the whole process; step: launch index in the sequence; duration_us: latest "
                      "block end - earliest block start; start_us: earliest block start relative to step 0's; gap_us: "
                      "earliest start - previous launch's latest end; lead_start: index of block 0's SM in the lead "
                      "group (-1 none); start_row: row (0..7=A..H) whose first SM ran block 8 (-1 none); last_sm: SM of "
                      "the last block; walk_match: first min(blocks,132) blocks follow the walk of (lead_start, "
                      "start_row) (1/0, -1 unidentifiable); bad_blocks: records failing the check; map_hash: FNV-1a of "
                      "the block->SM map; first32: SMs of blocks 0..31");
  launches << "launch,sequence,rep,step,blocks,threads,spin_ns,duration_us,start_us,gap_us,sync_before,preceded_by,"
              "lead_start,start_row,block0_sm,block8_sm,last_sm,walk_match,bad_blocks,map_hash,first32\n";
  MetaWriter mmeta(maps);
  mmeta.put("experiment", "walk_state");
  mmeta.put("columns", "launch/sequence/rep/step as in launches.csv; sms: SM of each block in block order; "
                       "start_ns: block entry - the launch's earliest entry (empty for the 132 x 1024 probe)");
  maps << "launch,sequence,rep,step,blocks,threads,sms,start_ns\n";

  Writers w{launches, maps, 0, 0, std::string()};
  Sequence warm{"warmup", {}};
  for (int i = 0; i < 4; ++i) warm.ops.push_back(launch(sms, kProbeThreads, kProbeSpinNs));
  run_sequence(warm, -1, sms, b, w);
  for (int rep = 0; rep < options.reps; ++rep) {
    for (const Sequence& q : seqs) run_sequence(q, rep, sms, b, w);
    std::printf("walk-state: rep %d done (%ld launches so far)\n", rep, w.launch_index);
  }
  RUNNER_CUDA_CHECK(cudaFree(b.dur2));
  RUNNER_CUDA_CHECK(cudaFree(b.dur5));
  RUNNER_CUDA_CHECK(cudaFree(b.records));
  RUNNER_CUDA_CHECK(cudaFree(b.scratch));
  launches.flush();
  maps.flush();
  if (!launches || !maps) fatal("error while writing " + launches_path + " or " + maps_path);
  if (w.bad_blocks > 0)
    fatal("walk-state: " + std::to_string(w.bad_blocks) + " block record(s) failed the check, first: " + w.first_bad);
  std::printf("walk-state: %ld launches -> %s, %s\n", w.launch_index, launches_path.c_str(), maps_path.c_str());
  return kExitOk;
}

}  // namespace runner

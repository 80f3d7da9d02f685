// Runs one `placement` case on the GPU: timed repetitions, CPU check of every block record.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "placement.h"
#include "runner_common.h"

namespace placement {
namespace {

using runner::stats_of;

// Per-case device buffers and events.
struct Buffers {
  uint32_t* durations = nullptr;
  BlockRecord* records = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
};

// Runs one repetition (all launches of the case); returns its event time in ms. The records are
// poisoned (0xff) before both variants, so the GPU is busy with the same memset when the start
// event is recorded and both timed regions begin the same way (host launch latency hidden).
float run_rep(const Case& c, bool instrumented, const Buffers& b) {
  const size_t rec_bytes = sizeof(BlockRecord) * static_cast<size_t>(c.blocks) * c.launches;
  RUNNER_CUDA_CHECK(cudaMemsetAsync(b.records, 0xff, rec_bytes, 0));
  RUNNER_CUDA_CHECK(cudaEventRecord(b.start, 0));
  for (int l = 0; l < c.launches; ++l) {
    BlockRecord* rec = instrumented ? b.records + static_cast<size_t>(l) * c.blocks : nullptr;
    launch_spin(instrumented, c.blocks, c.threads, c.smem, 0, b.durations, rec);
  }
  RUNNER_CUDA_CHECK(cudaEventRecord(b.stop, 0));
  RUNNER_CUDA_CHECK(cudaEventSynchronize(b.stop));
  RUNNER_CUDA_CHECK(cudaGetLastError());
  float ms = 0;
  RUNNER_CUDA_CHECK(cudaEventElapsedTime(&ms, b.start, b.stop));
  return ms;
}

// CPU check of one repetition: every block has an SM id < sm_count and ran >= 0.9 x its duration
// (a block left unwritten keeps the poison smid 0xffffffff and fails).
void check_records(const Case& c, const std::vector<BlockRecord>& rec, int sm_count, int rep,
                   CaseResult& r) {
  for (size_t k = 0; k < rec.size(); ++k) {
    const int block = static_cast<int>(k % static_cast<size_t>(c.blocks));
    const BlockRecord& x = rec[k];
    const unsigned long long d = r.duration_ns[block];
    const bool ok = x.smid < static_cast<unsigned>(sm_count) && x.end_ns >= x.start_ns &&
                    10ull * (x.end_ns - x.start_ns) >= 9ull * d;
    if (ok) continue;
    if (r.failures++ == 0) {
      r.first_failure = "rep " + std::to_string(rep) + " launch " +
                        std::to_string(k / static_cast<size_t>(c.blocks)) + " block " +
                        std::to_string(block) + ": smid=" + std::to_string(x.smid) +
                        " start=" + std::to_string(x.start_ns) + " end=" +
                        std::to_string(x.end_ns) + " duration_ns=" + std::to_string(d);
    }
  }
}

}  // namespace

CaseResult run_case(const Case& c, int reps, int sm_count) {
  CaseResult r;
  r.bps_instrumented = blocks_per_sm(true, c.threads, c.smem);
  r.bps_plain = blocks_per_sm(false, c.threads, c.smem);
  r.duration_ns.resize(static_cast<size_t>(c.blocks));
  for (int i = 0; i < c.blocks; ++i) {
    r.duration_ns[i] = static_cast<uint32_t>(duration_ps(c, i) / 1000u);
  }
  const size_t n_rec = static_cast<size_t>(c.blocks) * c.launches;
  Buffers b;
  RUNNER_CUDA_CHECK(cudaMalloc(&b.durations, sizeof(uint32_t) * r.duration_ns.size()));
  RUNNER_CUDA_CHECK(cudaMalloc(&b.records, sizeof(BlockRecord) * n_rec));
  RUNNER_CUDA_CHECK(cudaMemcpy(b.durations, r.duration_ns.data(),
                               sizeof(uint32_t) * r.duration_ns.size(), cudaMemcpyHostToDevice));
  RUNNER_CUDA_CHECK(cudaEventCreate(&b.start));
  RUNNER_CUDA_CHECK(cudaEventCreate(&b.stop));

  // Instrumented and plain repetitions alternate, so clock or thermal drift hits both alike.
  std::vector<BlockRecord> rec(n_rec);
  std::vector<std::vector<unsigned int>> maps;  // distinct block->SM maps; maps[0] from rep 0
  std::vector<float> inst_ms, plain_ms;
  for (int rep = -1; rep < reps; ++rep) {  // rep -1 is the warm-up of both variants
    const float ms = run_rep(c, true, b);
    RUNNER_CUDA_CHECK(cudaMemcpy(rec.data(), b.records, sizeof(BlockRecord) * n_rec,
                                 cudaMemcpyDeviceToHost));
    check_records(c, rec, sm_count, rep, r);
    const float plain = run_rep(c, false, b);
    if (rep < 0) continue;
    inst_ms.push_back(ms);
    plain_ms.push_back(plain);
    std::vector<unsigned int> map(n_rec);
    for (size_t k = 0; k < n_rec; ++k) map[k] = rec[k].smid;
    if (std::find(maps.begin(), maps.end(), map) == maps.end()) maps.push_back(map);
    r.same_sm_map += map == maps.front() ? 1 : 0;
    std::vector<int> counts(static_cast<size_t>(c.launches) * static_cast<size_t>(sm_count), 0);
    for (size_t k = 0; k < n_rec; ++k) {
      if (map[k] >= static_cast<unsigned>(sm_count)) continue;
      counts[k / static_cast<size_t>(c.blocks) * static_cast<size_t>(sm_count) + map[k]]++;
    }
    r.rep_counts.push_back(std::move(counts));
  }
  r.distinct_sm_maps = static_cast<int>(maps.size());
  r.inst = stats_of(inst_ms);
  r.plain = stats_of(plain_ms);
  r.last = rec;

  RUNNER_CUDA_CHECK(cudaEventDestroy(b.start));
  RUNNER_CUDA_CHECK(cudaEventDestroy(b.stop));
  RUNNER_CUDA_CHECK(cudaFree(b.records));
  RUNNER_CUDA_CHECK(cudaFree(b.durations));
  return r;
}

}  // namespace placement

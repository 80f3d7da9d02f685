// Helpers shared by the spmv, sssp, streamcluster and apsp-timeline experiments: block records, stats, RNG, CLI, CSV.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "device_probes.h"
#include "runner_common.h"

namespace kit {

// One record per block, written by thread 0 (absolute %globaltimer ns), as in placement.h.
struct BlockRecord {
  unsigned long long start_ns;  // %globaltimer at block entry
  unsigned long long end_ns;    // %globaltimer after the block's final __syncthreads()
  unsigned int smid;            // %smid
  unsigned int pad;
};

using runner::read_globaltimer;
using runner::read_smid;

// Entry half of the instrumentation: thread 0 reads the timer and SM id (no-op when rec is null).
struct BlockProbe {
  unsigned long long t0 = 0;
  unsigned int sm = 0;
  __device__ __forceinline__ void enter(const BlockRecord* rec) {
    if (rec != nullptr && threadIdx.x == 0) {
      t0 = read_globaltimer();
      sm = read_smid();
    }
  }
  // Exit half: a barrier, then thread 0 stores the record of this block.
  __device__ __forceinline__ void leave(BlockRecord* rec) {
    if (rec == nullptr) return;
    __syncthreads();
    if (threadIdx.x == 0) {
      BlockRecord r;
      r.start_ns = t0;
      r.end_ns = read_globaltimer();
      r.smid = sm;
      r.pad = 0;
      rec[blockIdx.x] = r;
    }
  }
};

// splitmix64: the generator behind every input of these experiments (documented in the READMEs).
struct SplitMix64 {
  uint64_t state;
  explicit SplitMix64(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
  uint64_t below(uint64_t n) { return n == 0 ? 0 : next() % n; }  // bias < 2^-40 for our n
};

// cudaMalloc + copy of a host vector (at least one element is allocated, so never null).
template <typename T>
T* to_device(const std::vector<T>& h) {
  T* d = nullptr;
  RUNNER_CUDA_CHECK(cudaMalloc(&d, (h.empty() ? 1 : h.size()) * sizeof(T)));
  if (!h.empty()) {
    RUNNER_CUDA_CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  return d;
}

using runner::fmt;
using runner::Stats;
using runner::stats_of;

// Options common to the three subcommands.
struct Options {
  std::string out_dir;
  int device = 0;
  int reps = 10;
  bool quick = false;
};
// Parses --out-dir DIR, --device N, --reps N (>= 1), --quick; -h prints `help` and exits 0.
Options parse_options(const char* sub, int argc, char** argv, const char* help);

// Creates the directory and opens DIR/name with device metadata and `experiment` written.
std::ofstream open_csv(const std::string& dir, const std::string& name, const char* experiment,
                       int device, const cudaDeviceProp& prop);
void close_csv(std::ofstream& out, const std::string& what);

// cudaFuncGetAttributes of `fn` as "# kernel.<name>.{numRegs,sharedSizeBytes,...}" lines.
void put_kernel_attributes(runner::MetaWriter& meta, const std::string& name, const void* fn);

// One row of a timeline: the launch's records plus its label columns.
struct TimelineLaunch {
  std::string kernel;  // kernel name column
  std::string extra;   // extra columns, already comma-joined ("" if the file has none)
  std::vector<BlockRecord> records;
};
// Writes "kernel,launch,block,sm,dispatch_ns,start_ns,end_ns[,extra_header]" rows, times relative
// to the earliest block start (dispatch_ns = start_ns). Returns the makespan in ns.
unsigned long long write_timeline_rows(std::ostream& out, const std::vector<TimelineLaunch>& l,
                                       const std::string& extra_header);
// Largest end minus smallest start over every record of the launches (0 when there are none).
unsigned long long makespan_ns(const std::vector<TimelineLaunch>& l);
// Queues a one-block kernel that spins for `ns` on `s`, so that the launches and the start event
// queued behind it are already waiting when the GPU reaches them (hides host launch latency).
void gpu_busy(cudaStream_t s, unsigned ns);
// Counts records whose SM id is out of range or whose end precedes the start (poisoned = bad).
long bad_records(const std::vector<BlockRecord>& rec, int sm_count);

}  // namespace kit

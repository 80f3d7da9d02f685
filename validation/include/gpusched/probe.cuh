// gpusched probe: per-block SM and %globaltimer start/end of your own CUDA kernels, written as gpusched's timeline CSV.
//
// Usage: two lines in the kernel (and its Slot parameter), three on the host:
//   __global__ void k(float* x, gpusched::probe::Slot p) { GPUSCHED_PROBE_BEGIN(p); /* body */ GPUSCHED_PROBE_END(p); }
//   gpusched::probe::Recorder rec(grid, block);  k<<<grid, block>>>(x, rec.launch(k, "k"));  rec.write_csv("k.csv");
// then: gpusched simulate --replay k.csv --threads T --regs R --smem S   (the file's "# replay=" line has the numbers)
//
// Header-only; needs only the CUDA runtime and the C++ standard library (C++17).
//
// What is recorded, per block (one thread writes it, thread (0,0,0)):
//   sm        %smid of the block (its SM, 0..sm_count-1).
//   start_ns  %globaltimer when thread (0,0,0) executes GPUSCHED_PROBE_BEGIN, without a barrier:
//             about when the block's first warp starts (later warps of a big block start up to a
//             few hundred ns later; work before BEGIN is not inside the block's time).
//   end_ns    %globaltimer read by thread (0,0,0) right after a __syncthreads() in
//             GPUSCHED_PROBE_END: when the last warp of the block has reached END. Work after END
//             and the block's exit are not inside the block's time.
// Rules: every thread of the block must reach GPUSCHED_PROBE_END (it holds a __syncthreads(): no
// early return before it), once per block; a block that never reaches it has no record and
// write_csv() reports it. The probe adds about 2 timer reads, one barrier and one 24-byte store
// per block.
//
// %globaltimer: a GPU-wide nanosecond clock (comparable across SMs). Its update step depends on
// the GPU and driver: 32 ns was measured on an H100 (validation/data/h100), some older GPUs and
// drivers update it only every 1 us. Blocks shorter than a few steps then have 0-length or
// quantised times; the file's "# globaltimer_min_step_ns=" line gives the smallest gap between
// distinct recorded times (an upper bound of the step). Times in the CSV are integer ns relative
// to the earliest block start in the file.
//
// Several launches (of one grid and block shape) go into one file: Recorder(grid, block, N)
// holds N launches; each launch() takes the next one (column `launch` = 0, 1, ...). write_csv()
// synchronises the device (cudaDeviceSynchronize), copies the records and writes the file with
// the metadata lines `gpusched simulate --replay` and `gpusched validate --timelines` read
// (docs/own-kernels.md). Host-side errors throw std::runtime_error naming the CUDA call.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpusched::probe {

/// One block's record in device memory (written by GPUSCHED_PROBE_END).
struct BlockRecord {
  unsigned long long start_ns;
  unsigned long long end_ns;
  unsigned int sm;
  unsigned int written;  ///< 1 once the block has stored its record
};

/// One launch's records: pass it to the kernel by value (Recorder::launch returns it).
struct Slot {
  BlockRecord* blocks;
  unsigned long long count;  ///< blocks of the launch (records beyond it are not written)
};

/// What GPUSCHED_PROBE_BEGIN keeps until GPUSCHED_PROBE_END (meaningful in thread (0,0,0) only).
struct Stamp {
  unsigned long long start_ns;
  unsigned int sm;
};

__device__ __forceinline__ unsigned long long globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}

__device__ __forceinline__ unsigned int smid() {
  unsigned int s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

__device__ __forceinline__ bool first_thread() { return threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0; }

/// blockIdx as one index: x + gridDim.x * (y + gridDim.y * z).
__device__ __forceinline__ unsigned long long linear_block() {
  return blockIdx.x + static_cast<unsigned long long>(gridDim.x) *
                          (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
}

/// The block's start: thread (0,0,0) reads %globaltimer and %smid (no barrier).
__device__ __forceinline__ Stamp begin() {
  Stamp s{0, 0};
  if (first_thread()) {
    s.start_ns = globaltimer();
    s.sm = smid();
  }
  return s;
}

/// The block's end: a __syncthreads(), then thread (0,0,0) reads %globaltimer and stores the record.
__device__ __forceinline__ void end(Slot slot, const Stamp& s) {
  __syncthreads();
  if (first_thread()) {
    const unsigned long long end_ns = globaltimer();
    const unsigned long long b = linear_block();
    if (b < slot.count) slot.blocks[b] = BlockRecord{s.start_ns, end_ns, s.sm, 1u};
  }
}

namespace detail {

inline void check(cudaError_t e, const char* call) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("gpusched::probe: ") + call + " failed: " + cudaGetErrorString(e));
}

/// A kernel name as one CSV field and one metadata word: anything but [A-Za-z0-9_.:<>+-] becomes '_'.
inline std::string csv_name(const std::string& name) {
  std::string out = name.empty() ? std::string("kernel") : name;
  for (char& c : out) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                    c == '.' || c == ':' || c == '<' || c == '>' || c == '+' || c == '-';
    if (!ok) c = '_';
  }
  return out;
}

inline std::string dims(dim3 d) {
  return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}

}  // namespace detail

/// Device memory for the records of `launches` launches of one grid, and the CSV writer.
class Recorder {
public:
  /// Allocates (and zeroes) records for `launches` launches of `grid` x `block` on the current
  /// device; `dynamic_smem` is the launches' dynamic shared memory (bytes), for the metadata.
  Recorder(dim3 grid, dim3 block, unsigned launches = 1, std::size_t dynamic_smem = 0)
      : grid_(grid), block_(block), launches_(launches), dynamic_smem_(dynamic_smem) {
    blocks_ = static_cast<unsigned long long>(grid.x) * grid.y * grid.z;
    if (blocks_ == 0 || launches == 0 || static_cast<unsigned long long>(block.x) * block.y * block.z == 0)
      throw std::runtime_error("gpusched::probe::Recorder: grid, block and launches must be non-zero");
    detail::check(cudaGetDevice(&device_), "cudaGetDevice");
    const std::size_t bytes = sizeof(BlockRecord) * blocks_ * launches;
    detail::check(cudaMalloc(&records_, bytes), "cudaMalloc");
    detail::check(cudaMemset(records_, 0, bytes), "cudaMemset");
  }
  ~Recorder() { cudaFree(records_); }
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  /// The next launch's slot; `name` goes into the CSV's kernel column. Registers per thread and
  /// static shared memory are read from `kernel` (cudaFuncGetAttributes).
  template <class... Args>
  Slot launch(void (*kernel)(Args...), const std::string& name) {
    cudaFuncAttributes a{};
    detail::check(cudaFuncGetAttributes(&a, reinterpret_cast<const void*>(kernel)), "cudaFuncGetAttributes");
    regs_ = a.numRegs;
    static_smem_ = a.sharedSizeBytes;
    return launch(name);
  }

  /// The next launch's slot, without the kernel's attributes (registers and static shared memory
  /// are then written as 0 unless an earlier launch(kernel, name) read them).
  Slot launch(const std::string& name) {
    if (names_.size() >= launches_)
      throw std::runtime_error("gpusched::probe::Recorder: launch " + std::to_string(names_.size()) +
                               " is beyond the " + std::to_string(launches_) + " launches it was made for");
    names_.push_back(detail::csv_name(name));
    return Slot{records_ + blocks_ * (names_.size() - 1), blocks_};
  }

  /// Launches taken so far.
  [[nodiscard]] unsigned launches() const { return static_cast<unsigned>(names_.size()); }

  /// Waits for the device, copies the records and writes the timeline CSV of every launch taken.
  void write_csv(const std::string& path) const {
    if (names_.empty()) throw std::runtime_error("gpusched::probe::Recorder: no launch to write to '" + path + "'");
    detail::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    std::vector<BlockRecord> rec(blocks_ * names_.size());
    detail::check(cudaMemcpy(rec.data(), records_, sizeof(BlockRecord) * rec.size(), cudaMemcpyDeviceToHost),
                  "cudaMemcpy");
    cudaDeviceProp prop{};
    detail::check(cudaGetDeviceProperties(&prop, device_), "cudaGetDeviceProperties");
    unsigned long long origin = ~0ull;
    std::vector<unsigned long long> times;
    times.reserve(2 * rec.size());
    for (std::size_t i = 0; i < rec.size(); ++i) {
      const BlockRecord& r = rec[i];
      if (r.written != 1u)
        throw std::runtime_error("gpusched::probe: block " + std::to_string(i % blocks_) + " of launch " +
                                 std::to_string(i / blocks_) + " has no record (did every block reach "
                                 "GPUSCHED_PROBE_END, and did the launch run?)");
      if (r.sm >= static_cast<unsigned>(prop.multiProcessorCount) || r.end_ns < r.start_ns)
        throw std::runtime_error("gpusched::probe: block " + std::to_string(i % blocks_) + " of launch " +
                                 std::to_string(i / blocks_) + " has an impossible record (SM " +
                                 std::to_string(r.sm) + ", start " + std::to_string(r.start_ns) + ", end " +
                                 std::to_string(r.end_ns) + ")");
      origin = std::min(origin, r.start_ns);
      times.push_back(r.start_ns);
      times.push_back(r.end_ns);
    }
    std::sort(times.begin(), times.end());
    unsigned long long step = 0;
    for (std::size_t i = 1; i < times.size(); ++i)
      if (times[i] != times[i - 1] && (step == 0 || times[i] - times[i - 1] < step)) step = times[i] - times[i - 1];

    std::ofstream out(path, std::ios::out | std::ios::trunc);
    if (!out) throw std::runtime_error("gpusched::probe: cannot open '" + path + "' for writing");
    write_metadata(out, prop, step);
    out << "kernel,launch,block,sm,dispatch_ns,start_ns,end_ns\n";
    for (std::size_t i = 0; i < rec.size(); ++i) {
      const std::string start = std::to_string(rec[i].start_ns - origin);
      out << names_[i / blocks_] << ',' << i / blocks_ << ',' << i % blocks_ << ',' << rec[i].sm << ',' << start << ','
          << start << ',' << rec[i].end_ns - origin << '\n';
    }
    out.flush();
    if (!out) throw std::runtime_error("gpusched::probe: writing '" + path + "' failed");
  }

private:
  void write_metadata(std::ostream& out, const cudaDeviceProp& prop, unsigned long long step) const {
    const unsigned long long threads = static_cast<unsigned long long>(block_.x) * block_.y * block_.z;
    int runtime = 0, driver = 0;
    cudaRuntimeGetVersion(&runtime);
    cudaDriverGetVersion(&driver);
    out << "# tool=gpusched-probe\n# probe_version=1\n";
    out << "# device=" << prop.name << "\n# device_name=" << prop.name << "\n# device_index=" << device_ << "\n";
    out << "# sm_count=" << prop.multiProcessorCount << "\n# cc=" << prop.major << "." << prop.minor << "\n";
    out << "# runtime_version=" << runtime << "\n# driver_version=" << driver << "\n";
    out << "# kernel=" << names_.front() << "\n# grid=" << detail::dims(grid_) << "\n# block=" << detail::dims(block_)
        << "\n# threads=" << threads << "\n# regs=" << regs_ << "\n# static_smem=" << static_smem_
        << "\n# dynamic_smem=" << dynamic_smem_ << "\n# smem=" << static_smem_ + dynamic_smem_ << "\n";
    out << "# smem_note=smem = static + dynamic shared memory per block (what --smem of simulate --replay takes)\n";
    out << "# blocks_per_launch=" << blocks_ << "\n# launches=" << names_.size() << "\n";
    for (std::size_t l = 0; l < names_.size(); ++l)
      out << "# launch." << l << "=" << names_[l] << " blocks=" << blocks_ << " threads=" << threads
          << " regs=" << regs_ << " smem=" << static_smem_ + dynamic_smem_ << " stream=0\n";
    out << "# globaltimer_min_step_ns=" << step << "\n";
    out << "# time_unit=integer ns of %globaltimer relative to the earliest block start in this file\n";
    out << "# start_note=start = thread (0,0,0)'s %globaltimer at GPUSCHED_PROBE_BEGIN (no barrier)\n";
    out << "# end_note=end = thread (0,0,0)'s %globaltimer after the __syncthreads() of GPUSCHED_PROBE_END\n";
    out << "# dispatch_note=dispatch is not observable on the GPU: dispatch_ns = start_ns\n";
    out << "# replay=gpusched simulate --replay FILE --threads " << threads << " --regs " << regs_ << " --smem "
        << static_smem_ + dynamic_smem_ << "\n";
  }

  dim3 grid_, block_;
  unsigned launches_;
  std::size_t dynamic_smem_;
  unsigned long long blocks_ = 0;
  int device_ = 0;
  BlockRecord* records_ = nullptr;
  std::vector<std::string> names_;
  int regs_ = 0;
  std::size_t static_smem_ = 0;
};

}  // namespace gpusched::probe

/// Start of the probed block: put it first in the kernel body (declares a local variable).
#define GPUSCHED_PROBE_BEGIN(slot) \
  const ::gpusched::probe::Stamp gpusched_probe_stamp_ = ::gpusched::probe::begin(); \
  (void)(slot)
/// End of the probed block: every thread of the block must reach it (it holds a __syncthreads()).
#define GPUSCHED_PROBE_END(slot) ::gpusched::probe::end((slot), gpusched_probe_stamp_)

// `occupancy` subcommand: records cudaOccupancyMaxActiveBlocksPerMultiprocessor for a kernel sweep.
//
// For every kernel below (register ladder via __maxnreg__, plus static __shared__ variants) and
// every block size 32..1024 (step 32), dynamic shared memory size and shared-memory carveout, asks
// the CUDA occupancy API how many blocks fit on one SM and writes one CSV row. The kernels are
// never launched; they exist only to have known, different resource usage. Their register and
// static shared memory use is read back with cudaFuncGetAttributes, never assumed.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "runner_common.h"

namespace {

// ---------------------------------------------------------------------------------------------
// Kernels
// ---------------------------------------------------------------------------------------------

// kAcc independent accumulators stay live across the loop, so the register demand is about
// kAcc + ~12 (pointers, indices, loop state). The sum is stored so nothing is optimised away.
template <int kAcc>
__device__ __forceinline__ void accumulate_body(const float* __restrict__ in,
                                                float* __restrict__ out, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int stride = gridDim.x * blockDim.x;
  const float v0 = tid < n ? in[tid] : 1.0f;
  float acc[kAcc];
#pragma unroll
  for (int i = 0; i < kAcc; ++i) acc[i] = v0 * static_cast<float>(i + 1);
  for (int j = tid; j < n; j += stride) {
    const float v = in[j];
#pragma unroll
    for (int i = 0; i < kAcc; ++i) acc[i] = fmaf(acc[i], v, static_cast<float>(i + 1));
  }
  float s = 0.0f;
#pragma unroll
  for (int i = 0; i < kAcc; ++i) s += acc[i];
  if (tid < n) out[tid] = s;
}

// Register-capped kernel: kAcc is chosen so that ptxas (sm_90, nvcc 13) allocates exactly kMaxRegs;
// other compilers may land a few registers off, which is fine since numRegs is read back.
// ptxas did not honour caps below 24 (nvcc 13, sm_90), hence regfree_kernel for the low end.
template <int kMaxRegs, int kAcc>
__global__ void __maxnreg__(kMaxRegs)
    regcap_kernel(const float* __restrict__ in, float* __restrict__ out, int n) {
  accumulate_body<kAcc>(in, out, n);
}

// Uncapped, minimal kernel for the low end of the register ladder (~15 registers on sm_90).
template <int kAcc>
__global__ void regfree_kernel(const float* __restrict__ in, float* __restrict__ out, int n) {
  accumulate_body<kAcc>(in, out, n);
}

// Static shared memory kernel: fills a kBytes tile, then reads it back in reverse order.
template <int kBytes>
__global__ void smem_kernel(const float* __restrict__ in, float* __restrict__ out, int n) {
  constexpr int kElems = kBytes / static_cast<int>(sizeof(float));
  __shared__ float tile[kElems];
  if (n <= 0) return;
  for (int i = threadIdx.x; i < kElems; i += blockDim.x) {
    tile[i] = in[(blockIdx.x * kElems + i) % n];
  }
  __syncthreads();
  float s = 0.0f;
  for (int i = threadIdx.x; i < kElems; i += blockDim.x) s += tile[kElems - 1 - i];
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n) out[tid] = s;
}

struct KernelSpec {
  const char* name;
  const void* func;
  int maxnreg;       // __maxnreg__ cap, 0 = none
  int accumulators;  // live accumulators in accumulate_body, 0 for smem kernels
};

#define RUNNER_REGCAP(R, A) \
  KernelSpec { "regcap" #R, reinterpret_cast<const void*>(&regcap_kernel<R, A>), R, A }
#define RUNNER_SMEM(NAME, BYTES) \
  KernelSpec { NAME, reinterpret_cast<const void*>(&smem_kernel<BYTES>), 0, 0 }

// Deterministic kernel order = CSV row order. Accumulator counts were tuned with -Xptxas -v for
// sm_90 / nvcc 13.0 so each kernel lands on its cap without spills (regcap48: 4-byte spill).
const std::vector<KernelSpec>& kernel_specs() {
  static const std::vector<KernelSpec> specs = {
      KernelSpec{"regfree", reinterpret_cast<const void*>(&regfree_kernel<1>), 0, 1},
      RUNNER_REGCAP(24, 13),
      RUNNER_REGCAP(32, 21),
      RUNNER_REGCAP(40, 29),
      RUNNER_REGCAP(48, 34),
      RUNNER_REGCAP(56, 48),
      RUNNER_REGCAP(64, 52),
      RUNNER_REGCAP(80, 68),
      RUNNER_REGCAP(96, 84),
      RUNNER_REGCAP(128, 120),
      RUNNER_REGCAP(168, 160),
      RUNNER_REGCAP(255, 247),
      RUNNER_SMEM("smem1k", 1024),
      RUNNER_SMEM("smem10k", 10 * 1024),
      RUNNER_SMEM("smem40k", 40 * 1024),
      RUNNER_SMEM("smem48k", 48 * 1024),  // largest static allocation allowed
  };
  return specs;
}

#undef RUNNER_REGCAP
#undef RUNNER_SMEM

// ---------------------------------------------------------------------------------------------
// Sweep definition
// ---------------------------------------------------------------------------------------------

constexpr int kCarveoutDefault = -1;  // row value meaning "attribute never set for this kernel"
const int kCarveouts[] = {kCarveoutDefault, 0, 25, 50, 100};
// Requested dynamic shared memory sizes; "optin - static" is appended per kernel.
const int kDynamicSmem[] = {0, 1, 1024, 4096, 10000, 32768, 49152, 50000, 100000, 150000, 200000};
// Over-limit probes (static + dynamic > optin), carveout -1 only, at these block sizes.
const int kProbeExcess[] = {1, 1024};
const int kProbeThreads[] = {32, 128, 512, 1024};

struct Row {
  int kernel;  // index into kernel_specs()
  int threads;
  int dynamic_smem;
  int carveout;
  int blocks_per_sm;
};

struct KernelInfo {
  cudaFuncAttributes attr;  // as read before any cudaFuncSetAttribute call
  int dyn_limit;            // sharedMemPerBlockOptin - static smem
  int current_max_dyn;      // current cudaFuncAttributeMaxDynamicSharedMemorySize
};

struct Counts {
  long rows = 0;
  long tolerated_errors = 0;  // over-limit requests for which the occupancy API returned an error
  long over_limit_rows = 0;
};

// Makes the kernel's max-dynamic-smem attribute the default unless `dyn` needs the opt-in.
void set_max_dynamic(const KernelSpec& spec, KernelInfo& info, int dyn) {
  const int wanted = dyn > info.attr.maxDynamicSharedSizeBytes ? info.dyn_limit
                                                               : info.attr.maxDynamicSharedSizeBytes;
  if (wanted == info.current_max_dyn) return;
  RUNNER_CUDA_CHECK(
      cudaFuncSetAttribute(spec.func, cudaFuncAttributeMaxDynamicSharedMemorySize, wanted));
  info.current_max_dyn = wanted;
}

int query_blocks(const KernelSpec& spec, KernelInfo& info, int threads, int dyn,
                 Counts& counts) {
  set_max_dynamic(spec, info, dyn);
  const bool over_limit = dyn > info.dyn_limit || threads > info.attr.maxThreadsPerBlock;
  int blocks = 0;
  const cudaError_t err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks, spec.func, threads, static_cast<size_t>(dyn));
  if (over_limit) counts.over_limit_rows++;
  if (err != cudaSuccess) {
    if (!over_limit) {
      runner::cuda_fail(err, "cudaOccupancyMaxActiveBlocksPerMultiprocessor", __FILE__, __LINE__);
    }
    (void)cudaGetLastError();  // clear the (non-sticky) error so later calls start clean
    counts.tolerated_errors++;
    blocks = 0;
  }
  return blocks;
}

std::vector<int> dynamic_sizes(const KernelInfo& info) {
  std::vector<int> sizes;
  for (int d : kDynamicSmem) {
    if (d <= info.dyn_limit) sizes.push_back(d);
  }
  sizes.push_back(info.dyn_limit);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

// Row order: kernel (table order), carveout (-1 first), dynamic smem ascending, threads ascending.
std::vector<Row> run_sweep(const cudaDeviceProp& prop, std::vector<KernelInfo>& infos,
                           Counts& counts) {
  const auto& specs = kernel_specs();
  const int max_threads = std::min(1024, prop.maxThreadsPerBlock);
  std::vector<Row> rows;
  for (size_t k = 0; k < specs.size(); ++k) {
    const KernelSpec& spec = specs[k];
    KernelInfo& info = infos[k];
    const std::vector<int> sizes = dynamic_sizes(info);
    for (int carveout : kCarveouts) {
      // -1 rows come first, before the carveout attribute is ever touched for this kernel.
      if (carveout != kCarveoutDefault) {
        RUNNER_CUDA_CHECK(cudaFuncSetAttribute(
            spec.func, cudaFuncAttributePreferredSharedMemoryCarveout, carveout));
      }
      for (int dyn : sizes) {
        for (int threads = 32; threads <= max_threads; threads += 32) {
          rows.push_back({static_cast<int>(k), threads, dyn, carveout,
                          query_blocks(spec, info, threads, dyn, counts)});
        }
      }
      if (carveout != kCarveoutDefault) continue;
      for (int excess : kProbeExcess) {
        const int dyn = info.dyn_limit + excess;
        for (int threads : kProbeThreads) {
          rows.push_back({static_cast<int>(k), threads, dyn, carveout,
                          query_blocks(spec, info, threads, dyn, counts)});
        }
      }
    }
  }
  counts.rows = static_cast<long>(rows.size());
  return rows;
}

void write_csv(const std::string& path, int device, const cudaDeviceProp& prop,
               const std::vector<KernelInfo>& infos, const std::vector<Row>& rows,
               const Counts& counts) {
  std::ofstream out(path, std::ios::out | std::ios::trunc);
  if (!out) runner::fatal("cannot open '" + path + "' for writing");
  runner::MetaWriter meta(out);
  meta.put("experiment", "occupancy");
  runner::write_device_metadata(meta, device, prop);
  meta.put("carveout_note", "-1 = cudaFuncAttributePreferredSharedMemoryCarveout never set");
  meta.put("over_limit_note",
           "rows with static+dynamic > sharedMemPerBlockOptin or threads > kernel "
           "maxThreadsPerBlock cannot launch; API errors on them are recorded as blocks_per_sm=0");
  meta.put("rows", counts.rows);
  meta.put("over_limit_rows", counts.over_limit_rows);
  meta.put("occupancy_api_errors", counts.tolerated_errors);
  const auto& specs = kernel_specs();
  for (size_t k = 0; k < specs.size(); ++k) {
    const std::string p = std::string("kernel.") + specs[k].name + ".";
    const cudaFuncAttributes& a = infos[k].attr;
    meta.put(p + "numRegs", a.numRegs);
    meta.put(p + "sharedSizeBytes", a.sharedSizeBytes);
    meta.put(p + "localSizeBytes", a.localSizeBytes);
    meta.put(p + "maxThreadsPerBlock", a.maxThreadsPerBlock);
    meta.put(p + "maxDynamicSharedSizeBytes", a.maxDynamicSharedSizeBytes);
    meta.put(p + "binaryVersion", a.binaryVersion);
    meta.put(p + "ptxVersion", a.ptxVersion);
    meta.put(p + "maxnreg", specs[k].maxnreg);
    meta.put(p + "accumulators", specs[k].accumulators);
  }
  static const char kSchema[] = "kernel,regs,static_smem,threads,dynamic_smem,carveout,blocks_per_sm";
  meta.put("schema", kSchema);
  out << kSchema << '\n';
  for (const Row& r : rows) {
    const cudaFuncAttributes& a = infos[static_cast<size_t>(r.kernel)].attr;
    out << specs[static_cast<size_t>(r.kernel)].name << ',' << a.numRegs << ','
        << a.sharedSizeBytes << ',' << r.threads << ',' << r.dynamic_smem << ',' << r.carveout
        << ',' << r.blocks_per_sm << '\n';
  }
  out.flush();
  if (!out) runner::fatal("error while writing '" + path + "'");
}

void print_help() {
  std::printf(
      "Usage: %s occupancy --out FILE.csv [--device N]\n"
      "\n"
      "Queries cudaOccupancyMaxActiveBlocksPerMultiprocessor for %zu kernels with different\n"
      "register counts and static shared memory, block sizes 32..1024 (step 32), dynamic\n"
      "shared memory sizes from 0 to the opt-in limit and carveouts {-1,0,25,50,100}.\n"
      "Kernels are not launched. Output: '# key=value' metadata lines, then CSV with columns\n"
      "kernel,regs,static_smem,threads,dynamic_smem,carveout,blocks_per_sm.\n"
      "\n"
      "Options:\n"
      "  --out FILE    output CSV path (required)\n"
      "  --device N    CUDA device index (default 0)\n"
      "  -h, --help    show this help\n",
      runner::kToolName, kernel_specs().size());
}

}  // namespace

namespace runner {

int occupancy_main(int argc, char** argv) {
  const char* const sub = "occupancy";
  std::string out_path;
  int device = 0;
  for (int i = 1; i < argc; ++i) {
    const FlagArg flag = split_flag(argv[i]);
    const std::string& arg = flag.name;
    std::string value = flag.value;
    const bool has_inline_value = flag.has_value;
    if (arg == "-h" || arg == "--help") {
      print_help();
      return kExitOk;
    }
    if (arg != "--out" && arg != "--device") usage_error(sub, "unknown option '" + arg + "'");
    if (!has_inline_value) {
      if (i + 1 >= argc) usage_error(sub, "option '" + arg + "' needs a value");
      value = argv[++i];
    }
    if (arg == "--out") {
      if (value.empty()) usage_error(sub, "--out needs a non-empty path");
      out_path = value;
    } else if (!parse_int(value, &device) || device < 0) {
      usage_error(sub, "--device needs a non-negative integer, got '" + value + "'");
    }
  }
  if (out_path.empty()) usage_error(sub, "missing required option --out FILE");

  const auto t0 = std::chrono::steady_clock::now();
  const cudaDeviceProp prop = select_device(device);
  const int optin = static_cast<int>(prop.sharedMemPerBlockOptin);

  std::vector<KernelInfo> infos;
  for (const KernelSpec& spec : kernel_specs()) {
    KernelInfo info{};
    RUNNER_CUDA_CHECK(cudaFuncGetAttributes(&info.attr, spec.func));
    info.dyn_limit = optin - static_cast<int>(info.attr.sharedSizeBytes);
    info.current_max_dyn = info.attr.maxDynamicSharedSizeBytes;
    infos.push_back(info);
  }

  Counts counts;
  const std::vector<Row> rows = run_sweep(prop, infos, counts);
  write_csv(out_path, device, prop, infos, rows, counts);
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("occupancy: wrote %ld rows (%zu kernels, %ld over-limit, %ld API errors) for '%s' "
              "to %s in %.3f s\n",
              counts.rows, kernel_specs().size(), counts.over_limit_rows, counts.tolerated_errors,
              prop.name, out_path.c_str(), secs);
  return kExitOk;
}

}  // namespace runner

// `l2-bandwidth` subcommand: bytes per second the SMs of this run (all, or a green context's) read from L2 -> CSV.
//
// Why: on few SMs (green contexts of K SMs) the simulator lets the SMs draw the whole GPU's L2
// bandwidth; whether one SM, or one GPC, has a limit of its own was never measured. Every block
// reads a buffer that stays in L2 (__ldcg: L2, not L1) `passes` times, grid = SMs x 8 blocks of 256
// threads, timed with CUDA events (median of reps after one warm-up). Buffer sizes 4, 16 and 32 MiB
// (all under the H100's 50 MB L2) and, for comparison, 1 GiB from DRAM. Run it inside partitions
// with the global option: `gpusched-runner --green-sms K l2-bandwidth --out-dir DIR/kK`.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "green_context.h"
#include "runner_common.h"

namespace {

const char* const kHelp =
    "Usage: gpusched-runner [--green-sms K] l2-bandwidth --out-dir DIR [--device N] [--reps N (default 10)]\n"
    "\n"
    "Reads 4, 16 and 32 MiB buffers from L2 (__ldcg) many times and a 1 GiB buffer from DRAM once, with\n"
    "SMs x 8 blocks of 256 threads (SMs: the green context's with --green-sms, else the device's).\n"
    "Writes DIR/l2_bandwidth.csv: bytes read per run, median/min/max ms, GB/s and GB/s per SM.\n";

__global__ void read_kernel(const float4* __restrict__ buf, size_t n, int passes, float* sink) {
  float acc = 0.f;
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (int p = 0; p < passes; ++p)
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
      const float4 v = __ldcg(buf + i);
      acc += v.x + v.y + v.z + v.w;
    }
  if (acc == 1234.5f) sink[0] = acc;  // never true for the zeroed-then-filled buffer; keeps the loads
}

__global__ void fill_kernel(float4* buf, size_t n) {
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    buf[i] = make_float4(1.f, 2.f, 3.f, static_cast<float>(i & 7));
}

}  // namespace

namespace runner {

int l2_bandwidth_main(int argc, char** argv) {
  CommonOptions options;
  if (!parse_common_options("l2-bandwidth", kHelp, argc, argv, &options)) return kExitOk;
  const cudaDeviceProp prop = select_device(options.device);
  const int sms = partition_sm_count() > 0 ? partition_sm_count() : prop.multiProcessorCount;
  const int threads = 256, blocks = sms * 8;
  const std::string path = options.out_dir + "/l2_bandwidth.csv";
  std::ofstream out(path);
  if (!out) fatal("cannot write " + path);
  MetaWriter meta(out);
  meta.put("experiment", "l2_bandwidth");
  write_device_metadata(meta, options.device, prop);
  meta.put("sms", std::to_string(sms));
  meta.put("grid", std::to_string(blocks) + " x " + std::to_string(threads));
  meta.put("timing", "CUDA events around one launch; 1 warm-up, median/min/max over reps");
  out << "where,buffer_bytes,passes,bytes_read,reps,median_ms,min_ms,max_ms,gbps,gbps_per_sm\n";
  float* sink = nullptr;
  RUNNER_CUDA_CHECK(cudaMalloc(&sink, sizeof(float)));
  struct Case { const char* where; size_t bytes; int passes; };
  const std::vector<Case> cases{{"l2", 4u << 20, 400}, {"l2", 16u << 20, 100}, {"l2", 32u << 20, 50},
                                {"dram", size_t{1} << 30, 1}};
  for (const Case& c : cases) {
    float4* buf = nullptr;
    const size_t n = c.bytes / sizeof(float4);
    RUNNER_CUDA_CHECK(cudaMalloc(&buf, c.bytes));
    fill_kernel<<<blocks, threads>>>(buf, n);
    RUNNER_CUDA_CHECK(cudaGetLastError());
    cudaEvent_t a, b;
    RUNNER_CUDA_CHECK(cudaEventCreate(&a));
    RUNNER_CUDA_CHECK(cudaEventCreate(&b));
    std::vector<float> ms;
    for (int r = 0; r <= options.reps; ++r) {
      if (std::string(c.where) == "dram") {  // rewrite it: at most the last 50 MB of 1 GiB stays in L2
        fill_kernel<<<blocks, threads>>>(buf, n);
      }
      RUNNER_CUDA_CHECK(cudaEventRecord(a));
      read_kernel<<<blocks, threads>>>(buf, n, c.passes, sink);
      RUNNER_CUDA_CHECK(cudaEventRecord(b));
      RUNNER_CUDA_CHECK(cudaEventSynchronize(b));
      RUNNER_CUDA_CHECK(cudaGetLastError());
      float t = 0;
      RUNNER_CUDA_CHECK(cudaEventElapsedTime(&t, a, b));
      if (r > 0) ms.push_back(t);
    }
    const Stats st = stats_of(ms);
    const double bytes = static_cast<double>(c.bytes) * c.passes;
    const double gbps = bytes / (st.median * 1e-3) / 1e9;
    out << c.where << ',' << c.bytes << ',' << c.passes << ',' << static_cast<unsigned long long>(bytes) << ','
        << options.reps << ',' << fmt(st.median) << ',' << fmt(st.min) << ',' << fmt(st.max) << ',' << fmt(gbps, 1)
        << ',' << fmt(gbps / sms, 2) << '\n';
    std::printf("l2-bandwidth K=%3d %-4s %5zu MiB x %3d: %8.1f GB/s (%6.2f GB/s per SM)\n", sms, c.where, c.bytes >> 20,
                c.passes, gbps, gbps / sms);
    RUNNER_CUDA_CHECK(cudaEventDestroy(a));
    RUNNER_CUDA_CHECK(cudaEventDestroy(b));
    RUNNER_CUDA_CHECK(cudaFree(buf));
  }
  RUNNER_CUDA_CHECK(cudaFree(sink));
  out.flush();
  if (!out) fatal("error while writing " + path);
  return kExitOk;
}

}  // namespace runner

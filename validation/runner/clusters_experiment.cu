// `clusters` subcommand: thread-block cluster occupancy, the SM -> GPC map and cluster placement.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "runner_common.h"
#include "spin_probe.h"

namespace runner {
namespace {

const char* const kHelp =
    "Usage: gpusched-runner clusters --out-dir DIR [--device N] [--reps N]\n"
    "\n"
    "Thread-block clusters (compute capability 9.0+), with an instrumented spin kernel:\n"
    "  DIR/cluster_occupancy.csv  cudaOccupancyMaxActiveClusters and blocks per SM for cluster\n"
    "                             sizes 1,2,3,4,6,8,16 x threads 32..1024 x dynamic smem sizes\n"
    "  DIR/gpc_map.csv            one or two blocks per SM (227 or 100 KiB smem), clusters of 2..16\n"
    "                             filling the GPU: smem,cluster_size,rep,cluster,rank,sm (SMs of\n"
    "                             one cluster share a GPC)\n"
    "  DIR/timeline_<case>.csv    placement timelines of cluster launches (20 us blocks)\n"
    "--reps N: repetitions of each gpc_map launch (default 10).\n";

const int kClusterSizes[] = {1, 2, 3, 4, 6, 8, 16};
const int kThreads[] = {32, 64, 128, 256, 384, 512, 768, 1024};
const int kSmemKiB[] = {0, 16, 48, 100, 160, 227};

void occupancy_table(const std::string& path, int device, const cudaDeviceProp& prop) {
  std::ofstream os(path);
  if (!os) fatal("cannot write " + path);
  MetaWriter meta(os);
  write_device_metadata(meta, device, prop);
  cudaFuncAttributes attrs{};
  RUNNER_CUDA_CHECK(cudaFuncGetAttributes(&attrs, spin_probe::kernel_address()));
  meta.put("kernel_regs", attrs.numRegs);
  meta.put("kernel_static_smem", attrs.sharedSizeBytes);
  os << "cluster_size,threads,smem,blocks_per_sm,max_active_clusters\n";
  for (int cs : kClusterSizes) {
    for (int t : kThreads) {
      for (int kib : kSmemKiB) {
        const int smem = kib * 1024;
        if (smem > static_cast<int>(prop.sharedMemPerBlockOptin)) continue;
        int bps = 0;
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, spin_probe::kernel_address(), t,
                                                          static_cast<size_t>(smem)) != cudaSuccess) {
          (void)cudaGetLastError();
          bps = -1;
        }
        os << cs << ',' << t << ',' << smem << ',' << bps << ','
           << spin_probe::max_active_clusters(cs, t, smem) << '\n';
      }
    }
  }
}

void gpc_map(const std::string& path, int device, const cudaDeviceProp& prop, int reps) {
  std::ofstream os(path);
  if (!os) fatal("cannot write " + path);
  MetaWriter meta(os);
  write_device_metadata(meta, device, prop);
  // Maximum shared memory: one block per SM; 100 KiB: two.
  os << "smem,cluster_size,rep,cluster,rank,sm\n";
  for (int smem : {static_cast<int>(prop.sharedMemPerBlockOptin), 100 * 1024})
  for (int cs : {2, 3, 4, 6, 8, 16}) {
    const int clusters = spin_probe::max_active_clusters(cs, 128, smem);
    if (clusters <= 0) continue;
    spin_probe::LaunchShape s;
    s.name = "gpcmap";
    s.blocks = clusters * cs;
    s.threads = 128;
    s.smem = smem;
    s.cluster = cs;
    s.durations_ns = {200000};
    spin_probe::DeviceLaunch launch(s);
    for (int rep = 0; rep < reps; ++rep) {
      launch.launch(nullptr);
      RUNNER_CUDA_CHECK(cudaDeviceSynchronize());
      const auto recs = launch.fetch();
      for (int b = 0; b < s.blocks; ++b)
        os << smem << ',' << cs << ',' << rep << ',' << b / cs << ',' << b % cs << ',' << recs[static_cast<size_t>(b)].smid << '\n';
    }
  }
}

struct ClusterCase {
  const char* name;
  int cluster;
  int threads;
  int smem_kib;
  double waves;  // grid = waves x max active clusters x cluster, rounded to whole clusters
};

void placement_cases(const std::string& dir, int device, const cudaDeviceProp& prop) {
  const ClusterCase cases[] = {
      {"c2_t1024_w2.5", 2, 1024, 0, 2.5}, {"c4_t1024_w2.5", 4, 1024, 0, 2.5},
      {"c8_t512_w3", 8, 512, 0, 3.0},     {"c16_t1024_w2", 16, 1024, 0, 2.0},
      {"c2_t256_s100_w3", 2, 256, 100, 3.0}, {"c1_t1024_w2.5", 1, 1024, 0, 2.5},
  };
  for (const ClusterCase& c : cases) {
    const int smem = c.smem_kib * 1024;
    const int active = spin_probe::max_active_clusters(c.cluster, c.threads, smem);
    if (active <= 0) continue;
    spin_probe::LaunchShape s;
    s.name = c.name;
    s.cluster = c.cluster;
    s.threads = c.threads;
    s.smem = smem;
    s.blocks = static_cast<int>(c.waves * active + 0.5) * c.cluster;
    s.durations_ns = {20000};
    spin_probe::DeviceLaunch launch(s);
    launch.launch(nullptr);  // warm-up
    RUNNER_CUDA_CHECK(cudaDeviceSynchronize());
    launch.launch(nullptr);
    RUNNER_CUDA_CHECK(cudaDeviceSynchronize());
    spin_probe::write_timeline(dir + "/timeline_" + c.name + ".csv", device, prop,
                               {{"case", c.name},
                                {"cluster_size", std::to_string(c.cluster)},
                                {"max_active_clusters", std::to_string(active)},
                                {"block_duration", "20us"}},
                               {&launch});
    std::printf("clusters: %-18s %5d blocks, %3d active clusters\n", c.name, s.blocks, active);
  }
}

}  // namespace

int clusters_main(int argc, char** argv) {
  CommonOptions opt;
  if (!parse_common_options("clusters", kHelp, argc, argv, &opt)) return kExitOk;
  const cudaDeviceProp prop = select_device(opt.device);
  if (prop.major < 9) fatal("clusters need compute capability 9.0 or newer");
  spin_probe::prepare_kernel(static_cast<int>(prop.sharedMemPerBlockOptin));
  occupancy_table(opt.out_dir + "/cluster_occupancy.csv", opt.device, prop);
  gpc_map(opt.out_dir + "/gpc_map.csv", opt.device, prop, opt.reps);
  placement_cases(opt.out_dir, opt.device, prop);
  return kExitOk;
}

}  // namespace runner

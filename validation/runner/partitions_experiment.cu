// `partitions` subcommand: which SMs green contexts of K SMs get, alone and side by side, and
// placement timelines of spin kernels inside partitions. Partitions are never destroyed: the
// process ends with them (each holds a context and a stream, a few dozen in all).
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "green_context.h"
#include "runner_common.h"
#include "spin_probe.h"

namespace runner {
namespace {

const char* const kHelp =
    "Usage: gpusched-runner partitions --out-dir DIR [--device N] [--reps N]\n"
    "\n"
    "SM partitions made with the driver's green contexts (cuDevSmResourceSplitByCount,\n"
    "cuGreenCtxCreate), probed with an instrumented spin kernel:\n"
    "  DIR/sm_sets.csv            requested,granted,groups,group,rep,sms: the SMs a partition's\n"
    "                             blocks ran on, for K = 8..128 alone and the device split into\n"
    "                             groups of 16, 32, 64 and 66\n"
    "  DIR/timeline_<case>.csv    1024-thread 20 us blocks, 2.5 waves, inside partitions of 16 and\n"
    "                             64 SMs, and two 64-SM partitions side by side\n"
    "--reps N: probe launches per partition for sm_sets (default 10).\n";

// The SMs the blocks of `blocks` short spin blocks ran on, inside partition `p`.
std::set<unsigned> probe_sms(const Partition& p, int blocks) {
  use_partition(p);
  spin_probe::LaunchShape s;
  s.name = "probe";
  s.blocks = blocks;
  s.threads = 1024;
  s.durations_ns = {5000};
  spin_probe::DeviceLaunch launch(s);
  launch.launch(p.stream);
  RUNNER_CUDA_CHECK(cudaStreamSynchronize(p.stream));
  std::set<unsigned> sms;
  for (const auto& r : launch.fetch()) sms.insert(r.smid);
  return sms;
}

void write_set(std::ostream& os, int requested, int granted, int groups, int group, int rep,
               const std::set<unsigned>& sms) {
  os << requested << ',' << granted << ',' << groups << ',' << group << ',' << rep << ',';
  bool first = true;
  for (unsigned sm : sms) {
    os << (first ? "" : " ") << sm;
    first = false;
  }
  os << '\n';
}

void sm_sets(const std::string& path, int device, const cudaDeviceProp& prop, int reps) {
  std::ofstream os(path);
  if (!os) fatal("cannot write " + path);
  MetaWriter meta(os);
  write_device_metadata(meta, device, prop);
  os << "requested,granted,groups,group,rep,sms\n";
  for (int k = 8; k <= 128; k += 8) {
    std::vector<Partition> parts = split_partitions(device, k, 1);
    std::fprintf(stderr, "partitions: %d SMs requested, %d granted\n", k, parts[0].sm_count);
    for (int rep = 0; rep < reps; ++rep)
      write_set(os, k, parts[0].sm_count, 1, 0, rep, probe_sms(parts[0], 8 * parts[0].sm_count));
    os.flush();
  }
  for (int k : {16, 32, 64, 66}) {
    std::vector<Partition> parts = split_partitions(device, k, prop.multiProcessorCount);
    for (size_t g = 0; g < parts.size(); ++g) {
      write_set(os, k, parts[g].sm_count, static_cast<int>(parts.size()), static_cast<int>(g), 0,
                probe_sms(parts[g], 8 * parts[g].sm_count));
    }
    std::fprintf(stderr, "partitions: split into %zu groups of %d SMs\n", parts.size(), k);
    os.flush();
  }
}

spin_probe::LaunchShape wave_shape(const std::string& name, int sms, int label) {
  spin_probe::LaunchShape s;
  s.name = name;
  s.threads = 1024;
  s.blocks = sms * 2 * 5 / 2;  // 2 blocks of 1024 threads per SM: 2.5 waves
  s.durations_ns = {20000};
  s.stream_label = label;
  return s;
}

void timelines(const std::string& dir, int device, const cudaDeviceProp& prop) {
  for (int k : {16, 64}) {
    std::vector<Partition> parts = split_partitions(device, k, 1);
    use_partition(parts[0]);
    const std::string name = "partition" + std::to_string(k);
    {
      spin_probe::DeviceLaunch launch(wave_shape(name, parts[0].sm_count, 0));
      launch.launch(parts[0].stream);  // warm-up
      launch.launch(parts[0].stream);
      RUNNER_CUDA_CHECK(cudaStreamSynchronize(parts[0].stream));
      spin_probe::write_timeline(dir + "/timeline_" + name + ".csv", device, prop,
                                 {{"case", name}, {"green_sms", std::to_string(parts[0].sm_count)}},
                                 {&launch});
    }
  }
  std::vector<Partition> parts = split_partitions(device, 64, 2);
  std::vector<std::unique_ptr<spin_probe::DeviceLaunch>> launches;
  for (size_t g = 0; g < parts.size(); ++g) {
    use_partition(parts[g]);
    launches.push_back(std::make_unique<spin_probe::DeviceLaunch>(
        wave_shape("side" + std::to_string(g), parts[g].sm_count, static_cast<int>(g))));
  }
  for (int round = 0; round < 2; ++round) {  // warm-up, then the recorded round
    for (size_t g = 0; g < parts.size(); ++g) {
      use_partition(parts[g]);
      launches[g]->launch(parts[g].stream);
    }
    for (size_t g = 0; g < parts.size(); ++g) RUNNER_CUDA_CHECK(cudaStreamSynchronize(parts[g].stream));
  }
  std::vector<const spin_probe::DeviceLaunch*> views;
  for (const auto& l : launches) views.push_back(l.get());
  spin_probe::write_timeline(dir + "/timeline_side_by_side64.csv", device, prop,
                             {{"case", "side_by_side64"}, {"partitions", std::to_string(parts.size())}}, views);
}

}  // namespace

int partitions_main(int argc, char** argv) {
  CommonOptions opt;
  if (!parse_common_options("partitions", kHelp, argc, argv, &opt)) return kExitOk;
  const cudaDeviceProp prop = select_device(opt.device);
  spin_probe::prepare_kernel(static_cast<int>(prop.sharedMemPerBlockOptin));
  sm_sets(opt.out_dir + "/sm_sets.csv", opt.device, prop, opt.reps);
  timelines(opt.out_dir, opt.device, prop);
  std::printf("partitions: wrote %s/sm_sets.csv and 3 timelines\n", opt.out_dir.c_str());
  return kExitOk;
}

}  // namespace runner

// gpusched-runner entry point: dispatches to experiment subcommands (occupancy, placement, ...).
#include <cstdio>
#include <cstring>
#include <string>

#include "runner_common.h"
#include "subcommands.h"

namespace {

const runner::Subcommand kSubcommands[] = {
    {"occupancy", "blocks/SM from the occupancy API over kernels x block sizes x smem x carveout",
     &runner::occupancy_main},
    {"placement", "spin-kernel suite: measured per-block SM/start/end timelines + whole-run times",
     &runner::placement_main},
    {"curves", "APSP min-plus/Floyd-Warshall and series-kernel run-time curves vs size/blocks",
     &runner::curves_main},
    {"spmv", "CSR/ELL/COO/HYB SpMV over the SpMV paper's eight matrices (scaled): .mtx + times",
     &runner::spmv_main},
    {"sssp", "n x SSSP (Crauser's relax/minimum/update) on 1..32 streams: times + timelines",
     &runner::sssp_main},
    {"streamcluster", "streamcluster pgain kernel vs rake size R with timed D2H transfers",
     &runner::streamcluster_main},
    {"series-warps", "series kernel at 32/64 warps per SM x block sizes: per-warp SM, slot, times",
     &runner::series_warps_main},
    {"launch-rate", "N back-to-back launches timed like the curves: host launch interval, GPU gaps",
     &runner::launch_rate_main},
    {"walk-state", "launch sequences: where each launch's first-wave SM walk starts (H100 walk)",
     &runner::walk_state_main},
    {"refill-latency", "spin launches: delay from a block's end to the refill of its slot (isolated/bursts)",
     &runner::refill_latency_main},
    {"apsp-timeline", "APSP min-plus/Floyd-Warshall whole runs queued: per-block SM/start/end of every launch",
     &runner::apsp_timeline_main},
};

void print_help(std::FILE* out) {
  std::fprintf(out,
               "Usage: %s <subcommand> [options]\n"
               "       %s --help | --version\n"
               "\n"
               "Runs validation experiments on a real CUDA GPU and writes CSV files whose\n"
               "'# key=value' header lines describe the device and build.\n"
               "\n"
               "Subcommands:\n",
               runner::kToolName, runner::kToolName);
  for (const auto& sc : kSubcommands) std::fprintf(out, "  %-12s %s\n", sc.name, sc.summary);
  std::fprintf(out,
               "\nRun '%s <subcommand> --help' for the options of a subcommand.\n"
               "Exit status: 0 success, 1 CUDA or I/O failure, 2 usage error.\n",
               runner::kToolName);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    print_help(stderr);
    return runner::kExitUsage;
  }
  const std::string first = argv[1];
  if (first == "--help" || first == "-h" || first == "help") {
    print_help(stdout);
    return runner::kExitOk;
  }
  if (first == "--version") {
    std::printf("%s %s\n", runner::kToolName, runner::kToolVersion);
    return runner::kExitOk;
  }
  if (!first.empty() && first[0] == '-') runner::usage_error(nullptr, "unknown option '" + first + "'");
  for (const auto& sc : kSubcommands) {
    if (first == sc.name) return sc.main(argc - 1, argv + 1);
  }
  runner::usage_error(nullptr, "unknown subcommand '" + first + "'");
}

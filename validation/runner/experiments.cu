// The gpusched-runner experiments: one registration line each (entry points in <name>_experiment.cu).
#include "experiments.h"

namespace runner {

int occupancy_main(int argc, char** argv);
int placement_main(int argc, char** argv);
int curves_main(int argc, char** argv);
int spmv_main(int argc, char** argv);
int sssp_main(int argc, char** argv);
int streamcluster_main(int argc, char** argv);
int series_warps_main(int argc, char** argv);
int launch_rate_main(int argc, char** argv);
int walk_state_main(int argc, char** argv);
int refill_latency_main(int argc, char** argv);
int apsp_timeline_main(int argc, char** argv);
int clusters_main(int argc, char** argv);
int partitions_main(int argc, char** argv);
int concurrency_main(int argc, char** argv);
int kernel_issue_main(int argc, char** argv);
int l2_bandwidth_main(int argc, char** argv);

const std::vector<Experiment>& experiments() {
  static const std::vector<Experiment> list{
      {"occupancy", "blocks/SM from the occupancy API over kernels x block sizes x smem x carveout", &occupancy_main},
      {"placement", "spin-kernel suite: measured per-block SM/start/end timelines + whole-run times", &placement_main},
      {"curves", "APSP min-plus/Floyd-Warshall and series-kernel run-time curves vs size/blocks", &curves_main},
      {"spmv", "CSR/ELL/COO/HYB SpMV over the SpMV paper's eight matrices (scaled): .mtx + times", &spmv_main},
      {"sssp", "n x SSSP (Crauser's relax/minimum/update) on 1..32 streams: times + timelines", &sssp_main},
      {"streamcluster", "streamcluster pgain kernel vs rake size R with timed D2H transfers", &streamcluster_main},
      {"series-warps", "series kernel at 32/64 warps per SM x block sizes: per-warp SM, slot, times",
       &series_warps_main},
      {"launch-rate", "N back-to-back launches timed like the curves: host launch interval, GPU gaps",
       &launch_rate_main},
      {"walk-state", "launch sequences: where each launch's first-wave SM walk starts (H100 walk)", &walk_state_main},
      {"refill-latency", "spin launches: delay from a block's end to the refill of its slot (isolated/bursts)",
       &refill_latency_main},
      {"apsp-timeline", "APSP min-plus/Floyd-Warshall whole runs queued: per-block SM/start/end of every launch",
       &apsp_timeline_main},
      {"clusters", "cluster occupancy table, SM-to-GPC map, cluster launch placement timelines (cc 9.0+)",
       &clusters_main},
      {"partitions", "green-context SM partitions: which SMs each gets, timelines inside partitions",
       &partitions_main},
      {"concurrency", "concurrent kernels on streams of every priority level: per-block timelines",
       &concurrency_main},
      {"kernel-issue", "short kernels from a CUDA graph and from 1..32 streams: kernel start gaps, device-wide rate",
       &kernel_issue_main},
      {"l2-bandwidth", "L2-resident and DRAM read bandwidth of all SMs or a green context's (--green-sms K)",
       &l2_bandwidth_main},
  };
  return list;
}

}  // namespace runner

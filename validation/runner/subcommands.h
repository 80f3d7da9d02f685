// Registry of gpusched-runner subcommands: each experiment file defines one entry point here.
#pragma once

namespace runner {

// A subcommand receives argv with argv[0] set to its own name and returns the process exit code.
using SubcommandMain = int (*)(int argc, char** argv);

struct Subcommand {
  const char* name;
  const char* summary;  // one line, shown by `gpusched-runner --help`
  SubcommandMain main;
};

// occupancy_experiment.cu: cudaOccupancyMaxActiveBlocksPerMultiprocessor sweep -> CSV.
int occupancy_main(int argc, char** argv);

// placement_experiment.cu (+ placement_{cases,run,kernels}.cu): spin-kernel timelines.
int placement_main(int argc, char** argv);

// curves_experiment.cu (+ curves_kernels.cu): APSP and series-kernel run-time curves.
int curves_main(int argc, char** argv);

// spmv_experiment.cu (+ spmv_kernels.cu, spmv_matrices.cu): CSR/ELL/COO/HYB SpMV measurements.
int spmv_main(int argc, char** argv);

// sssp_experiment.cu (+ sssp_kernels.cu): n x SSSP (Crauser) as concurrent kernels on streams.
int sssp_main(int argc, char** argv);

// streamcluster_experiment.cu (+ streamcluster_kernels.cu): pgain kernel vs rake size R.
int streamcluster_main(int argc, char** argv);

// series_warps_experiment.cu: the series kernel with per-warp SM, warp slot and times.
int series_warps_main(int argc, char** argv);

// launch_rate_experiment.cu: back-to-back launches timed with events, per-launch GPU stamps.
int launch_rate_main(int argc, char** argv);

// walk_state_experiment.cu: sequences of spin launches, the first-wave walk position of each.
int walk_state_main(int argc, char** argv);

// refill_latency_experiment.cu: block end -> refill start gaps (isolated refills, bursts, k per SM).
int refill_latency_main(int argc, char** argv);

// apsp_timeline_experiment.cu: per-block timelines of whole queued APSP runs (min-plus, Floyd-Warshall).
int apsp_timeline_main(int argc, char** argv);

// To add an experiment: implement `int <name>_main(int, char**)` in <name>_experiment.cu,
// declare it above, add a row to kSubcommands in main.cu and the file to CMakeLists.txt.

}  // namespace runner

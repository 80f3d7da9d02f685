// Shared declarations of the `placement` experiment: case definitions and spin-kernel launchers.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "runner_common.h"

namespace placement {

// One record per block, written by thread 0 of the instrumented kernel (absolute %globaltimer ns).
struct BlockRecord {
  unsigned long long start_ns;  // %globaltimer at block entry
  unsigned long long end_ns;    // %globaltimer after the final __syncthreads()
  unsigned int smid;            // %smid
  unsigned int pad;
};

// How a case gives each block its duration; same three forms as the `synthetic` generator.
enum class DurationKind { kConstant, kPattern, kUniform };

struct Case {
  std::string name;   // file name stem and `kernel` column value
  std::string group;  // wave, block_size, smem, heterogeneous, tiny, back_to_back
  int blocks = 0;     // grid size of each launch
  int threads = 0;    // threads per block (1-D)
  int smem = 0;       // dynamic shared memory bytes per block
  int launches = 1;   // back-to-back launches per repetition, one timeline
  DurationKind kind = DurationKind::kConstant;
  std::vector<uint64_t> durations_ps;  // constant: {d}; pattern: the list; uniform: {lo, hi}
  uint64_t seed = 1;                   // uniform only
  std::string note;                    // why the case exists, one line
};

// Builds the case list for this device (wave sizes from sm_count, blocks/SM from the occupancy
// API on the instrumented kernel). Cases that cannot run on the device are left out.
std::vector<Case> build_cases(const cudaDeviceProp& prop);

// Duration of block `block` in picoseconds (pure function of the case, as in the simulator).
uint64_t duration_ps(const Case& c, int block);

// "constant 50us", "pattern 20us/40us", "uniform 10us~99us (seed 1)" (simulator wording).
std::string duration_description(const Case& c);

// One-line `gpusched simulate --kernel` spec of one launch of the case.
std::string workload_spec(const Case& c);

// Duration in the largest unit that shows it exactly ("50us", "1500ns", "3ps").
std::string format_duration_ps(uint64_t ps);

// ---- running (placement_run.cu) ----

using runner::Stats;

struct CaseResult {
  int bps_instrumented = 0;  // occupancy API, instrumented kernel
  int bps_plain = 0;         // occupancy API, plain kernel
  Stats inst, plain;         // whole-repetition event times
  int same_sm_map = 0;       // timed repetitions whose block->SM map equals that of rep 0
  int distinct_sm_maps = 0;  // distinct block->SM maps over the timed repetitions
  long failures = 0;         // blocks that failed the CPU check, over all repetitions
  std::string first_failure;
  std::vector<BlockRecord> last;      // records of the last timed repetition
  // Per timed repetition (index = rep): blocks each SM ran, per launch; entry
  // [launch * sm_count + sm]. Blocks with an SM id >= sm_count (failed check) are not counted.
  std::vector<std::vector<int>> rep_counts;
  std::vector<uint32_t> duration_ns;  // per block, as given to the GPU
};

// 1 warm-up + `reps` timed repetitions of the instrumented and the plain kernel (alternating);
// every instrumented repetition is checked on the CPU.
CaseResult run_case(const Case& c, int reps, int sm_count);

// ---- kernels (placement_kernels.cu) ----

// Lets both spin kernels use up to `bytes` of dynamic shared memory.
void set_max_dynamic_smem(int bytes);

// cudaOccupancyMaxActiveBlocksPerMultiprocessor for the instrumented or plain spin kernel.
int blocks_per_sm(bool instrumented, int threads, int smem);

// Launches one grid; `records` may be null for the plain kernel. Checks the launch error.
void launch_spin(bool instrumented, int blocks, int threads, int smem, cudaStream_t stream,
                 const uint32_t* duration_ns, BlockRecord* records);

// %globaltimer resolution and SM clock, read by one thread over about `span_ns`.
struct TimerProbe {
  double min_step_ns = 0;   // smallest non-zero increment seen
  double mean_step_ns = 0;  // span / number of distinct values
  double sm_clock_mhz = 0;  // clock64 cycles / globaltimer ns over the span
  unsigned long long steps = 0;
};
TimerProbe probe_globaltimer(unsigned long long span_ns);

}  // namespace placement

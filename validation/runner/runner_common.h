// Shared helpers for gpusched-runner: CUDA error checking, "# key=value" metadata lines, CLI parsing.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace runner {

constexpr const char* kToolName = "gpusched-runner";
constexpr const char* kToolVersion = "0.1.0";

// Exit codes shared by every subcommand.
constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;  // CUDA error, I/O error, bad device
constexpr int kExitUsage = 2;    // unknown subcommand/flag, missing or malformed argument

// Prints "<file>:<line>: CUDA error <name> (<string>) in <expr>" and exits with kExitFailure.
[[noreturn]] void cuda_fail(cudaError_t err, const char* expr, const char* file, int line);

// Prints "gpusched-runner: error: <msg>" to stderr and exits with kExitFailure.
[[noreturn]] void fatal(const std::string& msg);

// Prints "gpusched-runner[ <sub>]: <msg>" plus a --help hint to stderr and exits with kExitUsage.
[[noreturn]] void usage_error(const char* subcommand, const std::string& msg);

inline void cuda_check(cudaError_t err, const char* expr, const char* file, int line) {
  if (err != cudaSuccess) cuda_fail(err, expr, file, line);
}

// Parses a whole string as a base-10 int; false on junk, empty input or overflow.
bool parse_int(const std::string& text, int* out);

// "--key=value" -> {"--key", "value", true}; any other argument -> {arg, "", false}.
struct FlagArg {
  std::string name;
  std::string value;
  bool has_value = false;
};
FlagArg split_flag(const std::string& arg);

// The options of a subcommand that takes only --out-dir DIR (required), --device N and --reps N
// (1..1000). Returns false after printing `help` for --help/-h; usage errors exit 2.
struct CommonOptions {
  std::string out_dir;
  int device = 0;
  int reps = 10;
};
bool parse_common_options(const char* subcommand, const char* help, int argc, char** argv, CommonOptions* options);

// Median, min and max of repeated timings (ms) and how many there were (all zero when empty).
struct Stats {
  double median = 0, min = 0, max = 0;
  int reps = 0;
};
Stats stats_of(std::vector<float> v);

// A fixed-point number with `digits` decimals, for CSV cells.
std::string fmt(double v, int digits = 5);

// Writes metadata lines "# key=value". Keys must not contain '=', spaces or newlines;
// newlines in values are replaced by spaces so every entry stays on one line.
class MetaWriter {
 public:
  explicit MetaWriter(std::ostream& os) : os_(os) {}

  template <typename T>
  void put(const std::string& key, const T& value) {
    std::ostringstream ss;
    ss << value;
    put_str(key, ss.str());
  }
  void put_str(const std::string& key, std::string value);

 private:
  std::ostream& os_;
};

// Writes tool, build and device metadata shared by all experiments (device name, sm_count, cc,
// driver/runtime versions, every cudaDeviceProp/attribute field relevant to occupancy).
void write_device_metadata(MetaWriter& meta, int device, const cudaDeviceProp& prop);

// Selects `device` (validated against cudaGetDeviceCount) and returns its properties.
cudaDeviceProp select_device(int device);

// The metadata lines every per-case timeline of a spin-kernel experiment starts with.
template <typename Case>
void put_case_shape(MetaWriter& meta, const Case& c) {
  meta.put("case", c.name);
  meta.put("group", c.group);
  meta.put("case_note", c.note);
  meta.put("blocks", c.blocks);
  meta.put("threads", c.threads);
  meta.put("smem", c.smem);
}

}  // namespace runner

// Checks a CUDA runtime call; on failure prints the call, location and error, then exits 1.
#define RUNNER_CUDA_CHECK(expr) ::runner::cuda_check((expr), #expr, __FILE__, __LINE__)

namespace runner {

// A start/stop pair of CUDA events, destroyed with the pair: record `start` and `stop` around the
// timed work, then elapsed_ms() waits for `stop`.
struct EventPair {
  cudaEvent_t start = nullptr, stop = nullptr;
  EventPair() {
    RUNNER_CUDA_CHECK(cudaEventCreate(&start));
    RUNNER_CUDA_CHECK(cudaEventCreate(&stop));
  }
  ~EventPair() {
    cudaEventDestroy(start);  // best effort in a destructor
    cudaEventDestroy(stop);
  }
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;
  float elapsed_ms() {
    RUNNER_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    RUNNER_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    return ms;
  }
};

}  // namespace runner

// Implementation of the shared gpusched-runner helpers: error reporting, metadata, device info.
#include "runner_common.h"

#include "green_context.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <iostream>

#ifndef GPUSCHED_RUNNER_CUDA_ARCHS
#define GPUSCHED_RUNNER_CUDA_ARCHS "unknown"
#endif

namespace runner {

void cuda_fail(cudaError_t err, const char* expr, const char* file, int line) {
  std::fprintf(stderr, "%s: %s:%d: CUDA error %s (%s) in %s\n", kToolName, file, line,
               cudaGetErrorName(err), cudaGetErrorString(err), expr);
  std::exit(kExitFailure);
}

void fatal(const std::string& msg) {
  std::fprintf(stderr, "%s: error: %s\n", kToolName, msg.c_str());
  std::exit(kExitFailure);
}

void usage_error(const char* subcommand, const std::string& msg) {
  if (subcommand != nullptr) {
    std::fprintf(stderr, "%s %s: %s\nTry '%s %s --help'.\n", kToolName, subcommand, msg.c_str(),
                 kToolName, subcommand);
  } else {
    std::fprintf(stderr, "%s: %s\nTry '%s --help'.\n", kToolName, msg.c_str(), kToolName);
  }
  std::exit(kExitUsage);
}

bool parse_int(const std::string& text, int* out) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (errno != 0 || end == nullptr || *end != '\0' || v < INT_MIN || v > INT_MAX) return false;
  *out = static_cast<int>(v);
  return true;
}

void MetaWriter::put_str(const std::string& key, std::string value) {
  for (char& c : value) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  os_ << "# " << key << '=' << value << '\n';
}

cudaDeviceProp select_device(int device) {
  int count = 0;
  RUNNER_CUDA_CHECK(cudaGetDeviceCount(&count));
  if (device < 0 || device >= count) {
    fatal("device " + std::to_string(device) + " out of range (found " + std::to_string(count) +
          " CUDA device(s))");
  }
  RUNNER_CUDA_CHECK(cudaSetDevice(device));
  RUNNER_CUDA_CHECK(cudaFree(nullptr));  // force context creation so later calls see a live device
  // After cudaSetDevice (which makes the primary context current): every later launch of the
  // experiment runs in the partition (green_context.h).
  if (requested_green_sms() > 0) enter_partition(device, requested_green_sms());
  cudaDeviceProp prop{};
  RUNNER_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  return prop;
}

namespace {

int device_attribute(cudaDeviceAttr attr, int device) {
  int value = 0;
  RUNNER_CUDA_CHECK(cudaDeviceGetAttribute(&value, attr, device));
  return value;
}

std::string version_string(int v) {  // 13000 -> "13.0"
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

}  // namespace

void write_device_metadata(MetaWriter& meta, int device, const cudaDeviceProp& prop) {
  int driver = 0;
  int runtime = 0;
  RUNNER_CUDA_CHECK(cudaDriverGetVersion(&driver));
  RUNNER_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));

  meta.put("tool", kToolName);
  meta.put("tool_version", kToolVersion);
  meta.put("build_nvcc_version", std::to_string(__CUDACC_VER_MAJOR__) + "." +
                                     std::to_string(__CUDACC_VER_MINOR__) + "." +
                                     std::to_string(__CUDACC_VER_BUILD__));
  meta.put("build_cuda_architectures", GPUSCHED_RUNNER_CUDA_ARCHS);
  meta.put("device_index", device);
  meta.put("device_name", prop.name);
  meta.put("sm_count", prop.multiProcessorCount);
  if (partition_sm_count() > 0) {
    meta.put("green_sms_requested", requested_green_sms());
    meta.put("green_sms", partition_sm_count());
  }
  meta.put("cc", std::to_string(prop.major) + "." + std::to_string(prop.minor));
  meta.put("driver_version", driver);
  meta.put("driver_version_str", version_string(driver));
  meta.put("runtime_version", runtime);
  meta.put("runtime_version_str", version_string(runtime));

  // cudaDeviceProp fields, keyed by their CUDA field names.
  meta.put("multiProcessorCount", prop.multiProcessorCount);
  meta.put("maxThreadsPerBlock", prop.maxThreadsPerBlock);
  meta.put("maxThreadsPerMultiProcessor", prop.maxThreadsPerMultiProcessor);
  meta.put("maxBlocksPerMultiProcessor", prop.maxBlocksPerMultiProcessor);
  meta.put("regsPerBlock", prop.regsPerBlock);
  meta.put("regsPerMultiprocessor", prop.regsPerMultiprocessor);
  meta.put("warpSize", prop.warpSize);
  meta.put("sharedMemPerBlock", prop.sharedMemPerBlock);
  meta.put("sharedMemPerMultiprocessor", prop.sharedMemPerMultiprocessor);
  meta.put("sharedMemPerBlockOptin", prop.sharedMemPerBlockOptin);
  meta.put("reservedSharedMemPerBlock", prop.reservedSharedMemPerBlock);
  meta.put("l2CacheSize", prop.l2CacheSize);
  meta.put("persistingL2CacheMaxSize", prop.persistingL2CacheMaxSize);
  meta.put("asyncEngineCount", prop.asyncEngineCount);
  meta.put("concurrentKernels", prop.concurrentKernels);
  meta.put("clusterLaunch", prop.clusterLaunch);
  meta.put("totalGlobalMem", prop.totalGlobalMem);
  meta.put("pciDomainID", prop.pciDomainID);
  meta.put("pciBusID", prop.pciBusID);
  meta.put("pciDeviceID", prop.pciDeviceID);

  // Fields removed from cudaDeviceProp in CUDA 13: query them as attributes (kHz / bits).
  meta.put("clockRate", device_attribute(cudaDevAttrClockRate, device));
  meta.put("memoryClockRate", device_attribute(cudaDevAttrMemoryClockRate, device));
  meta.put("memoryBusWidth", device_attribute(cudaDevAttrGlobalMemoryBusWidth, device));
  meta.put("computeMode", device_attribute(cudaDevAttrComputeMode, device));
}

FlagArg split_flag(const std::string& arg) {
  const size_t eq = arg.find('=');
  if (arg.rfind("--", 0) == 0 && eq != std::string::npos) return {arg.substr(0, eq), arg.substr(eq + 1), true};
  return {arg, "", false};
}

bool parse_common_options(const char* subcommand, const char* help, int argc, char** argv, CommonOptions* options) {
  for (int i = 1; i < argc; ++i) {
    const FlagArg f = split_flag(argv[i]);
    const auto value = [&]() -> std::string {
      if (f.has_value) return f.value;
      if (i + 1 >= argc) usage_error(subcommand, f.name + " needs a value");
      return argv[++i];
    };
    if (f.name == "--help" || f.name == "-h") {
      std::printf("%s", help);
      return false;
    } else if (f.name == "--out-dir") {
      options->out_dir = value();
    } else if (f.name == "--device") {
      if (!parse_int(value(), &options->device) || options->device < 0)
        usage_error(subcommand, "--device: expected an integer >= 0");
    } else if (f.name == "--reps") {
      if (!parse_int(value(), &options->reps) || options->reps < 1 || options->reps > 1000)
        usage_error(subcommand, "--reps: expected 1..1000");
    } else {
      usage_error(subcommand, "unknown option '" + f.name + "'");
    }
  }
  if (options->out_dir.empty()) usage_error(subcommand, "--out-dir is required");
  return true;
}

Stats stats_of(std::vector<float> v) {
  Stats s;
  s.reps = static_cast<int>(v.size());
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  s.median = n % 2 == 1 ? v[n / 2] : 0.5 * (static_cast<double>(v[n / 2 - 1]) + v[n / 2]);
  s.min = v.front();
  s.max = v.back();
  return s;
}

std::string fmt(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", digits, v);
  return buf;
}

}  // namespace runner

// Host helpers shared by the spmv, sssp and streamcluster experiments (stats, CLI, CSV, timelines).
#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "workload_kit.h"

namespace kit {

Options parse_options(const char* sub, int argc, char** argv, const char* help) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const runner::FlagArg flag = runner::split_flag(argv[i]);
    const std::string& arg = flag.name;
    std::string value = flag.value;
    if (arg == "-h" || arg == "--help") {
      std::fputs(help, stdout);
      std::exit(runner::kExitOk);
    }
    if (arg == "--quick") {
      if (flag.has_value) runner::usage_error(sub, "--quick takes no value");
      o.quick = true;
      continue;
    }
    if (arg != "--out-dir" && arg != "--device" && arg != "--reps") {
      runner::usage_error(sub, "unknown option '" + arg + "'");
    }
    if (!flag.has_value) {
      if (i + 1 >= argc) runner::usage_error(sub, "option '" + arg + "' needs a value");
      value = argv[++i];
    }
    if (arg == "--out-dir") {
      if (value.empty()) runner::usage_error(sub, "--out-dir needs a non-empty path");
      o.out_dir = value;
    } else if (arg == "--device") {
      if (!runner::parse_int(value, &o.device) || o.device < 0) {
        runner::usage_error(sub, "--device needs a non-negative integer, got '" + value + "'");
      }
    } else if (!runner::parse_int(value, &o.reps) || o.reps < 1) {
      runner::usage_error(sub, "--reps needs a positive integer, got '" + value + "'");
    }
  }
  if (o.out_dir.empty()) runner::usage_error(sub, "missing required option --out-dir DIR");
  std::error_code ec;
  std::filesystem::create_directories(o.out_dir, ec);
  if (ec) runner::fatal("cannot create directory '" + o.out_dir + "': " + ec.message());
  return o;
}

std::ofstream open_csv(const std::string& dir, const std::string& name, const char* experiment,
                       int device, const cudaDeviceProp& prop) {
  const std::string path = dir + "/" + name;
  std::ofstream out(path, std::ios::out | std::ios::trunc);
  if (!out) runner::fatal("cannot open '" + path + "' for writing");
  runner::MetaWriter meta(out);
  meta.put("experiment", experiment);
  runner::write_device_metadata(meta, device, prop);
  return out;
}

void close_csv(std::ofstream& out, const std::string& what) {
  out.flush();
  if (!out) runner::fatal("error while writing " + what);
}

void put_kernel_attributes(runner::MetaWriter& meta, const std::string& name, const void* fn) {
  cudaFuncAttributes a{};
  RUNNER_CUDA_CHECK(cudaFuncGetAttributes(&a, fn));
  meta.put("kernel." + name + ".numRegs", a.numRegs);
  meta.put("kernel." + name + ".sharedSizeBytes", a.sharedSizeBytes);
  meta.put("kernel." + name + ".localSizeBytes", a.localSizeBytes);
  meta.put("kernel." + name + ".maxThreadsPerBlock", a.maxThreadsPerBlock);
}

unsigned long long write_timeline_rows(std::ostream& out, const std::vector<TimelineLaunch>& l,
                                       const std::string& extra_header) {
  unsigned long long origin = ~0ull, last = 0;
  for (const auto& launch : l) {
    for (const auto& r : launch.records) {
      origin = std::min(origin, r.start_ns);
      last = std::max(last, r.end_ns);
    }
  }
  if (origin == ~0ull) origin = 0;
  out << "kernel,launch,block,sm,dispatch_ns,start_ns,end_ns" << (extra_header.empty() ? "" : ",")
      << extra_header << '\n';
  char line[256];
  for (size_t k = 0; k < l.size(); ++k) {
    const TimelineLaunch& launch = l[k];
    for (size_t b = 0; b < launch.records.size(); ++b) {
      const BlockRecord& x = launch.records[b];
      const unsigned long long st = x.start_ns - origin;
      std::snprintf(line, sizeof(line), "%s,%zu,%zu,%u,%llu,%llu,%llu%s%s\n", launch.kernel.c_str(),
                    k, b, x.smid, st, st, x.end_ns - origin, launch.extra.empty() ? "" : ",",
                    launch.extra.c_str());
      out << line;
    }
  }
  return last > origin ? last - origin : 0;
}

unsigned long long makespan_ns(const std::vector<TimelineLaunch>& l) {
  unsigned long long first = ~0ull, last = 0;
  for (const auto& launch : l) {
    for (const auto& r : launch.records) {
      first = std::min(first, r.start_ns);
      last = std::max(last, r.end_ns);
    }
  }
  return last > first ? last - first : 0;
}

namespace {

__global__ void busy_kernel(unsigned long long ns) {
  const unsigned long long t0 = read_globaltimer();
  while (read_globaltimer() - t0 < ns) __nanosleep(200);
}

}  // namespace

void gpu_busy(cudaStream_t s, unsigned ns) {
  busy_kernel<<<1, 32, 0, s>>>(ns);
  RUNNER_CUDA_CHECK(cudaGetLastError());
}

long bad_records(const std::vector<BlockRecord>& rec, int sm_count) {
  long bad = 0;
  for (const BlockRecord& x : rec) {
    if (x.smid >= static_cast<unsigned>(sm_count) || x.end_ns < x.start_ns) ++bad;
  }
  return bad;
}

}  // namespace kit

// `placement` subcommand: spin-kernel suite -> one measured timeline CSV per case + runs.csv.
//
// Every case is one launch configuration (placement_cases.cu). It is run with 1 warm-up and
// --reps timed repetitions of the instrumented kernel (CUDA events around each repetition; a
// repetition is `launches` back-to-back launches), every repetition's block records are checked
// on the CPU, and the last one is written as DIR/<case>.csv in the simulator's timeline schema.
// The plain (uninstrumented) kernel is timed the same way, alternating with the instrumented
// repetitions, to measure the overhead (placement_run.cu).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "placement.h"
#include "runner_common.h"

namespace {

using placement::BlockRecord;
using placement::Case;
using placement::CaseResult;

using runner::fmt;

std::string probe_text(const placement::TimerProbe& p) {
  return "min_step_ns=" + fmt(p.min_step_ns, 0) + " mean_step_ns=" +
         fmt(p.mean_step_ns, 2) + " sm_clock_mhz=" + fmt(p.sm_clock_mhz, 1);
}

// Summary of the last repetition: makespan (ns) and the spread of blocks over SMs.
struct Shape {
  unsigned long long origin = 0, makespan = 0;
  int sms_used = 0, min_per_sm = 0, max_per_sm = 0;
};

Shape shape_of(const std::vector<BlockRecord>& rec, int sm_count) {
  Shape s;
  s.origin = ~0ull;
  unsigned long long last_end = 0;
  std::vector<int> per_sm(static_cast<size_t>(sm_count), 0);
  for (const BlockRecord& x : rec) {
    s.origin = std::min(s.origin, x.start_ns);
    last_end = std::max(last_end, x.end_ns);
    if (x.smid < static_cast<unsigned>(sm_count)) per_sm[x.smid]++;
  }
  if (rec.empty()) s.origin = 0;
  s.makespan = last_end > s.origin ? last_end - s.origin : 0;
  s.min_per_sm = *std::min_element(per_sm.begin(), per_sm.end());
  s.max_per_sm = *std::max_element(per_sm.begin(), per_sm.end());
  for (int n : per_sm) s.sms_used += n > 0 ? 1 : 0;
  return s;
}

void write_timeline(const std::string& path, const Case& c, int reps, int device,
                    const cudaDeviceProp& prop, const placement::TimerProbe& probe,
                    const CaseResult& r) {
  std::ofstream out(path, std::ios::out | std::ios::trunc);
  if (!out) runner::fatal("cannot open '" + path + "' for writing");
  const Shape s = shape_of(r.last, prop.multiProcessorCount);
  runner::MetaWriter meta(out);
  meta.put("experiment", "placement");
  runner::write_device_metadata(meta, device, prop);
  meta.put("globaltimer_probe", probe_text(probe));
  runner::put_case_shape(meta, c);
  meta.put("launches", c.launches);
  meta.put("durations", placement::duration_description(c));
  meta.put("workload_spec", placement::workload_spec(c));
  if (c.launches > 1) meta.put("workload_repeat", c.launches);
  meta.put("blocks_per_sm", r.bps_instrumented);
  meta.put("blocks_per_sm_plain", r.bps_plain);
  meta.put("instrumented", 1);
  meta.put("reps", reps);
  meta.put("rep_index", reps - 1);
  meta.put("rep_note", "rows are the last timed repetition (0-based); 1 untimed warm-up first");
  meta.put("sm_map_same_as_rep0", std::to_string(r.same_sm_map) + "/" + std::to_string(reps));
  meta.put("sm_map_distinct", r.distinct_sm_maps);
  meta.put("time_unit", "integer ns of %globaltimer relative to the earliest block start of the "
                        "repetition (over all its launches)");
  meta.put("dispatch_note", "dispatch is not observable on the GPU: dispatch_ns = start_ns");
  meta.put("start_note", "start = thread 0's %globaltimer at entry; end = thread 0's "
                         "%globaltimer after the final __syncthreads()");
  meta.put("run_median_ms", fmt(r.inst.median, 4));
  meta.put("run_min_ms", fmt(r.inst.min, 4));
  meta.put("run_max_ms", fmt(r.inst.max, 4));
  meta.put("plain_median_ms", fmt(r.plain.median, 4));
  meta.put("makespan_ns", s.makespan);
  meta.put("sms_used", s.sms_used);
  meta.put("blocks_per_sm_observed", "min " + std::to_string(s.min_per_sm) + " max " +
                                         std::to_string(s.max_per_sm));
  meta.put("check", r.failures == 0 ? std::string("ok")
                                    : "FAILED " + std::to_string(r.failures) + " block(s); first: " +
                                          r.first_failure);
  for (int l = 0; l < c.launches; ++l) {
    meta.put("launch." + std::to_string(l), c.name + " blocks=" + std::to_string(c.blocks) +
                                                " threads=" + std::to_string(c.threads) +
                                                " stream=0");
  }
  out << "kernel,launch,block,sm,dispatch_ns,start_ns,end_ns\n";
  char line[160];
  for (size_t k = 0; k < r.last.size(); ++k) {
    const BlockRecord& x = r.last[k];
    const unsigned long long st = x.start_ns - s.origin;
    std::snprintf(line, sizeof(line), "%s,%zu,%zu,%u,%llu,%llu,%llu\n", c.name.c_str(),
                  k / static_cast<size_t>(c.blocks), k % static_cast<size_t>(c.blocks), x.smid,
                  st, st, x.end_ns - s.origin);
    out << line;
  }
  out.flush();
  if (!out) runner::fatal("error while writing '" + path + "'");
}

// Count distance of two per-(launch, SM) block-count vectors: sum |a - b| / 2 (blocks that
// would have to move to turn one repetition's counts into the other's), summed over launches.
long count_distance(const std::vector<int>& a, const std::vector<int>& b) {
  long sum = 0;
  for (size_t k = 0; k < a.size() && k < b.size(); ++k) {
    sum += a[k] > b[k] ? a[k] - b[k] : b[k] - a[k];
  }
  return sum / 2;
}

// --rep-counts FILE -> FILE for the counts; the distances go beside it, FILE with ".csv"
// replaced by "_distances.csv" (or "_distances.csv" appended).
std::string distances_path(const std::string& counts_path) {
  const std::string ext = ".csv";
  std::string stem = counts_path;
  if (stem.size() > ext.size() && stem.compare(stem.size() - ext.size(), ext.size(), ext) == 0) {
    stem.resize(stem.size() - ext.size());
  }
  return stem + "_distances.csv";
}

// One case's per-repetition counts, kept for the --rep-counts files.
struct RepCounts {
  const Case* c = nullptr;
  std::vector<std::vector<int>> counts;  // [rep][launch * sm_count + sm]
};

// Opens `path` for one of the --rep-counts tables and writes the metadata lines they share.
std::ofstream open_table(const std::string& path, const char* table, int device, const cudaDeviceProp& prop) {
  std::ofstream out(path, std::ios::out | std::ios::trunc);
  if (!out) runner::fatal("cannot open '" + path + "' for writing");
  runner::MetaWriter meta(out);
  meta.put("experiment", "placement");
  meta.put("table", table);
  runner::write_device_metadata(meta, device, prop);
  return out;
}

void write_rep_counts(const std::string& path, const std::vector<RepCounts>& all, int reps,
                      int device, const cudaDeviceProp& prop,
                      const placement::TimerProbe& probe) {
  const int sms = prop.multiProcessorCount;
  {
    std::ofstream out = open_table(path, "rep_counts", device, prop);
    runner::MetaWriter meta(out);
    meta.put("globaltimer_probe", probe_text(probe));
    meta.put("reps", reps);
    meta.put("rep_note", "rep = 0-based timed repetition of the instrumented kernel (1 untimed "
                         "warm-up first, plain repetitions alternating); the case's timeline CSV "
                         "holds rep " + std::to_string(reps - 1));
    meta.put("rows_note", "one row per (case, rep, launch, SM) with blocks >= 1; SMs absent "
                          "from a (case, rep, launch) ran 0 blocks");
    out << "case,rep,launch,sm,blocks\n";
    for (const RepCounts& rc : all) {
      for (size_t rep = 0; rep < rc.counts.size(); ++rep) {
        const std::vector<int>& v = rc.counts[rep];
        for (size_t k = 0; k < v.size(); ++k) {
          if (v[k] <= 0) continue;
          out << rc.c->name << ',' << rep << ',' << k / static_cast<size_t>(sms) << ','
              << k % static_cast<size_t>(sms) << ',' << v[k] << '\n';
        }
      }
    }
    out.flush();
    if (!out) runner::fatal("error while writing '" + path + "'");
  }
  const std::string dpath = distances_path(path);
  std::ofstream out = open_table(dpath, "rep_count_distances", device, prop);
  runner::MetaWriter meta(out);
  meta.put("reps", reps);
  meta.put("distance_note", "count distance(a, b) = sum over launches and SMs of "
                            "|blocks_a - blocks_b| / 2 (blocks that would have to move); "
                            "dist_rep0 = to rep 0, dist_last = to rep " +
                                std::to_string(reps - 1) +
                                " (the rep written to the case's timeline CSV)");
  out << "case,rep,blocks,launches,dist_rep0,dist_last\n";
  for (const RepCounts& rc : all) {
    const size_t n = rc.counts.size();
    for (size_t rep = 1; rep < n; ++rep) {
      out << rc.c->name << ',' << rep << ',' << rc.c->blocks << ',' << rc.c->launches << ','
          << count_distance(rc.counts[rep], rc.counts[0]) << ','
          << count_distance(rc.counts[rep], rc.counts[n - 1]) << '\n';
    }
  }
  out.flush();
  if (!out) runner::fatal("error while writing '" + dpath + "'");
}

void print_help() {
  std::printf(
      "Usage: %s placement --out-dir DIR [--device N] [--reps N] [--only NAME[,NAME...]]\n"
      "                                 [--rep-counts FILE]\n"
      "\n"
      "Runs synthetic spin kernels (every block sleep-spins on %%globaltimer for its duration)\n"
      "for wave boundaries, block sizes, shared-memory-limited occupancy, heterogeneous\n"
      "durations, tiny blocks and back-to-back launches. Writes DIR/<case>.csv (timeline of the\n"
      "last timed repetition: '# key=value' metadata, then\n"
      "kernel,launch,block,sm,dispatch_ns,start_ns,end_ns) and DIR/runs.csv (whole-run times of\n"
      "the instrumented and the plain kernel). Exit status 1 if any block fails the CPU check.\n"
      "\n"
      "Options:\n"
      "  --out-dir DIR   output directory, created if missing (required)\n"
      "  --device N      CUDA device index (default 0)\n"
      "  --reps N        timed repetitions per case after 1 warm-up (default 10)\n"
      "  --only NAMES    run only these cases (comma-separated exact names)\n"
      "  --rep-counts FILE  also write FILE: case,rep,launch,sm,blocks for every timed\n"
      "                  repetition (rows with blocks >= 1), and FILE with .csv replaced by\n"
      "                  _distances.csv: per case and rep > 0 the count distance\n"
      "                  (sum |count_a - count_b| / 2 over launches and SMs) to rep 0 and to\n"
      "                  the last rep (the one in DIR/<case>.csv)\n"
      "  -h, --help      show this help\n",
      runner::kToolName);
}

}  // namespace

namespace runner {

int placement_main(int argc, char** argv) {
  const char* const sub = "placement";
  std::string out_dir, only, rep_counts_path;
  int device = 0, reps = 10;
  for (int i = 1; i < argc; ++i) {
    const FlagArg flag = split_flag(argv[i]);
    const std::string& arg = flag.name;
    std::string value = flag.value;
    const bool has_value = flag.has_value;
    if (arg == "-h" || arg == "--help") {
      print_help();
      return kExitOk;
    }
    if (arg != "--out-dir" && arg != "--device" && arg != "--reps" && arg != "--only" &&
        arg != "--rep-counts") {
      usage_error(sub, "unknown option '" + arg + "'");
    }
    if (!has_value) {
      if (i + 1 >= argc) usage_error(sub, "option '" + arg + "' needs a value");
      value = argv[++i];
    }
    if (arg == "--out-dir") {
      if (value.empty()) usage_error(sub, "--out-dir needs a non-empty path");
      out_dir = value;
    } else if (arg == "--rep-counts") {
      if (value.empty()) usage_error(sub, "--rep-counts needs a non-empty path");
      rep_counts_path = value;
    } else if (arg == "--only") {
      if (value.empty()) usage_error(sub, "--only needs a case name");
      only = value;
    } else if (arg == "--device") {
      if (!parse_int(value, &device) || device < 0) {
        usage_error(sub, "--device needs a non-negative integer, got '" + value + "'");
      }
    } else if (!parse_int(value, &reps) || reps < 1 || reps > 100000) {
      usage_error(sub, "--reps needs an integer in [1, 100000], got '" + value + "'");
    }
  }
  if (out_dir.empty()) usage_error(sub, "missing required option --out-dir DIR");

  const auto t0 = std::chrono::steady_clock::now();
  const cudaDeviceProp prop = select_device(device);
  placement::set_max_dynamic_smem(static_cast<int>(prop.sharedMemPerBlockOptin));
  std::vector<Case> cases = placement::build_cases(prop);
  if (!only.empty()) {
    std::vector<Case> picked;
    size_t pos = 0;
    while (pos <= only.size()) {
      const size_t comma = std::min(only.find(',', pos), only.size());
      const std::string name = only.substr(pos, comma - pos);
      pos = comma + 1;
      auto it = std::find_if(cases.begin(), cases.end(), [&](const Case& c) { return c.name == name; });
      if (it == cases.end()) {
        std::string names;
        for (const Case& c : cases) names += (names.empty() ? "" : " ") + c.name;
        usage_error(sub, "--only: unknown case '" + name + "' (cases on this device: " + names + ")");
      }
      picked.push_back(*it);
    }
    cases = picked;
  }
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) fatal("cannot create directory '" + out_dir + "': " + ec.message());

  const placement::TimerProbe probe_begin = placement::probe_globaltimer(100000);
  std::printf("placement: %s, %d SMs, %zu cases, %d reps; globaltimer %s\n", prop.name,
              prop.multiProcessorCount, cases.size(), reps, probe_text(probe_begin).c_str());
  std::printf("%-14s %6s %5s %6s %4s %10s %10s %7s %11s %4s %7s %s\n", "case", "blocks", "thr",
              "smem", "b/SM", "median_ms", "plain_ms", "ovh_%", "makespan_us", "SMs", "per_SM",
              "check");
  std::vector<std::string> run_rows;
  long total_failures = 0;
  std::vector<RepCounts> rep_counts;
  for (const Case& c : cases) {
    CaseResult r = placement::run_case(c, reps, prop.multiProcessorCount);
    if (!rep_counts_path.empty()) rep_counts.push_back({&c, std::move(r.rep_counts)});
    write_timeline(out_dir + "/" + c.name + ".csv", c, reps, device, prop, probe_begin, r);
    const Shape s = shape_of(r.last, prop.multiProcessorCount);
    double mean_ns = 0;
    for (uint32_t d : r.duration_ns) mean_ns += d;
    mean_ns /= static_cast<double>(r.duration_ns.size());
    run_rows.push_back(c.name + "," + std::to_string(c.blocks) + "," + std::to_string(c.threads) +
                       "," + std::to_string(c.smem) + "," + fmt(mean_ns / 1000.0, 3) + "," +
                       placement::duration_description(c) + "," + std::to_string(reps) + "," +
                       fmt(r.inst.median, 4) + "," + fmt(r.inst.min, 4) + "," +
                       fmt(r.inst.max, 4) + "," + fmt(r.plain.median, 4) + "," +
                       fmt(r.plain.min, 4) + "," + fmt(r.plain.max, 4) + "," +
                       std::to_string(c.launches) + "," + std::to_string(r.bps_instrumented) +
                       "," + fmt(static_cast<double>(s.makespan) / 1000.0, 3) + "," +
                       std::to_string(r.same_sm_map) + "," + std::to_string(r.distinct_sm_maps) +
                       "," + std::to_string(r.failures));
    total_failures += r.failures;
    std::printf("%-14s %6d %5d %6d %4d %10.4f %10.4f %7.2f %11.3f %4d %3d-%-3d %s\n",
                c.name.c_str(), c.blocks, c.threads, c.smem, r.bps_instrumented, r.inst.median,
                r.plain.median, 100.0 * (r.inst.median / r.plain.median - 1.0),
                static_cast<double>(s.makespan) / 1000.0, s.sms_used, s.min_per_sm, s.max_per_sm,
                r.failures == 0 ? "ok" : r.first_failure.c_str());
    std::fflush(stdout);
  }
  const placement::TimerProbe probe_end = placement::probe_globaltimer(100000);

  const std::string runs_path = out_dir + "/runs.csv";
  std::ofstream out(runs_path, std::ios::out | std::ios::trunc);
  if (!out) fatal("cannot open '" + runs_path + "' for writing");
  MetaWriter meta(out);
  meta.put("experiment", "placement");
  write_device_metadata(meta, device, prop);
  meta.put("globaltimer_probe_begin", probe_text(probe_begin));
  meta.put("globaltimer_probe_end", probe_text(probe_end));
  meta.put("timing", "CUDA events around each repetition (all launches of the case, queued "
                     "behind a memset so launch latency is hidden), 1 warm-up, median/min/max "
                     "over reps; plain_* = same kernel without instrumentation, its repetitions "
                     "alternating with the instrumented ones");
  meta.put("sm_map_note", "sm_map_same_reps: timed reps whose block->SM map equals rep 0's; "
                          "sm_maps_distinct: distinct maps over the timed reps");
  meta.put("duration_us_note", "mean of the per-block durations (exact for constant patterns)");
  meta.put("makespan_us_note", "last instrumented repetition, first block start to last block end");
  out << "case,blocks,threads,smem,duration_us,pattern,reps,median_ms,min_ms,max_ms,"
         "plain_median_ms,plain_min_ms,plain_max_ms,launches,blocks_per_sm,makespan_us,"
         "sm_map_same_reps,sm_maps_distinct,check_failures\n";
  for (const std::string& row : run_rows) out << row << '\n';
  out.flush();
  if (!out) fatal("error while writing '" + runs_path + "'");

  if (!rep_counts_path.empty()) {
    write_rep_counts(rep_counts_path, rep_counts, reps, device, prop, probe_begin);
    std::printf("placement: per-rep SM counts -> %s, count distances -> %s\n",
                rep_counts_path.c_str(), distances_path(rep_counts_path).c_str());
    std::printf("%-18s %8s %8s %8s %8s\n", "case", "d0_med", "d0_max", "dL_med", "dL_max");
    for (const RepCounts& rc : rep_counts) {
      std::vector<float> d0, dl;
      const size_t n = rc.counts.size();
      for (size_t rep = 1; rep < n; ++rep) {
        d0.push_back(static_cast<float>(count_distance(rc.counts[rep], rc.counts[0])));
        dl.push_back(static_cast<float>(count_distance(rc.counts[rep - 1], rc.counts[n - 1])));
      }
      const Stats s0 = runner::stats_of(d0), sl = runner::stats_of(dl);
      std::printf("%-18s %8.1f %8.0f %8.1f %8.0f\n", rc.c->name.c_str(), s0.median, s0.max,
                  sl.median, sl.max);
    }
  }

  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("placement: wrote %zu timelines + runs.csv to %s in %.2f s; globaltimer end %s\n",
              cases.size(), out_dir.c_str(), secs, probe_text(probe_end).c_str());
  if (total_failures > 0) {
    std::fprintf(stderr, "%s placement: %ld block(s) failed the CPU check\n", kToolName,
                 total_failures);
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace runner

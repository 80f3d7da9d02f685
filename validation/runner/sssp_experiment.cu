// `sssp` subcommand: K Crauser SSSP instances on C streams -> graphs, runs.csv, timelines.
//
// For each random graph (written as DIR/graph_<name>.txt, `u v w` per line), the CPU runs the
// GPU loop for sources 0..K-1 (iteration counts, frontier sizes -> DIR/frontier.csv). Every
// configuration (C streams x block size x carveout) issues, batch by batch of C instances
// (instance k on stream k mod C), iteration by iteration, every running instance's relax, then
// every minimum, then every update (the last iteration has no update), with no host round trip:
// iteration counts come from the CPU run and the GPU must confirm them. `stream` mode launches
// directly; `graph` mode captures the same launches once into a CUDA graph and replays it.
// 1 warm-up + --reps event-timed runs each; every run's distances, thresholds and settled counts
// are compared with the CPU (exit 1 on a mismatch). A few instrumented configurations give
// DIR/timeline_*.csv with stream, instance and iteration columns.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "sssp.h"

namespace {

using kit::BlockRecord;
using sssp::Kernel;

constexpr int kSources = 32;

const char* const kHelp =
    "Usage: gpusched-runner sssp --out-dir DIR [--device N] [--reps N] [--quick]\n"
    "\n"
    "n x SSSP (Crauser's relax/minimum/update kernels) for sources 0..31 of two seeded random\n"
    "graphs, on C = 1, 2, 4, 8, 16, 32 streams x block sizes 64/128/256 x carveouts max-l1/\n"
    "max-shared, launched directly (stream) and as a replayed CUDA graph (graph). Writes\n"
    "DIR/graph_<name>.txt (edge lists), DIR/frontier.csv (per-iteration set sizes),\n"
    "DIR/runs.csv (median/min/max of --reps runs) and "
    "DIR/timeline_<graph>_<mode>_k<K>_c<C>_t<T>.csv\n"
    "(instrumented runs: K=4 C=1, K=4 C=4, K=8 C=8 replayed as graphs, K=8 C=8 launched "
    "directly).\n"
    "--quick: one small graph and a few configurations. Exit 1 on any CPU mismatch.\n";

struct GraphDef {
  const char* name;
  int n;
  double degree;
  uint64_t seed;
};

struct LaunchDesc {
  Kernel kernel;
  int instance, iter, stream;
};

struct Setup {
  std::string name, file;
  sssp::Graph g;
  sssp::DeviceGraph dg;
  std::vector<sssp::CpuRun> cpu;
  int max_iters = 0;
  size_t inst_bytes = 0;
  unsigned char* state = nullptr;     // kSources instances
  unsigned char* pristine = nullptr;  // their initial images
};

// Host issue order of K instances on C streams (see the file comment).
std::vector<LaunchDesc> issue_order(const Setup& s, int k_count, int c) {
  std::vector<LaunchDesc> out;
  for (int first = 0; first < k_count; first += c) {
    const int last = std::min(k_count, first + c);
    int most = 0;
    for (int k = first; k < last; ++k) most = std::max(most, s.cpu[k].iterations());
    for (int it = 0; it < most; ++it) {
      for (Kernel kind : {Kernel::kRelax, Kernel::kMinimum, Kernel::kUpdate}) {
        for (int k = first; k < last; ++k) {
          const int iters = s.cpu[k].iterations();
          if (it >= iters || (kind == Kernel::kUpdate && it == iters - 1)) continue;
          out.push_back({kind, k, it, k % c});
        }
      }
    }
  }
  return out;
}

class Executor {
 public:
  explicit Executor(Setup& s) : s_(s) {
    for (auto& st : streams_)
      RUNNER_CUDA_CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    for (auto& e : joins_) RUNNER_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    RUNNER_CUDA_CHECK(cudaEventCreate(&start_));
    RUNNER_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~Executor() {
    for (auto& st : streams_) cudaStreamDestroy(st);
    for (auto& e : joins_) cudaEventDestroy(e);
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
    if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
    cudaFree(rec_);
  }

  // Prepares a configuration; `instrumented` sizes a record buffer for every launch.
  void configure(int k_count, int c, int threads, bool graph_mode, bool instrumented) {
    k_ = k_count;
    c_ = c;
    threads_ = threads;
    order_ = issue_order(s_, k_count, c);
    offsets_.clear();
    size_t total = 0;
    for (const auto& d : order_) {
      offsets_.push_back(total);
      total += static_cast<size_t>(sssp::grid_of(d.kernel, s_.g.n, threads));
    }
    records_ = total;
    cudaFree(rec_);
    rec_ = nullptr;
    if (instrumented) RUNNER_CUDA_CHECK(cudaMalloc(&rec_, sizeof(BlockRecord) * total));
    if (exec_ != nullptr) RUNNER_CUDA_CHECK(cudaGraphExecDestroy(exec_));
    exec_ = nullptr;
    if (graph_mode) {
      cudaGraph_t graph = nullptr;
      RUNNER_CUDA_CHECK(cudaStreamBeginCapture(streams_[0], cudaStreamCaptureModeThreadLocal));
      issue();
      RUNNER_CUDA_CHECK(cudaStreamEndCapture(streams_[0], &graph));
      RUNNER_CUDA_CHECK(cudaGraphInstantiate(&exec_, graph, 0));
      RUNNER_CUDA_CHECK(cudaGraphDestroy(graph));
    }
  }

  size_t launches() const { return order_.size(); }

  // One whole run; returns its event time (ms).
  float run() {
    RUNNER_CUDA_CHECK(cudaMemcpyAsync(s_.state, s_.pristine, s_.inst_bytes * k_,
                                      cudaMemcpyDeviceToDevice, streams_[0]));
    if (rec_ != nullptr) {
      RUNNER_CUDA_CHECK(cudaMemsetAsync(rec_, 0xff, sizeof(BlockRecord) * records_, streams_[0]));
    }
    RUNNER_CUDA_CHECK(cudaEventRecord(start_, streams_[0]));
    if (exec_ != nullptr) {
      RUNNER_CUDA_CHECK(cudaGraphLaunch(exec_, streams_[0]));
    } else {
      issue();
    }
    RUNNER_CUDA_CHECK(cudaEventRecord(stop_, streams_[0]));
    RUNNER_CUDA_CHECK(cudaEventSynchronize(stop_));
    RUNNER_CUDA_CHECK(cudaGetLastError());
    float ms = 0;
    RUNNER_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

  // Compares every instance with the CPU; returns the number of mismatching values.
  long check(std::string& first) const {
    std::vector<unsigned char> host(s_.inst_bytes * k_);
    RUNNER_CUDA_CHECK(cudaMemcpy(host.data(), s_.state, host.size(), cudaMemcpyDeviceToHost));
    long bad = 0;
    auto note = [&](const std::string& what) {
      if (bad++ == 0) first = what;
    };
    for (int k = 0; k < k_; ++k) {
      const sssp::InstanceView v =
          sssp::instance_view(host.data() + s_.inst_bytes * k, s_.g.n, s_.max_iters);
      const sssp::CpuRun& ref = s_.cpu[k];
      const std::string at = "source " + std::to_string(k) + " ";
      for (int i = 0; i < s_.g.n; ++i) {
        if (v.dist[i] != ref.dist[i]) note(at + "dist[" + std::to_string(i) + "]");
      }
      for (int it = 0; it < ref.iterations(); ++it) {
        if (v.delta[it] != ref.delta[it]) note(at + "delta[" + std::to_string(it) + "]");
        if (v.count[it] != ref.settled[it]) note(at + "settled[" + std::to_string(it) + "]");
      }
    }
    return bad;
  }

  // The last run's block records as timeline launches (instrumented configurations only).
  std::vector<kit::TimelineLaunch> timeline(long& bad, int sm_count) const {
    std::vector<BlockRecord> all(records_);
    RUNNER_CUDA_CHECK(
        cudaMemcpy(all.data(), rec_, sizeof(BlockRecord) * records_, cudaMemcpyDeviceToHost));
    bad = kit::bad_records(all, sm_count);
    std::vector<kit::TimelineLaunch> out;
    for (size_t l = 0; l < order_.size(); ++l) {
      const LaunchDesc& d = order_[l];
      const size_t end = l + 1 < order_.size() ? offsets_[l + 1] : records_;
      out.push_back({sssp::kernel_name(d.kernel),
                     std::to_string(d.stream) + "," + std::to_string(d.instance) + "," +
                         std::to_string(d.iter),
                     std::vector<BlockRecord>(all.begin() + offsets_[l], all.begin() + end)});
    }
    return out;
  }

 private:
  void issue() {
    RUNNER_CUDA_CHECK(cudaEventRecord(joins_[0], streams_[0]));
    for (int c = 1; c < c_; ++c) RUNNER_CUDA_CHECK(cudaStreamWaitEvent(streams_[c], joins_[0], 0));
    for (size_t l = 0; l < order_.size(); ++l) {
      const LaunchDesc& d = order_[l];
      const sssp::InstanceView v =
          sssp::instance_view(s_.state + s_.inst_bytes * d.instance, s_.g.n, s_.max_iters);
      sssp::launch(d.kernel, s_.dg, v, d.iter, threads_, streams_[d.stream],
                   rec_ == nullptr ? nullptr : rec_ + offsets_[l]);
    }
    for (int c = 1; c < c_; ++c) {
      RUNNER_CUDA_CHECK(cudaEventRecord(joins_[c], streams_[c]));
      RUNNER_CUDA_CHECK(cudaStreamWaitEvent(streams_[0], joins_[c], 0));
    }
  }

  Setup& s_;
  cudaStream_t streams_[32] = {};
  cudaEvent_t joins_[32] = {};
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
  int k_ = 0, c_ = 1, threads_ = 128;
  std::vector<LaunchDesc> order_;
  std::vector<size_t> offsets_;
  size_t records_ = 0;
  BlockRecord* rec_ = nullptr;
};

Setup make_setup(const GraphDef& def, const std::string& dir) {
  Setup s;
  s.name = def.name;
  s.file = std::string("graph_") + def.name + ".txt";
  s.g = sssp::random_graph(def.n, def.degree, def.seed);
  for (int k = 0; k < kSources; ++k) {
    s.cpu.push_back(sssp::cpu_sssp(s.g, k));
    s.max_iters = std::max(s.max_iters, s.cpu.back().iterations());
  }
  std::ofstream out(dir + "/" + s.file, std::ios::out | std::ios::trunc);
  if (!out) runner::fatal("cannot open '" + dir + "/" + s.file + "' for writing");
  out << "# gpusched-runner sssp: Erdos-Renyi G(n, p), p = d/(n-1), no self-loops, weights 1..100\n"
      << "# nodes=" << def.n << " degree=" << def.degree << " seed=" << def.seed
      << " edges=" << s.g.edges() << "\n"
      << "# generator: splitmix64(seed); for u = 0..n-1, v = 0..n-1, v != u: edge u->v if "
         "uniform() < p (uniform = (next() >> 11) / 2^53), then weight = 1 + next() mod 100\n"
      << "# format: one 'u v w' per line, 0-based node ids\n";
  char line[48];
  for (int u = 0; u < s.g.n; ++u) {
    for (int e = s.g.ptr[u]; e < s.g.ptr[u + 1]; ++e) {
      std::snprintf(line, sizeof(line), "%d %d %d\n", u, s.g.adj[e], s.g.w[e]);
      out << line;
    }
  }
  out.flush();
  if (!out) runner::fatal("error while writing " + s.file);
  s.dg = sssp::upload(s.g);
  s.inst_bytes = sssp::instance_bytes(s.g.n, s.max_iters);
  std::vector<unsigned char> img;
  for (int k = 0; k < kSources; ++k) {
    const auto one = sssp::instance_init(s.g.n, s.max_iters, k);
    img.insert(img.end(), one.begin(), one.end());
  }
  RUNNER_CUDA_CHECK(cudaMalloc(&s.state, img.size()));
  RUNNER_CUDA_CHECK(cudaMalloc(&s.pristine, img.size()));
  RUNNER_CUDA_CHECK(cudaMemcpy(s.pristine, img.data(), img.size(), cudaMemcpyHostToDevice));
  return s;
}

const char* carveout_name(int percent) { return percent == 0 ? "max-l1" : "max-shared"; }

std::string spec_of(const Setup& s, int k, int c, int threads, int carveout) {
  return "sssp:graph=" + s.file + ",sources=" + std::to_string(k) +
         ",streams=" + std::to_string(c) + ",threads=" + std::to_string(threads) +
         ",carveout=" + carveout_name(carveout);
}

}  // namespace

namespace runner {

int sssp_main(int argc, char** argv) {
  const kit::Options opt = kit::parse_options("sssp", argc, argv, kHelp);
  const cudaDeviceProp prop = select_device(opt.device);
  std::vector<GraphDef> defs = {{"n4096_d8", 4096, 8.0, 4096008}, {"n8192_d2", 8192, 2.0, 8192002}};
  std::vector<int> stream_counts = {1, 2, 4, 8, 16, 32}, thread_counts = {64, 128, 256};
  if (opt.quick) {
    defs = {{"n1024_d4", 1024, 4.0, 1024004}};
    stream_counts = {1, 8};
    thread_counts = {128};
  }
  const int carveouts[2] = {0, 100};
  std::ofstream runs = kit::open_csv(opt.out_dir, "runs.csv", "sssp", opt.device, prop);
  std::ofstream front =
      kit::open_csv(opt.out_dir, "frontier.csv", "sssp.frontier", opt.device, prop);
  {
    runner::MetaWriter meta(runs);
    for (Kernel k : {Kernel::kRelax, Kernel::kMinimum, Kernel::kUpdate}) {
      kit::put_kernel_attributes(meta, sssp::kernel_name(k), sssp::kernel_fn(k));
    }
    meta.put("sources", kSources);
    meta.put("reps", opt.reps);
    meta.put("issue_order",
             "batches of C instances (instance k on stream k mod C); per batch, "
             "iteration by iteration: every running instance's relax, then every "
             "minimum, then every update; no host synchronisation inside a run");
    meta.put("timing",
             "CUDA events around one whole run (all K instances), state reset by a "
             "device-to-device copy before the start event; 1 warm-up; median/min/max");
    meta.put("modes",
             "stream: direct launches; graph: the same launches captured once into a "
             "CUDA graph and replayed; stream-inst, graph-inst: the instrumented "
             "timeline runs");
    meta.put("carveout",
             "cudaFuncAttributePreferredSharedMemoryCarveout of all three kernels: "
             "0 (max-l1) or 100 (max-shared)");
    meta.put("check",
             "passed: every run's distances, per-iteration thresholds and settled "
             "counts of all K instances equal the CPU run");
    runs << "graph,n,edges,sources,streams,threads,carveout,mode,launches,reps,median_ms,min_ms,"
            "max_ms,check,workload_spec\n";
    runner::MetaWriter fmeta(front);
    fmeta.put("columns",
              "iteration i of the source's loop: frontier |F_i| (relax), unsettled "
              "|U_i|, reached nodes of U_i after relax, delta (minimum's threshold; "
              "2147483647 = none reached, the loop's last iteration; 2147483646 = "
              "only nodes without out-edges), settled |F_{i+1}| (update)");
    front << "graph,source,iteration,frontier,unsettled,reached,delta,settled\n";
  }
  long failures = 0;
  for (const GraphDef& def : defs) {
    Setup s = make_setup(def, opt.out_dir);
    long long iters_sum = 0;
    for (int k = 0; k < kSources; ++k) {
      const sssp::CpuRun& r = s.cpu[k];
      iters_sum += r.iterations();
      for (int it = 0; it < r.iterations(); ++it) {
        front << s.name << ',' << k << ',' << it << ',' << r.frontier[it] << ',' << r.unsettled[it]
              << ',' << r.reached[it] << ',' << r.delta[it] << ',' << r.settled[it] << '\n';
      }
    }
    std::printf("sssp graph %s: n=%d edges=%lld, iterations per source %.1f (max %d)\n",
                s.name.c_str(), s.g.n, s.g.edges(), iters_sum / double(kSources), s.max_iters);
    std::fflush(stdout);
    Executor ex(s);
    auto measure = [&](int k, int c, int threads, int carveout, const char* mode, bool graph_mode,
                       bool inst) {
      sssp::set_carveout(carveout);
      ex.configure(k, c, threads, graph_mode, inst);
      std::vector<float> t;
      long bad = 0;
      std::string first;
      for (int r = -1; r < opt.reps; ++r) {
        const float ms = ex.run();
        if (r >= 0) t.push_back(ms);
        bad += ex.check(first);
      }
      const kit::Stats st = kit::stats_of(t);
      long bad_rec = 0;
      if (inst) {
        const auto tl = ex.timeline(bad_rec, prop.multiProcessorCount);
        const std::string name = "timeline_" + s.name + "_" + (graph_mode ? "graph" : "stream") +
                                 "_k" + std::to_string(k) + "_c" + std::to_string(c) + "_t" +
                                 std::to_string(threads) + ".csv";
        std::ofstream out = kit::open_csv(opt.out_dir, name, "sssp.timeline", opt.device, prop);
        runner::MetaWriter meta(out);
        meta.put("graph", s.file);
        meta.put("sources", k);
        meta.put("streams", c);
        meta.put("threads", threads);
        meta.put("carveout", carveout_name(carveout));
        meta.put("launches", ex.launches());
        meta.put("workload_spec", spec_of(s, k, c, threads, carveout));
        meta.put("mode", graph_mode ? "graph (replayed CUDA graph)" : "stream (direct launches)");
        meta.put("run_median_ms", kit::fmt(st.median));
        meta.put("makespan_ns", kit::makespan_ns(tl));
        meta.put("source", "last of " + std::to_string(opt.reps) +
                               " instrumented runs; launch = "
                               "host issue index; stream/instance/iteration of each launch");
        meta.put("check", bad + bad_rec == 0 ? "passed" : "FAILED");
        const unsigned long long span =
            kit::write_timeline_rows(out, tl, "stream,instance,iteration");
        kit::close_csv(out, name);
        std::printf("  timeline %s: makespan %.1f us\n", name.c_str(), span / 1000.0);
      }
      if (bad + bad_rec > 0) {
        ++failures;
        std::fprintf(stderr,
                     "sssp: %s K=%d C=%d T=%d %s %s check FAILED: %ld values (%s), %ld "
                     "bad records\n",
                     s.name.c_str(), k, c, threads, carveout_name(carveout), mode, bad,
                     first.c_str(), bad_rec);
      }
      runs << s.name << ',' << s.g.n << ',' << s.g.edges() << ',' << k << ',' << c << ',' << threads
           << ',' << carveout_name(carveout) << ',' << mode << ',' << ex.launches() << ','
           << st.reps << ',' << kit::fmt(st.median) << ',' << kit::fmt(st.min) << ','
           << kit::fmt(st.max) << ',' << (bad + bad_rec == 0 ? "passed" : "FAILED") << ','
           << spec_of(s, k, c, threads, carveout) << '\n';
      std::printf("  K=%2d C=%2d T=%3d %-10s %-10s launches=%5zu median=%9.3f ms %s\n", k, c,
                  threads, carveout_name(carveout), mode, ex.launches(), st.median,
                  bad + bad_rec == 0 ? "ok" : "FAIL");
      std::fflush(stdout);
    };
    for (int carveout : carveouts) {
      for (int threads : thread_counts) {
        for (int c : stream_counts) {
          measure(kSources, c, threads, carveout, "stream", false, false);
          measure(kSources, c, threads, carveout, "graph", true, false);
        }
      }
    }
    if (&def == &defs.front()) {
      const int tl_threads = opt.quick ? 128 : 256;
      measure(4, 1, tl_threads, 0, "graph-inst", true, true);
      measure(4, 4, tl_threads, 0, "graph-inst", true, true);
      measure(8, 8, tl_threads, 0, "graph-inst", true, true);
      measure(8, 8, tl_threads, 0, "stream-inst", false, true);
    }
    sssp::release(s.dg);
    RUNNER_CUDA_CHECK(cudaFree(s.state));
    RUNNER_CUDA_CHECK(cudaFree(s.pristine));
  }
  kit::close_csv(runs, "runs.csv");
  kit::close_csv(front, "frontier.csv");
  if (failures > 0) {
    std::fprintf(stderr, "%s sssp: %ld configuration(s) failed the CPU check\n", kToolName,
                 failures);
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace runner

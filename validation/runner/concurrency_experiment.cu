// `concurrency` subcommand: concurrent kernels on streams of every priority level, measured
// block by block (leftover, priority preemption of dispatch, sharing of SMs between kernels).
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runner_common.h"
#include "spin_probe.h"

namespace runner {
namespace {

const char* const kHelp =
    "Usage: gpusched-runner concurrency --out-dir DIR [--device N] [--reps N]\n"
    "\n"
    "Concurrent spin kernels on several streams, each case one timeline with stream and CUDA\n"
    "priority columns (DIR/timeline_<case>.csv; the last of N repetitions, default 3) and one\n"
    "line per launch and repetition in DIR/launch_spans.csv (first block start, last block end,\n"
    "relative to the case's first start), for the run-to-run spread. Streams are created with\n"
    "cudaStreamCreateWithPriority; the device's range is in DIR/priority_range.csv.\n";

struct Item {
  int stream;       // index into the case's streams
  int priority;     // offset from the device's least (0) towards its greatest priority
  const char* name;
  int blocks;
  int threads;
  int smem_kib;
  std::vector<uint32_t> durations_us;
  double host_wait_us;  // host waits this long before issuing the launch
};

struct Case {
  const char* name;
  const char* note;
  std::vector<Item> items;
};

std::vector<Case> cases(int sms) {
  const int fill256 = sms * 8;  // 256-thread blocks: 8 per SM (64 warps) fill the H100
  std::vector<Case> list = {
      {"hp_bigger_blocks", "long low-priority 256-thread kernel, high-priority 512-thread kernel arrives",
       {{0, 0, "low256", fill256 * 4, 256, 0, {50}, 0}, {1, 5, "high512", sms, 512, 0, {20}, 10}}},
      {"eq_bigger_blocks", "as hp_bigger_blocks at equal priority",
       {{0, 0, "low256", fill256 * 4, 256, 0, {50}, 0}, {1, 0, "second512", sms, 512, 0, {20}, 10}}},
      {"hp_same_blocks", "long low-priority 256-thread kernel, high-priority 256-thread kernel arrives",
       {{0, 0, "low256", fill256 * 4, 256, 0, {50}, 0}, {1, 5, "high256", sms * 2, 256, 0, {20}, 10}}},
      {"first1024_then256", "100 blocks of 1024 threads, then 256-thread blocks on another stream",
       {{0, 0, "first1024", 100, 1024, 0, {100}, 0}, {1, 0, "then256", sms * 8, 256, 0, {20}, 5}}},
      {"first512_then256", "100 blocks of 512 threads, then 256-thread blocks on another stream",
       {{0, 0, "first512", 100, 512, 0, {100}, 0}, {1, 0, "then256", sms * 8, 256, 0, {20}, 5}}},
      {"first1024x2_then256", "2 x 132 blocks of 1024 threads, then 256-thread blocks",
       {{0, 0, "first1024", sms * 2, 1024, 0, {100}, 0}, {1, 0, "then256", sms * 8, 256, 0, {20}, 5}}},
      {"first1024_then256_hp", "100 blocks of 1024 threads, then high-priority 256-thread blocks",
       {{0, 0, "first1024", 100, 1024, 0, {100}, 0}, {1, 5, "then256", sms * 8, 256, 0, {20}, 5}}},
      {"first256_then256", "100 blocks of 256 threads, then 256-thread blocks on another stream",
       {{0, 0, "first256", 100, 256, 0, {100}, 0}, {1, 0, "then256", sms * 8, 256, 0, {20}, 5}}},
      {"first1024s_then256", "100 blocks of 1024 threads and 64 KiB smem, then 256-thread blocks",
       {{0, 0, "first1024s", 100, 1024, 64, {100}, 0}, {1, 0, "then256", sms * 8, 256, 0, {20}, 5}}},
      {"leftover_uniform", "two equal-priority streams, 1024-thread blocks of 20 us",
       {{0, 0, "a", sms * 5, 1024, 0, {20}, 0}, {1, 0, "b", sms * 5, 1024, 0, {20}, 0}}},
      {"leftover_hetero", "two equal-priority streams, blocks of 10/30 us and 25 us",
       {{0, 0, "a", sms * 5, 1024, 0, {10, 30}, 0}, {1, 0, "b", sms * 5, 1024, 0, {25}, 0}}},
      {"small_then_large", "66 blocks of 40 us, then 1000 blocks of 256 threads on another stream",
       {{0, 0, "small", 66, 1024, 0, {40}, 0}, {1, 0, "large", 1000, 256, 0, {10}, 0}}},
      {"three_one_high", "three streams of 512-thread blocks, the last one high priority",
       {{0, 0, "s0", sms * 6, 512, 0, {20}, 0}, {1, 0, "s1", sms * 6, 512, 0, {20}, 0},
        {2, 5, "s2high", sms * 6, 512, 0, {20}, 10}}},
      {"levels", "a 50 us blocker fills the GPU; then one kernel per priority level, lowest first",
       {{0, 0, "blocker", sms * 2, 1024, 0, {50}, 0},
        {1, 0, "p0", sms * 2, 1024, 0, {10}, 5}, {2, 1, "p1", sms * 2, 1024, 0, {10}, 0},
        {3, 2, "p2", sms * 2, 1024, 0, {10}, 0}, {4, 3, "p3", sms * 2, 1024, 0, {10}, 0},
        {5, 4, "p4", sms * 2, 1024, 0, {10}, 0}, {6, 5, "p5", sms * 2, 1024, 0, {10}, 0}}},
  };
  return list;
}

}  // namespace

int concurrency_main(int argc, char** argv) {
  CommonOptions opt;
  opt.reps = 3;
  if (!parse_common_options("concurrency", kHelp, argc, argv, &opt)) return kExitOk;
  const cudaDeviceProp prop = select_device(opt.device);
  spin_probe::prepare_kernel(static_cast<int>(prop.sharedMemPerBlockOptin));
  int least = 0;
  int greatest = 0;
  RUNNER_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  {
    FILE* f = std::fopen((opt.out_dir + "/priority_range.csv").c_str(), "w");
    if (!f) fatal("cannot write " + opt.out_dir + "/priority_range.csv");
    std::fprintf(f, "least,greatest\n%d,%d\n", least, greatest);
    std::fclose(f);
  }
  FILE* spans = std::fopen((opt.out_dir + "/launch_spans.csv").c_str(), "w");
  if (!spans) fatal("cannot write " + opt.out_dir + "/launch_spans.csv");
  std::fprintf(spans, "case,rep,launch,kernel,stream,priority,first_start_ns,last_end_ns\n");
  for (const Case& c : cases(prop.multiProcessorCount)) {
    std::map<int, cudaStream_t> streams;
    std::vector<std::unique_ptr<spin_probe::DeviceLaunch>> launches;
    for (const Item& it : c.items) {
      const int prio = least - it.priority < greatest ? greatest : least - it.priority;
      if (!streams.count(it.stream)) {
        cudaStream_t s = nullptr;
        RUNNER_CUDA_CHECK(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, prio));
        streams[it.stream] = s;
      }
      spin_probe::LaunchShape shape;
      shape.name = it.name;
      shape.blocks = it.blocks;
      shape.threads = it.threads;
      shape.smem = it.smem_kib * 1024;
      for (uint32_t us : it.durations_us) shape.durations_ns.push_back(us * 1000);
      shape.stream_label = it.stream;
      shape.priority = prio;
      launches.push_back(std::make_unique<spin_probe::DeviceLaunch>(shape));
    }
    for (int rep = 0; rep <= opt.reps; ++rep) {  // rep 0 is a warm-up
      RUNNER_CUDA_CHECK(cudaDeviceSynchronize());
      for (size_t k = 0; k < c.items.size(); ++k) {
        if (c.items[k].host_wait_us > 0) spin_probe::host_wait_us(c.items[k].host_wait_us);
        launches[k]->launch(streams[c.items[k].stream]);
      }
      RUNNER_CUDA_CHECK(cudaDeviceSynchronize());
      if (rep == 0) continue;
      std::vector<std::vector<placement::BlockRecord>> recs;
      unsigned long long t0 = ~0ull;
      for (const auto& l : launches) {
        recs.push_back(l->fetch());
        for (const auto& r : recs.back()) t0 = r.start_ns < t0 ? r.start_ns : t0;
      }
      for (size_t k = 0; k < recs.size(); ++k) {
        unsigned long long first = ~0ull, last = 0;
        for (const auto& r : recs[k]) {
          first = r.start_ns < first ? r.start_ns : first;
          last = r.end_ns > last ? r.end_ns : last;
        }
        std::fprintf(spans, "%s,%d,%zu,%s,%d,%d,%llu,%llu\n", c.name, rep, k, c.items[k].name,
                     c.items[k].stream, launches[k]->shape().priority, first - t0, last - t0);
      }
    }
    std::vector<const spin_probe::DeviceLaunch*> views;
    for (const auto& l : launches) views.push_back(l.get());
    spin_probe::write_timeline(opt.out_dir + "/timeline_" + c.name + ".csv", opt.device, prop,
                               {{"case", c.name}, {"case_note", c.note}}, views);
    std::printf("concurrency: %s\n", c.name);
    launches.clear();
    for (auto& kv : streams) RUNNER_CUDA_CHECK(cudaStreamDestroy(kv.second));
  }
  std::fclose(spans);
  return kExitOk;
}

}  // namespace runner

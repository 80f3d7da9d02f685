// Case list of the `placement` experiment and the per-block durations (same rules as `synthetic`).
#include <string>
#include <vector>

#include "placement.h"
#include "runner_common.h"

namespace placement {
namespace {

constexpr uint64_t kPsPerUs = 1000000ull;

uint64_t splitmix64(uint64_t x) {
  uint64_t z = x + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

Case constant_case(std::string name, std::string group, int blocks, int threads, int smem,
                   uint64_t us, std::string note) {
  Case c;
  c.name = std::move(name);
  c.group = std::move(group);
  c.blocks = blocks;
  c.threads = threads;
  c.smem = smem;
  c.kind = DurationKind::kConstant;
  c.durations_ps = {us * kPsPerUs};
  c.note = std::move(note);
  return c;
}

}  // namespace

std::string format_duration_ps(uint64_t ps) {
  struct Unit {
    uint64_t ps;
    const char* name;
  };
  static const Unit units[] = {{1000000000000ull, "s"}, {1000000000ull, "ms"},
                               {1000000ull, "us"},      {1000ull, "ns"}};
  for (const Unit& u : units) {
    if (ps != 0 && ps % u.ps == 0) return std::to_string(ps / u.ps) + u.name;
  }
  return std::to_string(ps) + "ps";
}

uint64_t duration_ps(const Case& c, int block) {
  const uint64_t i = static_cast<uint64_t>(block);
  switch (c.kind) {
    case DurationKind::kConstant:
      return c.durations_ps[0];
    case DurationKind::kPattern:
      return c.durations_ps[i % c.durations_ps.size()];
    case DurationKind::kUniform: {
      const uint64_t lo = c.durations_ps[0];
      const uint64_t hi = c.durations_ps[1];
      return lo + splitmix64(splitmix64(c.seed) + i) % (hi - lo + 1);
    }
  }
  return 0;
}

std::string duration_description(const Case& c) {
  switch (c.kind) {
    case DurationKind::kConstant:
      return "constant " + format_duration_ps(c.durations_ps[0]);
    case DurationKind::kPattern: {
      std::string s = "pattern ";
      for (size_t k = 0; k < c.durations_ps.size(); ++k) {
        if (k > 0) s += '/';
        s += format_duration_ps(c.durations_ps[k]);
      }
      return s;
    }
    case DurationKind::kUniform:
      return "uniform " + format_duration_ps(c.durations_ps[0]) + "~" +
             format_duration_ps(c.durations_ps[1]) + " (seed " + std::to_string(c.seed) + ")";
  }
  return "";
}

std::string workload_spec(const Case& c) {
  std::string d = duration_description(c);
  d = d.substr(d.find(' ') + 1);  // drop the form word
  if (c.kind == DurationKind::kUniform) d = d.substr(0, d.find(' '));  // drop " (seed N)"
  std::string spec = "synthetic:blocks=" + std::to_string(c.blocks) +
                     ",threads=" + std::to_string(c.threads);
  if (c.smem > 0) spec += ",smem=" + std::to_string(c.smem);
  spec += ",duration=" + d;
  if (c.kind == DurationKind::kUniform) spec += ",seed=" + std::to_string(c.seed);
  spec += ",name=" + c.name;
  return spec;
}

std::vector<Case> build_cases(const cudaDeviceProp& prop) {
  const int sms = prop.multiProcessorCount;
  const int optin = static_cast<int>(prop.sharedMemPerBlockOptin);
  std::vector<Case> cases;

  // Wave boundaries: 1024 threads (2 blocks/SM on a 2048-thread SM), 50 us, in units of sm_count
  // (132 SMs: 132, 133, 263, 264, 265, 396, 397, 528, 660, 1000).
  const int wave_counts[] = {sms,         sms + 1,     2 * sms - 1, 2 * sms, 2 * sms + 1,
                             3 * sms,     3 * sms + 1, 4 * sms,     5 * sms, 1000};
  for (int b : wave_counts) {
    cases.push_back(constant_case("wave" + std::to_string(b), "wave", b, 1024, 0, 50,
                                  "wave boundaries at 1024 threads"));
  }

  // Block sizes: exactly one full wave and one wave + 1 block, 50 us.
  for (int t : {32, 64, 128, 256, 512}) {
    const int wave = blocks_per_sm(true, t, 0) * sms;
    if (wave <= 0) continue;
    const std::string stem = "bs" + std::to_string(t);
    cases.push_back(constant_case(stem + "_w1", "block_size", wave, t, 0, 50,
                                  "one full wave (blocks/SM x sm_count)"));
    cases.push_back(constant_case(stem + "_w1p1", "block_size", wave + 1, t, 0, 50,
                                  "one full wave + 1 block"));
  }

  // Shared-memory limited occupancy: 128 threads, 2 waves + 5 blocks, 50 us.
  for (int smem : {100000, 60000}) {
    if (smem > optin) continue;
    const int per_sm = blocks_per_sm(true, 128, smem);
    if (per_sm <= 0) continue;
    cases.push_back(constant_case("smem" + std::to_string(smem), "smem",
                                  2 * per_sm * sms + 5, 128, smem, 50,
                                  "shared-memory limited occupancy, 2 waves + 5 blocks"));
  }

  // Heterogeneous durations, 1024 threads, 800 blocks.
  {
    Case c = constant_case("pattern800", "heterogeneous", 800, 1024, 0, 20,
                           "durations cycle 20/40/60/80 us by block index");
    c.kind = DurationKind::kPattern;
    c.durations_ps = {20 * kPsPerUs, 40 * kPsPerUs, 60 * kPsPerUs, 80 * kPsPerUs};
    cases.push_back(c);
    Case u = constant_case("uniform800", "heterogeneous", 800, 1024, 0, 10,
                           "durations uniform in [10us, 99us] by splitmix64(seed, block), as the "
                           "simulator's synthetic LO~HI form (ps, truncated to ns on the GPU)");
    u.kind = DurationKind::kUniform;
    u.durations_ps = {10 * kPsPerUs, 99 * kPsPerUs};
    u.seed = 1;
    cases.push_back(u);
  }

  // Staggered durations: every block gets its own duration (a permutation of evenly spaced values),
  // so the first wave's slots free in an order that the 32 ns timer resolves and the refills'
  // SMs are decided by the data, not by ties. One refill wave each: 1024 threads (2 blocks/SM,
  // 1 us apart) and 256 threads (8 blocks/SM, 0.5 us apart).
  {
    const int per_sm = blocks_per_sm(true, 1024, 0);
    const int per_sm256 = blocks_per_sm(true, 256, 0);
    const auto staggered = [&](int blocks, int threads, uint64_t step_ps, uint64_t multiplier) {
      Case c = constant_case("stagger" + std::to_string(blocks) + "_bs" + std::to_string(threads), "staggered",
                             blocks, threads, 0, 30, "durations 30 us + ((block x multiplier) mod blocks) steps");
      c.kind = DurationKind::kPattern;
      c.durations_ps.clear();
      for (int b = 0; b < blocks; ++b)
        c.durations_ps.push_back(30 * kPsPerUs + (static_cast<uint64_t>(b) * multiplier % blocks) * step_ps);
      c.note = "distinct durations: 30 us + ((block x " + std::to_string(multiplier) + ") mod " +
               std::to_string(blocks) + ") x " + format_duration_ps(step_ps);
      return c;
    };
    if (per_sm > 0) cases.push_back(staggered(per_sm * sms + sms + 1, 1024, kPsPerUs, 89));
    if (per_sm256 > 0) cases.push_back(staggered(per_sm256 * sms + 300, 256, kPsPerUs / 2, 389));
  }

  // Tiny blocks: dispatch throughput (block count kept small enough for the committed data).
  cases.push_back(constant_case("tiny32", "tiny", 20000, 32, 0, 1,
                                "dispatch throughput: many 32-thread 1 us blocks"));
  cases.push_back(constant_case("tiny1024", "tiny", 8000, 1024, 0, 5,
                                "dispatch throughput: many 1024-thread 5 us blocks"));

  // Back-to-back launches of one half wave: where does each launch start?
  {
    Case c = constant_case("b2b" + std::to_string(sms) + "x5", "back_to_back", sms, 1024, 0, 20,
                           "5 back-to-back launches on one stream, one timeline");
    c.launches = 5;
    cases.push_back(c);
  }
  return cases;
}

}  // namespace placement

// Robustness: mutated specs, workload files and timelines give InputError or a launch, never anything else.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/replay_timeline.h"
#include "gpusched/workloads/synthetic_work.h"
#include "gpusched/workloads/workload_file.h"

using namespace gpusched;
using namespace gpusched::workloads;

namespace {

/// Deterministic mutations of `text`: byte flips, deletions, insertions of interesting characters.
std::string mutate(const std::string& text, std::uint64_t seed) {
    static constexpr char chars[] = ":,=x~/-.#\"'[]{}&*!|>\n\t\r\0\xff 0123456789e";
    static const std::string interesting(chars, sizeof chars - 1);
    std::string out = text;
    const int edits = 1 + static_cast<int>(splitmix64(seed) % 4);
    for (int e = 0; e < edits; ++e) {
        const std::uint64_t h = splitmix64(seed * 31 + static_cast<std::uint64_t>(e));
        const std::size_t pos = out.empty() ? 0 : static_cast<std::size_t>(h % out.size());
        const char c = interesting[(h >> 20) % interesting.size()];
        switch ((h >> 40) % 3) {
            case 0: if (!out.empty()) out[pos] = c; break;
            case 1: if (!out.empty()) out.erase(pos, 1 + (h >> 50) % 3); break;
            default: out.insert(pos, 1, c); break;
        }
    }
    return out;
}

template <typename F>
void only_input_errors(F&& attempt) {
    try {
        attempt();
    } catch (const InputError&) {
    }
}

}  // namespace

TEST_CASE("mutated kernel specs throw only InputError") {
    const std::vector<std::string> seeds = {
        "synthetic:blocks=265,threads=1024,duration=50us",
        "synthetic:grid=4x3x2,block=16x8,regs=64,smem=1024,carveout=50,stream=3,name=a,duration=1us/2us/3us",
        "synthetic:blocks=1099511627776,threads=32,duration=10us~50us,seed=7,active_warps=1",
    };
    for (const auto& seed_text : seeds)
        for (std::uint64_t i = 0; i < 3000; ++i)
            only_input_errors([&] {
                const KernelLaunch k = parse_kernel_spec(mutate(seed_text, i), "--kernel");
                CHECK(k.blocks() >= 1);
                (void)k.work->duration(k.blocks() - 1);
                (void)k.work->describe();
            });
}

TEST_CASE("mutated workload files throw only InputError") {
    std::ifstream in(std::string(GPUSCHED_SOURCE_DIR) + "/tests/workloads/data/workload_example.yaml");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(!text.empty());
    for (std::uint64_t i = 0; i < 3000; ++i)
        only_input_errors([&] { (void)parse_workload(mutate(text, i), "w.yaml"); });
}

TEST_CASE("mutated timelines throw only InputError") {
    std::ifstream in(std::string(GPUSCHED_SOURCE_DIR) + "/tests/workloads/data/replay_two_kernels.csv");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(!text.empty());
    const std::filesystem::path path = std::filesystem::temp_directory_path() / "gpusched_replay_fuzz.csv";
    for (std::uint64_t i = 0; i < 500; ++i) {
        {
            std::ofstream out(path, std::ios::binary | std::ios::trunc);
            out << mutate(text, i);
        }
        only_input_errors([&] {
            const Application app = load_replay_timeline(path.string(), 64, 0, 0);
            for (const auto& launch : app.launches) (void)launch.work->duration(launch.blocks() - 1);
        });
    }
    std::filesystem::remove(path);
}

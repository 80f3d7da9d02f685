// APSP generators: launch counts, grids, block categories, exact active warps, per-warp work, errors.
#include <doctest/doctest.h>

#include <chrono>
#include <set>

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/apsp_fw.h"
#include "gpusched/workloads/apsp_minplus.h"
#include "gpusched/workloads/cycle_latency.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/workload_file.h"

using namespace gpusched;
using namespace gpusched::workloads;

namespace {

using Category = ApspGrid::Category;

KernelLaunch spec(const std::string& text) { return parse_kernel_spec(text, "--kernel"); }

const ApspWork& work_of(const KernelLaunch& launch) { return dynamic_cast<const ApspWork&>(*launch.work); }

void check_error(const std::string& text, const std::string& message) {
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(spec(text), message.c_str(), InputError);
}

/// Active warps by brute force: mark the warp of every active thread.
std::uint64_t brute_force_warps(std::uint64_t width, std::uint64_t height, std::uint64_t cols, std::uint64_t rows,
                                std::uint64_t warp_size) {
    std::set<std::uint64_t> warps;
    for (std::uint64_t y = 0; y < height; ++y)
        for (std::uint64_t x = 0; x < width; ++x)
            if (x < cols && y < rows) warps.insert((y * width + x) / warp_size);
    return warps.size();
}

}  // namespace

TEST_CASE("Min-plus launch count is max(1, ceil(log2(n-1)))") {
    CHECK(minplus_steps(2) == 1);  // ceil(log2 1) = 0 in the paper; we keep one launch
    CHECK(minplus_steps(3) == 1);
    CHECK(minplus_steps(4) == 2);
    CHECK(minplus_steps(5) == 2);
    CHECK(minplus_steps(17) == 4);
    CHECK(minplus_steps(18) == 5);
    // n = 64: ceil(log2 63) = 6; n = 65: ceil(log2 64) = 6 (exactly 2^6, no extra launch);
    // n = 66: ceil(log2 65) = 7. So by eq. 1 the extra launch comes at n = 66, not 65. The
    // paper's measured jump at n = 65 (Sect. 5.1) matches ceil(log2 n) instead: steps=7 models it.
    CHECK(minplus_steps(64) == 6);
    CHECK(minplus_steps(65) == 6);
    CHECK(minplus_steps(66) == 7);
    CHECK(minplus_steps(100) == 7);
    CHECK(minplus_steps(1'000'000) == 20);
    CHECK(minplus_steps(2147483647) == 31);
}

TEST_CASE("application_from_specs expands a Min-plus spec into its launches") {
    const Application app = application_from_specs({"apsp-minplus:n=100,block=16"});
    REQUIRE(app.launches.size() == 7);  // ceil(log2 99) = 7
    for (const auto& launch : app.launches) {
        CHECK(launch.name == "apsp-minplus");
        CHECK(launch.stream == 0);
        CHECK(launch.grid == Dim3{7, 7, 1});
        CHECK(launch.block == Dim3{16, 16, 1});
        CHECK(launch.work == app.launches[0].work);
    }
    CHECK(app.description == "apsp-minplus:n=100,block=16");

    const Application mixed = application_from_specs(
        {"synthetic:blocks=1,threads=32,duration=1us", "apsp-minplus:n=65,block=8,stream=3,steps=7", "apsp-fw:n=5,block=4"});
    REQUIRE(mixed.launches.size() == 1 + 7 + 5);
    CHECK(mixed.launches[0].name == "synthetic");
    for (std::size_t i = 1; i < 8; ++i) CHECK(mixed.launches[i].stream == 3);
    for (std::size_t i = 8; i < 13; ++i) CHECK(mixed.launches[i].name == "apsp-fw");

    SUBCASE("parse_kernel_spec gives one of the launches and the count separately") {
        const SpecLaunches s = parse_kernel_spec_launches("apsp-minplus:n=66,block=8", "--kernel");
        CHECK(s.count == 7);
        CHECK(spec("apsp-minplus:n=66,block=8").grid == s.launch.grid);
        CHECK(parse_kernel_spec_launches("synthetic:blocks=1,threads=1,duration=1us", "--kernel").count == 1);
    }
    SUBCASE("the application launch limit") {
        CHECK_THROWS_WITH_AS(
            application_from_specs({"synthetic:blocks=1,threads=1,duration=1us", "apsp-fw:n=1000000,block=32"}, "--kernel"),
            "--kernel #2: the application would have more than 1000000 launches (this spec stands for 1000000)",
            InputError);
    }
}

TEST_CASE("n = 81, BS = 8: 11 x 11 blocks, one active column or row at the edges") {
    const KernelLaunch k = spec("apsp-minplus:n=81,block=8");
    CHECK(k.grid == Dim3{11, 11, 1});
    CHECK(k.block == Dim3{8, 8, 1});
    CHECK(k.static_shared_bytes == 2 * 8 * 8 * 4);  // D1 and D2 tiles of 32-bit elements
    const ApspGrid& g = work_of(k).grid();
    CHECK(g.width() == 11);
    CHECK(g.category(0) == Category::full);
    CHECK(g.category(9) == Category::full);
    CHECK(g.category(10) == Category::right);    // row 0, column 10
    CHECK(g.category(109) == Category::right);   // row 9, column 10
    CHECK(g.category(110) == Category::bottom);  // row 10, column 0
    CHECK(g.category(119) == Category::bottom);
    CHECK(g.category(120) == Category::last);
    CHECK(g.blocks_in(Category::full) == 100);
    CHECK(g.blocks_in(Category::right) == 10);
    CHECK(g.blocks_in(Category::bottom) == 10);
    CHECK(g.blocks_in(Category::last) == 1);
    CHECK(g.active_columns(Category::right) == 1);
    CHECK(g.active_rows(Category::right) == 8);
    CHECK(g.active_rows(Category::bottom) == 1);
    CHECK(g.active_threads(Category::last) == 1);
    // 64 threads = 2 warps of 4 rows each. Right: column 0 of every row, so both warps;
    // bottom: row 0 only, so warp 0; last: thread 0 only.
    const int warps = 2;
    CHECK(k.work->active_warps(0, warps) == 2);
    CHECK(k.work->active_warps(10, warps) == 2);
    CHECK(k.work->active_warps(110, warps) == 1);
    CHECK(k.work->active_warps(120, warps) == 1);
    std::uint64_t total = 0;  // eq. 6 with exact per-block counts
    for (std::uint64_t b = 0; b < k.blocks(); ++b) total += static_cast<std::uint64_t>(k.work->active_warps(b, warps));
    CHECK(total == 100 * 2 + 10 * 2 + 10 * 1 + 1);
    CHECK(application_from_specs({"apsp-minplus:n=81,block=8"}).launches.size() == 7);  // ceil(log2 80)
}

TEST_CASE("n = 97, BS = 32: 4 x 4 blocks; a bottom block has 1 active warp of 32") {
    const KernelLaunch k = spec("apsp-minplus:n=97,block=32x32");
    CHECK(k.grid == Dim3{4, 4, 1});
    CHECK(k.threads_per_block() == 1024);
    CHECK(k.work->active_warps(0, 32) == 32);   // full
    CHECK(k.work->active_warps(3, 32) == 32);   // right: column 0 of each of 32 one-warp rows
    CHECK(k.work->active_warps(12, 32) == 1);   // bottom: row 0 is warp 0
    CHECK(k.work->active_warps(15, 32) == 1);   // last
    // A GPU with 64-thread warps (16 per block): two rows per warp.
    CHECK(k.work->active_warps(0, 16) == 16);
    CHECK(k.work->active_warps(3, 16) == 16);
    CHECK(k.work->active_warps(12, 16) == 1);
    CHECK(k.work->active_warps(12, 0) == 0);
}

TEST_CASE("exact active warps match a brute-force count and the paper's regular cases") {
    for (std::uint64_t width : {1, 2, 3, 7, 8, 12, 16, 24, 31, 32, 33, 40, 64})
        for (std::uint64_t warp : {32, 64, 16})
            for (std::uint64_t cols = 1; cols <= width; cols += 1 + width / 5)
                for (std::uint64_t rows = 1; rows <= width; rows += 1 + width / 5) {
                    CAPTURE(width);
                    CAPTURE(warp);
                    CAPTURE(cols);
                    CAPTURE(rows);
                    const std::uint64_t exact = active_warps_in_tile(width, cols, rows, warp);
                    CHECK(exact == brute_force_warps(width, width, cols, rows, warp));
                    if (width % warp == 0) CHECK(exact == rows * ((cols + warp - 1) / warp));  // rows start warps
                    if (warp % width == 0) CHECK(exact == (rows * width + warp - 1) / warp);   // warps hold rows
                }
    CHECK(active_warps_in_tile(16, 0, 16, 32) == 0);
    CHECK(active_warps_in_tile(16, 16, 0, 32) == 0);
}

TEST_CASE("n a multiple of BS: every block is full") {
    const KernelLaunch k = spec("apsp-minplus:n=64,block=16");
    const ApspGrid& g = work_of(k).grid();
    CHECK(g.width() == 4);
    CHECK(g.blocks_in(Category::full) == 16);
    CHECK(g.blocks_in(Category::right) == 0);
    for (std::uint64_t b = 0; b < 16; ++b) CHECK(g.category(b) == Category::full);
    CHECK(k.work->active_warps(15, 8) == 8);
}

TEST_CASE("Min-plus per-warp work: issue slots, bytes from eqs. 4-5, fixed stand-in, cycle latency") {
    const KernelLaunch k = spec("apsp-minplus:n=100,block=16");
    const ApspWork& w = work_of(k);
    // GW = 7: 7 x (16 x 4 + 10) + 2 + 3 x 0.5 = 521.5
    CHECK(w.cost().issue_slots == doctest::Approx(521.5));
    // 4 x ((1 + 2 x 7 + 0.5) + 2 x 0.5) = 66 bytes per thread
    CHECK(w.cost().dram_bytes_per_thread == doctest::Approx(66));
    const auto full = k.work->warp_work(0);
    REQUIRE(full);
    CHECK(full->issue_slots == doctest::Approx(521.5));
    CHECK(full->latency_bound == 0);
    CHECK(full->dram_bytes == doctest::Approx(66 * 32));
    // Right block: 4 active columns x 16 rows = 64 threads in 8 warps (2 rows per warp).
    CHECK(k.work->active_warps(6, 8) == 8);
    CHECK(k.work->warp_work(6)->dram_bytes == doctest::Approx(66.0 * 64 / 8));
    // Last block: 4 x 4 threads in 2 warps.
    CHECK(k.work->active_warps(48, 8) == 2);
    CHECK(k.work->warp_work(48)->dram_bytes == doctest::Approx(66.0 * 16 / 2));
    CHECK(k.work->duration(0) == 521'500);  // 521.5 slots x 1 ns
    CHECK(k.work->duration(48) == 521'500);
    CHECK(w.latency_bound_cycles(0) == 0);
    CHECK(k.work->describe() == "apsp-minplus n=100 block=16: 7x7 grid, 7 launches; per warp 521.5 issue slots, 2112 B");

    const KernelLaunch t = spec("apsp-minplus:n=100,block=16,instr_per_step=1000,instr_per_tile=0,p_min=0,"
                                "elem_bytes=8,tile_latency_cycles=100,ns_per_instr=0.5,static_smem=0,regs=32");
    CHECK(work_of(t).cost().issue_slots == doctest::Approx(7 * 16 * 1000 + 2));
    CHECK(work_of(t).cost().dram_bytes_per_thread == doctest::Approx(8 * 15));
    CHECK(t.static_shared_bytes == 0);
    CHECK(t.registers_per_thread == 32);
    CHECK(t.work->duration(0) == 56'001'000);  // 112002 slots x 0.5 ns
    CHECK(work_of(t).latency_bound_cycles(5) == doctest::Approx(700));
    const auto at_clock = warp_work_at_clock(*t.work, 5, 1000.0);  // 1 GHz: 1 cycle = 1000 ps
    REQUIRE(at_clock);
    CHECK(at_clock->latency_bound == 700'000);
    CHECK(at_clock->issue_slots == doctest::Approx(112002));
}

TEST_CASE("Floyd-Warshall: n launches, one step per warp, bytes from eqs. 23-24") {
    const SpecLaunches s = parse_kernel_spec_launches("apsp-fw:n=81,block=8", "--kernel");
    CHECK(s.count == 81);
    CHECK(s.launch.grid == Dim3{11, 11, 1});
    CHECK(s.launch.static_shared_bytes == 0);
    const ApspWork& w = work_of(s.launch);
    CHECK(w.cost().issue_slots == doctest::Approx(2 + 3 + 1.5));
    CHECK(w.cost().dram_bytes_per_thread == doctest::Approx(4 * (2.5 + 1)));
    CHECK(s.launch.work->active_warps(110, 2) == 1);  // same grid and categories as Min-plus
    CHECK(s.launch.work->duration(0) == 6'500);
    CHECK(parse_kernel_spec_launches("apsp-fw:n=1,block=1", "--kernel").count == 1);
    CHECK(application_from_specs({"apsp-fw:n=20,block=16"}).launches.size() == 20);
    CHECK(work_of(spec("apsp-fw:n=10,block=4,latency_cycles=500")).latency_bound_cycles(0) == doctest::Approx(500));
}

TEST_CASE("a billion-block Min-plus launch is built instantly and answers any block") {
    const auto start = std::chrono::steady_clock::now();
    const KernelLaunch k = spec("apsp-minplus:n=1000000,block=32");
    CHECK(k.grid == Dim3{31250, 31250, 1});
    CHECK(k.blocks() == 976'562'500);
    CHECK(k.work->active_warps(0, 32) == 32);
    CHECK(k.work->active_warps(k.blocks() - 1, 32) == 32);  // 10^6 = 31250 x 32: all full
    const KernelLaunch odd = spec("apsp-minplus:n=999999,block=32");
    CHECK(odd.work->active_warps(odd.blocks() - 1, 32) == 31);  // 31 x 31 active threads
    CHECK(odd.work->active_warps(odd.blocks() - 2, 32) == 31);  // bottom: 31 rows
    CHECK(odd.work->active_warps(31249, 32) == 32);             // right: 31 columns of 32 rows
    CHECK(parse_kernel_spec_launches("apsp-minplus:n=1000000,block=32", "--kernel").count == 20);
    const auto elapsed = std::chrono::steady_clock::now() - start;
    CHECK(elapsed < std::chrono::milliseconds(200));
}

TEST_CASE("APSP spec errors name the key and what is allowed") {
    check_error("apsp-minplus:n=1,block=8", "--kernel: key 'n': expected an integer in [2, 2147483647], got '1'");
    check_error("apsp-minplus:block=8", "--kernel: kernel 'apsp-minplus': required key 'n' is missing");
    check_error("apsp-minplus:n=10", "--kernel: kernel 'apsp-minplus': required key 'block' is missing");
    const std::string bs = "expected BS or BSxBS (square tiles of BS x BS threads) with BS in [1, 1024], got ";
    check_error("apsp-minplus:n=10,block=0", "--kernel: key 'block': " + bs + "'0'");
    check_error("apsp-minplus:n=10,block=1025", "--kernel: key 'block': " + bs + "'1025'");
    check_error("apsp-minplus:n=10,block=8x16", "--kernel: key 'block': " + bs + "'8x16'");
    check_error("apsp-minplus:n=10,block=8x8x1", "--kernel: key 'block': " + bs + "'8x8x1'");
    check_error("apsp-fw:n=10,block=x", "--kernel: key 'block': " + bs + "'x'");
    CHECK(spec("apsp-minplus:n=100,block=33").threads_per_block() == 1089);  // the GPU's limit is checked later
    CHECK(spec("apsp-minplus:n=100,block=1024").threads_per_block() == 1048576);
    const std::string unused =
        "not used by kernel 'apsp-minplus': the block is BS x BS threads (block=BS) and the grid ceil(n/BS) x "
        "ceil(n/BS) blocks";
    check_error("apsp-minplus:n=10,block=8,blocks=4", "--kernel: key 'blocks': " + unused);
    check_error("apsp-minplus:n=10,block=8,grid=2x2", "--kernel: key 'grid': " + unused);
    check_error("apsp-minplus:n=10,threads=64", "--kernel: key 'threads': " + unused);
    check_error("apsp-minplus:n=10,block=8,threads=64", "--kernel: key 'block': give either 'threads' or 'block', not both");
    check_error("apsp-minplus:n=10,block=8,p_min=1.5", "--kernel: key 'p_min': expected a number in [0, 1], got '1.5'");
    check_error("apsp-minplus:n=10,block=8,p_min=nan", "--kernel: key 'p_min': expected a number in [0, 1], got 'nan'");
    check_error("apsp-minplus:n=10,block=8,instr_per_step=-1",
                "--kernel: key 'instr_per_step': expected a number in [0, 1000000], got '-1'");
    check_error("apsp-minplus:n=10,block=8,steps=0", "--kernel: key 'steps': expected an integer in [1, 1000000], got '0'");
    check_error("apsp-minplus:n=10,block=8,elem_bytes=0",
                "--kernel: key 'elem_bytes': expected an integer in [1, 1024], got '0'");
    check_error("apsp-minplus:n=2147483647,block=1",
                "--kernel: key 'n': n=2147483647 with block=1 needs a 2147483647 x 2147483647 grid; at most 1048576 x "
                "1048576 (2^40 blocks), i.e. n <= 1048576");
    check_error("apsp-minplus:n=1073741824,block=1024,instr_per_step=1000000,ns_per_instr=1000000",
                "--kernel: key 'ns_per_instr': 1.07374e+15 issue slots x 1000000 ns per instruction is beyond "
                "the longest duration (2^63 ps); use a smaller n or ns_per_instr");
    check_error("apsp-fw:n=0,block=8", "--kernel: key 'n': expected an integer in [1, 1000000], got '0'");
    check_error("apsp-fw:n=1000001,block=8", "--kernel: key 'n': expected an integer in [1, 1000000], got '1000001'");
    check_error("apsp-fw:n=10,block=8,tile_latency_cycles=5",
                "--kernel: key 'tile_latency_cycles': unknown key for kernel 'apsp-fw' (allowed: threads, block, blocks, "
                "grid, regs, smem, static_smem, barriers, carveout, stream, name, cluster, cluster_nonportable, n, steps, instr_per_step, latency_cycles, "
                "p_min, elem_bytes, ns_per_instr)");
}

TEST_CASE("APSP in a workload file: same keys, launches expanded, repeat multiplies") {
    const Application app = parse_workload(
        "launches:\n"
        "  - kernel: apsp-minplus\n"
        "    n: 100\n"
        "    block: 16\n"
        "    stream: 2\n"
        "    repeat: 2\n"
        "  - {kernel: apsp-fw, n: 3, block: 2x2, p_min: 0.25}\n",
        "w.yaml");
    REQUIRE(app.launches.size() == 2 * 7 + 3);
    for (std::size_t i = 0; i < 14; ++i) {
        CHECK(app.launches[i].stream == 2);
        CHECK(app.launches[i].grid == Dim3{7, 7, 1});
    }
    CHECK(app.launches[14].name == "apsp-fw");
    CHECK(work_of(app.launches[16]).cost().issue_slots == doctest::Approx(5.75));
    CHECK(app.launches[0].work->describe() == spec("apsp-minplus:n=100,block=16").work->describe());

    CHECK_THROWS_WITH_AS(parse_workload("launches:\n  - kernel: apsp-minplus\n    n: 10\n    block: 0\n", "w.yaml"),
                         "w.yaml:4: key 'launches[0].block': expected BS or BSxBS (square tiles of BS x BS threads) "
                         "with BS in [1, 1024], got '0'",
                         InputError);
    CHECK_THROWS_WITH_AS(parse_workload("launches:\n  - kernel: apsp-minplus\n    block: 8\n", "w.yaml"),
                         "w.yaml:2: 'launches[0]': kernel 'apsp-minplus': required key 'n' is missing", InputError);
    CHECK_THROWS_WITH_AS(
        parse_workload("launches:\n  - {kernel: synthetic, blocks: 1, threads: 1, duration: 1us}\n"
                       "  - {kernel: apsp-fw, n: 1000000, block: 32}\n",
                       "w.yaml"),
        "w.yaml:3: key 'launches[1]': the workload would have more than 1000000 launches (after repeats)", InputError);
}

TEST_CASE("APSP generators are registered, deterministic, and take over the generic block key") {
    const KernelGeneratorInfo* minplus = find_kernel_generator("apsp-minplus");
    const KernelGeneratorInfo* fw = find_kernel_generator("apsp-fw");
    REQUIRE(minplus != nullptr);
    REQUIRE(fw != nullptr);
    CHECK(minplus->launches);
    CHECK(minplus->keys_help().rfind("n=N block=BS | BSxBS steps=S", 0) == 0);
    CHECK(parse_kernel_spec_launches(minplus->example, "--kernel").count == 9);  // n = 500: ceil(log2 499)
    CHECK(parse_kernel_spec_launches(fw->example, "--kernel").count == 500);
    const KernelLaunch a = spec("apsp-minplus:n=81,block=8,name=mp");
    const KernelLaunch b = spec("apsp-minplus : name=mp , block=8 , n=81");
    CHECK(a.name == "mp");
    CHECK(a.work->describe() == b.work->describe());
    for (std::uint64_t i = 0; i < a.blocks(); ++i) {
        CHECK(a.work->active_warps(i, 2) == b.work->active_warps(i, 2));
        CHECK(a.work->warp_work(i)->dram_bytes == b.work->warp_work(i)->dram_bytes);
    }
    // The generic `block` still means XxYxZ for other generators.
    CHECK(spec("synthetic:blocks=1,block=8x4x2,duration=1us").block == Dim3{8, 4, 2});
}

TEST_CASE("mutated APSP and binomial specs throw only InputError") {
    const std::vector<std::string> seeds = {"apsp-minplus:n=100,block=16,p_min=0.5,steps=3",
                                            "apsp-fw:n=81,block=8x8,latency_cycles=40",
                                            "binomial-series:blocks=208,threads=128,terms=1000,instr_per_term=9.5"};
    static constexpr char chars[] = ":,=x~/-.#e0123456789 ";
    int built = 0;
    for (const auto& seed : seeds)
        for (std::uint64_t i = 0; i < 3000; ++i) {
            std::string text = seed;
            const std::uint64_t h = (i + 1) * 0x9e3779b97f4a7c15ULL;
            const std::size_t pos = static_cast<std::size_t>(h % text.size());
            const char c = chars[(h >> 32) % (sizeof chars - 1)];
            if ((h >> 60) % 2 == 0) text[pos] = c; else text.insert(pos, 1, c);
            try {
                const SpecLaunches s = parse_kernel_spec_launches(text, "--kernel");
                CHECK(s.count >= 1);
                CHECK(s.launch.work->warp_work(s.launch.blocks() - 1));
                ++built;
            } catch (const InputError&) {
            }
        }
    CHECK(built > 0);
}

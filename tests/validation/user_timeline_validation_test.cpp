// validate --timelines: a user's directory of timeline CSVs, found recursively, each replayed like a placement case.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "experiments/placement/comparison.h"
#include "experiments/user_timelines/comparison.h"
#include "experiments/user_timelines/view.h"

using namespace gpusched;
namespace fs = std::filesystem;

namespace {

const fs::path kPlacement = fs::path(GPUSCHED_SOURCE_DIR) / "validation/data/h100/placement";

/// A fresh directory under the system's temporary directory, removed at scope exit.
struct TempDir {
    fs::path path;
    explicit TempDir(const std::string& name) : path(fs::temp_directory_path() / name) {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() { fs::remove_all(path); }
};

std::string text_of(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
}

}  // namespace

TEST_CASE("a user's directory: every timeline under it, in path order, replayed exactly as the placement section does") {
    TempDir dir("gpusched-user-timelines-test");
    fs::copy_file(kPlacement / "wave265.csv", dir.path / "wave265.csv");
    fs::create_directories(dir.path / "runs");
    fs::copy_file(kPlacement / "b2b132x5.csv", dir.path / "runs/b2b132x5.csv");
    write(dir.path / "notes/summary.csv", "# a table that is not a timeline\nkernel,ms\nk,1.5\n");
    write(dir.path / "readme.txt", "not a CSV: not looked at\n");

    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    // Stamp durations: the placement section takes end - start (its spin kernels stamp at dispatch).
    const auto user = validation::validate_user_timelines(dir.path.string(), gpu, "walk", false,
                                                          validation::BlockDurations::stamps);
    REQUIRE(user.files.size() == 2);
    // Path order: "runs/b2b132x5.csv" < "wave265.csv".
    CHECK(user.files[0].file == "runs/b2b132x5.csv");
    CHECK(user.files[1].file == "wave265.csv");
    CHECK(user.skipped == std::vector<std::string>{"notes/summary.csv"});

    // The placement section replays the same files with the same shape (threads from the
    // metadata, no registers): the numbers must be identical.
    const auto placement = validation::validate_placement(kPlacement.string(), gpu, "walk");
    for (const auto& f : user.files) {
        CAPTURE(f.file);
        const std::string stem = fs::path(f.file).stem().string();
        const auto it = std::find_if(placement.begin(), placement.end(), [&](const auto& c) { return c.name == stem; });
        REQUIRE(it != placement.end());
        CHECK(f.replay.measured_us == it->measured_us);
        CHECK(f.replay.simulated_us == it->simulated_us);
        CHECK(f.replay.misplaced == it->misplaced);
        CHECK(f.replay.walk_start == it->walk_start);
        CHECK(f.threads == 1024);
        CHECK(f.regs == 0);
        // Per-SM counts add up to the blocks, measured and simulated.
        const auto sum = [](const std::map<int, int>& m) {
            return std::accumulate(m.begin(), m.end(), std::uint64_t{0}, [](auto a, const auto& kv) { return a + kv.second; });
        };
        CHECK(sum(f.replay.measured_per_sm) == f.replay.blocks);
        CHECK(sum(f.replay.simulated_per_sm) == f.replay.blocks);
    }
    // b2b132x5: 5 launches of 132 blocks, each with its own span; wave265: one launch.
    const auto& b2b = user.files[0];
    CHECK(b2b.launches == 5);
    REQUIRE(b2b.replay.launches.size() == 5);
    for (std::size_t k = 0; k < 5; ++k) {
        CHECK(b2b.replay.launches[k].launch == k);
        CHECK(b2b.replay.launches[k].blocks == 132);
        CHECK(b2b.replay.launches[k].measured_us > 0);
        // Each launch lies inside the file's span.
        CHECK(b2b.replay.launches[k].measured_us <= b2b.replay.measured_us);
    }
    CHECK(user.files[1].launches == 1);

    // The text names both files, the skipped table, the launch spans and the bottom line.
    std::ostringstream text;
    validation::UserTimelinesView(user, dir.path.string(), gpu, "walk").print_text(text);
    CHECK(text.str().find("runs/b2b132x5.csv") != std::string::npos);
    CHECK(text.str().find("launch spans") != std::string::npos);
    CHECK(text.str().find("skipped notes/summary.csv: not a timeline") != std::string::npos);
    CHECK(text.str().find("2 files: ") != std::string::npos);
    // JSON: per-SM arrays over all 132 SMs.
    nlohmann::ordered_json j;
    validation::UserTimelinesView(user, dir.path.string(), gpu, "walk").add_json(j);
    CHECK(j["files"].size() == 2);
    CHECK(j["files"][1]["measured_blocks_per_sm"].size() == 132);
    CHECK(j["files"][0]["launch_spans"].size() == 5);
}

TEST_CASE("a user's directory: what is refused") {
    TempDir dir("gpusched-user-timelines-bad");
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    CHECK_THROWS_WITH_AS(validation::validate_user_timelines((dir.path / "missing").string(), gpu, "walk"),
                         doctest::Contains("not a directory of timeline CSV files"), InputError);
    write(dir.path / "other.csv", "a,b\n1,2\n");
    CHECK_THROWS_WITH_AS(validation::validate_user_timelines(dir.path.string(), gpu, "walk"),
                         doctest::Contains("no timeline CSV files (a timeline's header names block, sm, start_ns and "
                                           "end_ns; 1 other CSV files)"),
                         InputError);

    // Without '# threads=' the block shape is unknown.
    std::string wave = text_of(kPlacement / "wave265.csv");
    std::string no_threads = wave;
    no_threads.erase(no_threads.find("# threads=1024\n"), 15);
    write(dir.path / "k.csv", no_threads);
    CHECK_THROWS_WITH_AS(validation::validate_user_timelines(dir.path.string(), gpu, "walk"),
                         doctest::Contains("k.csv: metadata line '# threads=' is missing (threads per block)"), InputError);

    // A timeline recorded on another GPU than the simulated one.
    std::string other_gpu = wave;
    other_gpu.replace(other_gpu.find("# sm_count=132"), 14, "# sm_count=108");
    write(dir.path / "k.csv", other_gpu);
    CHECK_THROWS_WITH_AS(validation::validate_user_timelines(dir.path.string(), gpu, "walk"),
                         doctest::Contains("k.csv: recorded on a GPU with 108 SMs ('# sm_count='), but the simulated GPU "
                                           "'h100' has 132 SMs"),
                         InputError);

    std::string bad_regs = wave;
    bad_regs.replace(bad_regs.find("# threads=1024"), 14, "# regs=70000\n# threads=1024");
    write(dir.path / "k.csv", bad_regs);
    CHECK_THROWS_WITH_AS(validation::validate_user_timelines(dir.path.string(), gpu, "walk"),
                         doctest::Contains("k.csv: metadata 'regs': expected an integer in [0, 65536], got '70000'"),
                         InputError);
}

TEST_CASE("is_timeline_csv reads the header after the metadata") {
    TempDir dir("gpusched-user-timelines-header");
    write(dir.path / "a.csv", "# x=1\n\nkernel,launch,block,sm,dispatch_ns,start_ns,end_ns\nk,0,0,0,0,0,1\n");
    write(dir.path / "b.csv", "# x=1\nblock,sm,start_ns\n0,0,0\n");
    write(dir.path / "c.csv", "# only metadata\n");
    CHECK(validation::is_timeline_csv((dir.path / "a.csv").string()));
    CHECK_FALSE(validation::is_timeline_csv((dir.path / "b.csv").string()));  // no end_ns
    CHECK_FALSE(validation::is_timeline_csv((dir.path / "c.csv").string()));  // no header at all
}

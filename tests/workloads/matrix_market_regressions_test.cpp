// Replays the Matrix Market fuzz corpus and every input the fuzzer flagged: each parses or throws InputError.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/matrix_market.h"
#include "gpusched/workloads/spmv_work.h"

using namespace gpusched;
using namespace gpusched::workloads;

namespace {

/// The files of tests/fuzz/DIR/matrix_market, sorted (the fuzzer names them by content hash).
std::vector<std::filesystem::path> inputs(const std::string& dir) {
    const std::filesystem::path root = std::filesystem::path(GPUSCHED_SOURCE_DIR) / "tests/fuzz" / dir / "matrix_market";
    std::vector<std::filesystem::path> out;
    for (const auto& entry : std::filesystem::directory_iterator(root))
        if (entry.is_regular_file() && entry.path().filename().string().front() != '.') out.push_back(entry.path());
    std::sort(out.begin(), out.end());
    return out;
}

/// The fuzz target's limits (tests/fuzz/matrix_market_fuzz.cpp).
MatrixMarketLimits fuzz_limits() {
    MatrixMarketLimits limits;
    limits.max_rows = std::uint64_t{1} << 16;
    limits.max_cols = std::uint64_t{1} << 20;
    limits.max_entries = std::uint64_t{1} << 18;
    return limits;
}

/// Parses `path` from memory and from disk: both succeed with the same pattern or both throw InputError.
/// Returns whether it parsed.
bool replay(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    bool parsed = false;
    std::unique_ptr<MatrixMarketMatrix> from_text;
    try {
        from_text = std::make_unique<MatrixMarketMatrix>(parse_matrix_market(bytes, path.string(), fuzz_limits()));
        from_text->pattern.check();
        parsed = true;
        auto offsets = std::make_shared<const std::vector<std::uint64_t>>(from_text->pattern.row_offsets);
        const SpmvCooWork coo(offsets, 64, SpmvCosts{});
        for (std::uint64_t b = 0; b < coo.blocks() && b < 16; ++b) (void)coo.warp_work(b);
    } catch (const InputError& e) {
        CHECK(std::string(e.what()).rfind(path.string() + ":", 0) == 0);  // names the file (and line)
    }
    try {
        const MatrixMarketMatrix from_disk = read_matrix_market(path.string(), fuzz_limits());
        CHECK(parsed);
        if (from_text) CHECK(from_disk.pattern == from_text->pattern);
    } catch (const InputError&) {
        CHECK_FALSE(parsed);
    }
    return parsed;
}

}  // namespace

TEST_CASE("matrix market fuzz corpus: the hand-written seeds parse, the fuzzer's inputs parse or throw InputError") {
    // *.mtx are hand-written valid files; the others (named by content hash) are the corpus the
    // fuzzer grew, minimised with -merge=1: mostly malformed inputs that reach distinct code.
    const auto files = inputs("corpus");
    std::size_t seeds = 0;
    for (const auto& f : files) {
        CAPTURE(f.string());
        if (f.extension() == ".mtx") {
            ++seeds;
            CHECK(replay(f));
        } else {
            CHECK_NOTHROW(replay(f));
        }
    }
    CHECK(seeds >= 5);
    CHECK(files.size() > seeds);
}

TEST_CASE("matrix market fuzz regressions: each input the fuzzer flagged parses or throws InputError") {
    for (const auto& f : inputs("regressions")) {
        CAPTURE(f.string());
        CHECK_NOTHROW(replay(f));
    }
}

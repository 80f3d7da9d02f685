// Replays the reader fuzz targets' corpora and every input they flagged: each parses (with its round trip) or throws InputError.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "reader_fuzz.h"

namespace {

/// The files of tests/fuzz/DIR/TARGET, sorted; none if the folder is missing.
std::vector<std::filesystem::path> inputs(const std::string& dir, const std::string& target) {
    const std::filesystem::path root = std::filesystem::path(GPUSCHED_SOURCE_DIR) / "tests/fuzz" / dir / target;
    std::vector<std::filesystem::path> out;
    if (!std::filesystem::is_directory(root)) return out;
    for (const auto& entry : std::filesystem::directory_iterator(root))
        if (entry.is_regular_file() && entry.path().filename().string().front() != '.') out.push_back(entry.path());
    std::sort(out.begin(), out.end());
    return out;
}

std::string contents(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("reader fuzz corpora and regressions: every input parses or is refused with a message naming its source") {
    // A target's body aborts when a property breaks (a message not naming the source, a round trip
    // that reads back different) and lets any exception but InputError escape: CHECK_NOTHROW fails.
    // Hand-written seeds have an extension (.yaml, .csv) and parse; the fuzzer's inputs (named by
    // content hash) and the regressions may be refused.
    for (const auto& target : gpusched::fuzz::reader_targets()) {
        CAPTURE(target.name);
        std::size_t seeds = 0;
        for (const auto& dir : {"corpus", "regressions"})
            for (const auto& path : inputs(dir, target.name)) {
                CAPTURE(path.string());
                const std::string bytes = contents(path);
                bool parsed = false;
                CHECK_NOTHROW(parsed = target.run(bytes));
                if (std::string(dir) == "corpus" && path.has_extension()) {
                    ++seeds;
                    CHECK(parsed);
                }
            }
        CHECK(seeds >= 3);
    }
}

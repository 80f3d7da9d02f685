// Replays the reader fuzz targets' corpora and every input they flagged: each parses (with its round trip) or throws InputError.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "reader_fuzz.h"
#include "support/fuzz_inputs.h"

using gpusched::test::file_bytes;
using gpusched::test::fuzz_inputs;

TEST_CASE("reader fuzz corpora and regressions: every input parses or is refused with a message naming its source") {
    // A target's body aborts when a property breaks (a message not naming the source, a round trip
    // that reads back different) and lets any exception but InputError escape: CHECK_NOTHROW fails.
    // Hand-written seeds have an extension (.yaml, .csv) and parse; the fuzzer's inputs (named by
    // content hash) and the regressions may be refused.
    for (const auto& target : gpusched::fuzz::reader_targets()) {
        CAPTURE(target.name);
        std::size_t seeds = 0;
        for (const auto& dir : {"corpus", "regressions"})
            for (const auto& path : fuzz_inputs(dir, target.name)) {
                CAPTURE(path.string());
                const std::string bytes = file_bytes(path);
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

// Replays the graph readers' fuzz corpora and every input the fuzzers flagged: each parses or throws InputError.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/graph_fuzz.h"
#include "support/fuzz_inputs.h"
#include "gpusched/support/input_error.h"
#include "gpusched/workloads/graph_file.h"

using namespace gpusched;
using namespace gpusched::workloads;

namespace {

/// Parses `path` from memory and from disk: both give the same graph or both throw InputError naming the file.
/// Parsed graphs go through the fuzz targets' Crauser run and kernel tables. Returns whether it parsed.
bool replay(const std::filesystem::path& path, GraphFormat format) {
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::optional<Graph> from_text;
    try {
        from_text.emplace(parse_graph_text(bytes, path.string(), format));
        fuzz::exercise_graph(*from_text);
    } catch (const InputError& e) {
        CHECK(std::string(e.what()).rfind(path.string() + ":", 0) == 0);  // names the file and line
    }
    try {
        const Graph from_disk = read_graph_file(path.string(), format);
        REQUIRE(from_text.has_value());
        CHECK(from_disk.nodes() == from_text->nodes());
        CHECK(from_disk.edges() == from_text->edges());
    } catch (const InputError& e) {
        CHECK_FALSE(from_text.has_value());
        CHECK(std::string(e.what()).rfind(path.string() + ":", 0) == 0);
    }
    return from_text.has_value();
}

}  // namespace

TEST_CASE("graph fuzz corpora parse; every flagged input parses or throws InputError") {
    for (const auto& [target, format] : {std::pair{std::string("graph_dimacs"), GraphFormat::dimacs},
                                         std::pair{std::string("graph_edge_list"), GraphFormat::edge_list}}) {
        const auto corpus = test::fuzz_inputs("corpus", target);
        CHECK(corpus.size() >= 3);
        for (const auto& path : corpus) {
            CAPTURE(path.string());
            CHECK(replay(path, format));
        }
        for (const auto& path : test::fuzz_inputs("regressions", target)) {
            CAPTURE(path.string());
            (void)replay(path, format);
        }
    }
}

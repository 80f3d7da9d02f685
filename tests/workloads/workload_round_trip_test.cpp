// The workload writer is the reader's inverse: read -> write -> read gives an equal document, and writing is a fixed point.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/workload_file.h"
#include "gpusched/workloads/workload_writer.h"
#include "support/round_trip.h"

using namespace gpusched;
using namespace gpusched::workloads;
using gpusched::test::check_round_trip;
using gpusched::test::files_under;
namespace fs = std::filesystem;

namespace {

/// YAML files with a top-level `launches:` line: the workload files.
std::vector<fs::path> workload_files() {
    std::vector<fs::path> out;
    for (const char* dir : {"examples", "tests"}) {
        for (const auto& path : files_under(gpusched::test::source_dir() / dir, ".yaml")) {
            std::ifstream in(path);
            std::string line;
            while (std::getline(in, line))
                if (line.rfind("launches:", 0) == 0) {
                    out.push_back(path);
                    break;
                }
        }
    }
    return out;
}

}  // namespace

TEST_CASE("every workload file of examples/ and tests/ reads back equal after writing") {
    const auto files = workload_files();
    CHECK(files.size() >= 15);  // examples (4), tests/workloads, tests/cli/data, tests/fuzz/corpus, tests/importers ...
    std::size_t read = 0;
    for (const auto& path : files) {
        CAPTURE(path.string());
        std::optional<WorkloadDocument> document;
        try {
            document = load_workload_document(path.string());
        } catch (const InputError& e) {
            // Files of bad input are refused by the reader; their round trip means nothing.
            MESSAGE("refused: " << std::string(e.what()));
            continue;
        }
        ++read;
        check_round_trip(*document, path.string());
        // The written file builds the same application as the original (the same launches).
        CHECK(parse_workload(workload_yaml(*document), path.string()).launches.size() == build_application(*document).launches.size());
    }
    CHECK(read >= 15);
}

TEST_CASE("the writer's canonical form: SM ranges, quoting, every key of an operation") {
    const WorkloadDocument document = read_workload_document(
        "description: plain\nissue: host-calls\npartitions: [64, 68]\n"
        "streams:\n  - {id: 1, priority: high, sms: [0, 1, 2, 5, 7-8]}\n  - {id: 2, priority: normal, partition: 1}\n"
        "launches:\n  - {kernel: synthetic, blocks: 2, threads: 32, duration: '5us', repeat: 3}\n"
        "  - {copy: d2h, bytes: 8, id: c, after: k, notes: [\"a \\\"quoted\\\" note\"]}\n"
        "  - {delay: 1500ns}\n",
        "w.yaml");
    // sms 0,1,2,5,7,8 -> runs 0-2, 5, 7-8; priority normal (0) is left out; `duration` was
    // quoted, so it stays quoted; a copy's memory and stream are written even when defaulted.
    CHECK(workload_yaml(document) ==
          "description: \"plain\"\nissue: host-calls\npartitions: [64, 68]\nstreams:\n"
          "  - {id: 1, priority: high, sms: [0-2, 5, 7-8]}\n  - {id: 2, partition: 1}\n"
          "launches:\n  - kernel: synthetic\n    repeat: 3\n    blocks: 2\n    threads: 32\n    duration: \"5us\"\n"
          "  - {copy: d2h, bytes: 8, memory: pinned, stream: 0, id: c, after: [k], notes: [\"a \\\"quoted\\\" note\"]}\n"
          "  - {delay: 1.5us, stream: 0}\n");
    check_round_trip(document, "w.yaml");
}

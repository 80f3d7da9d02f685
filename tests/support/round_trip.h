// Workload round trips for tests: the files under a folder, and read(write(d)) == d with writing a fixed point.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "gpusched/workloads/workload_file.h"
#include "gpusched/workloads/workload_writer.h"

namespace gpusched::test {

/// The repository's root (GPUSCHED_SOURCE_DIR of the test target).
inline std::filesystem::path source_dir() { return GPUSCHED_SOURCE_DIR; }

/// Files under `dir` (recursively) whose names end in `suffix`, sorted.
inline std::vector<std::filesystem::path> files_under(const std::filesystem::path& dir, const std::string& suffix) {
    std::vector<std::filesystem::path> out;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
            out.push_back(entry.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

/// read(write(d)) == d, and write(read(write(d))) == write(d) byte for byte.
inline void check_round_trip(const workloads::WorkloadDocument& document, const std::string& name) {
    CAPTURE(name);
    const std::string written = workloads::workload_yaml(document);
    const workloads::WorkloadDocument again = workloads::read_workload_document(written, name);
    CHECK(again == document);
    CHECK(workloads::workload_yaml(again) == written);
}

}  // namespace gpusched::test

// Test helper: a copy of one data file in a fresh temporary directory with one line edited.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace gpusched::testing {

/// Copies `source_dir/file` to `<temp>/name/file`, replacing the first `from` in line `at_line`
/// (1-based; 0 edits nothing) with `to`; returns `<temp>/name`.
inline std::filesystem::path corrupted_copy(const std::string& source_dir, const std::string& name,
                                            const std::string& file, int at_line, const std::string& from,
                                            const std::string& to) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ifstream in(fs::path(source_dir) / file);
    std::ofstream out(dir / file);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        if (n == at_line) {
            const auto at = line.find(from);
            REQUIRE(at != std::string::npos);
            line.replace(at, from.size(), to);
        }
        out << line << "\n";
    }
    return dir;
}

}  // namespace gpusched::testing

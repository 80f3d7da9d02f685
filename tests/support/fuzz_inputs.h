// The committed inputs of a fuzz target (tests/fuzz/DIR/TARGET), for the doctests that replay them.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace gpusched::test {

/// The files of tests/fuzz/DIR/TARGET (DIR: corpus or regressions), sorted (the fuzzer names them by
/// content hash), hidden files left out; none if the folder is missing. Needs GPUSCHED_SOURCE_DIR.
inline std::vector<std::filesystem::path> fuzz_inputs(const std::string& dir, const std::string& target) {
    const std::filesystem::path root = std::filesystem::path(GPUSCHED_SOURCE_DIR) / "tests/fuzz" / dir / target;
    std::vector<std::filesystem::path> out;
    if (!std::filesystem::is_directory(root)) return out;
    for (const auto& entry : std::filesystem::directory_iterator(root))
        if (entry.is_regular_file() && entry.path().filename().string().front() != '.') out.push_back(entry.path());
    std::sort(out.begin(), out.end());
    return out;
}

/// The whole file as bytes.
inline std::string file_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace gpusched::test

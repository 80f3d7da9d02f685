// Helpers of the importer tests: the committed test data, and temporary files written from test text.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

namespace gpusched::test {

/// tests/importers/data/NAME.
inline std::string importer_data(const std::string& name) {
    return (std::filesystem::path(GPUSCHED_SOURCE_DIR) / "tests/importers/data" / name).string();
}

/// Writes `bytes` to a file NAME in the build folder and returns its path.
inline std::string temp_file(const std::string& name, const std::string& bytes) {
    const auto path = std::filesystem::path(GPUSCHED_TEST_TMP) / "importer-tmp" / name;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    return path.string();
}

/// The whole file.
inline std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace gpusched::test

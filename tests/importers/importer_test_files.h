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

/// The folder temp_file writes to, with a trailing '/'.
inline std::string temp_dir() { return (std::filesystem::path(GPUSCHED_TEST_TMP) / "importer-tmp").string() + "/"; }

/// `message` with temp_dir() removed wherever it appears, so that messages read "NAME: ...".
inline std::string without_temp_dir(std::string message) {
    for (std::size_t at; (at = message.find(temp_dir())) != std::string::npos;) message.erase(at, temp_dir().size());
    return message;
}

/// Writes `bytes` to a file NAME in the build folder and returns its path.
inline std::string temp_file(const std::string& name, const std::string& bytes) {
    const auto path = std::filesystem::path(temp_dir()) / name;
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

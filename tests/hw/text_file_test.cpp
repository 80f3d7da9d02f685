// support/text_file: whole files read in chunks join to the exact text, the cap is exact, reads are noted.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "gpusched/support/input_error.h"
#include "gpusched/support/text_file.h"

using namespace gpusched;

namespace {

std::filesystem::path temp_file(const std::string& name, const std::string& text) {
    const auto path = std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

}  // namespace

TEST_CASE("a text larger than one 16 MiB read chunk comes back byte for byte") {
    // 400000 numbered lines of 100 bytes = 40 MB: three chunks joined at the end.
    std::string text;
    text.reserve(40'000'000);
    for (int i = 0; i < 400000; ++i) {
        std::string line = std::to_string(i);
        line.resize(99, 'x');
        text += line + "\n";
    }
    const auto path = temp_file("gpusched-text-chunks", text);
    CHECK(read_text_file(path.string(), "test file", text.size()) == text);
    // One byte under the size: refused, naming the file and the cap.
    CHECK_THROWS_WITH_AS(read_text_file(path.string(), "test file", text.size() - 1),
                         (path.string() + ": test file is larger than " + std::to_string(text.size() - 1) + " bytes").c_str(),
                         InputError);
    const auto read = files_read();
    CHECK(std::find(read.begin(), read.end(), path.string()) != read.end());
    std::filesystem::remove(path);
}

TEST_CASE("a last line without a line break gets one; CRLF becomes LF") {
    const auto path = temp_file("gpusched-text-crlf", "a: 1\r\nb: 2");
    CHECK(read_text_file(path.string(), "test file", 1024) == "a: 1\nb: 2\n");
    std::filesystem::remove(path);
}

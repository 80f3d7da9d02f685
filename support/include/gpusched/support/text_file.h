// Text input files: bounded line reading that rejects binary junk (NUL, control bytes, bad UTF-8).
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace gpusched {

/// Reads a text file line by line. Every line is checked: no NUL or control bytes (tab
/// excepted), valid UTF-8, at most `max_line` bytes; "\n" and "\r\n" endings; a UTF-8 byte
/// order mark at the start is skipped. Errors are InputError "PATH:LINE: ...", where `what`
/// names the kind of file ("timeline CSV").
class TextLineReader {
public:
    TextLineReader(std::string path, std::string what, std::size_t max_line = std::size_t{1} << 20);

    /// The next line without its ending; false at end of file.
    bool next(std::string& line);
    /// 1-based number of the line last returned.
    [[nodiscard]] std::uint64_t line_number() const { return line_number_; }
    /// True when the line last returned ended at the end of the file without a line break (a
    /// file cut mid-line, for data written one complete line at a time).
    [[nodiscard]] bool line_unterminated() const { return unterminated_; }
    /// "PATH:LINE" of the line last returned.
    [[nodiscard]] std::string where() const;
    [[nodiscard]] const std::string& path() const { return path_; }

private:
    bool fill();

    std::string path_;
    std::string what_;
    std::size_t max_line_;
    std::ifstream in_;
    std::string buffer_;
    std::size_t pos_ = 0;
    bool eof_ = false;
    bool unterminated_ = false;
    std::uint64_t line_number_ = 0;
};

/// What is wrong with `line` as text ("contains NUL bytes", "control byte 0x1b at column 8",
/// "invalid UTF-8 byte 0xff at column 3"), or "" if it is fine (tab is allowed).
std::string text_line_problem(const std::string& line);

/// Opens `path` for reading, or throws InputError "PATH: cannot read WHAT: reason". The path is
/// noted among files_read().
std::ifstream open_input_file(const std::string& path, const std::string& what);

/// Every path this process opened with open_input_file (the readers of every input format do),
/// each once, in name order: what a command must never write over, including files it found
/// inside other inputs (a kernel spec's matrix or graph, a workload file's). Thread-safe.
std::vector<std::string> files_read();

/// The longest line read_text_file accepts, whatever the file's cap: a file without line ends
/// (a device such as /dev/zero, binary junk) stops after this many bytes.
constexpr std::size_t kMaxTextLineBytes = std::size_t{1} << 20;

/// A whole text file of at most `max_bytes`, every line checked as above (at most
/// kMaxTextLineBytes each). A directory, a missing file, a file over the cap, an endless pipe or
/// device: InputError "PATH: ..." naming `what`. Line ends come back as "\n".
std::string read_text_file(const std::string& path, const std::string& what, std::size_t max_bytes);

}  // namespace gpusched

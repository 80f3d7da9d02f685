// Bounded, checked reading of text input files (timelines, workload files).
#include "gpusched/support/text_file.h"

#include <cerrno>
#include <cstring>
#include <algorithm>
#include <filesystem>
#include <mutex>
#include <set>
#include <utility>

#include "gpusched/support/input_error.h"

namespace gpusched {

namespace {

constexpr std::size_t kChunk = std::size_t{1} << 16;

std::string hex_byte(unsigned char c) {
    static constexpr char digits[] = "0123456789abcdef";
    return std::string("0x") + digits[c >> 4] + digits[c & 15];
}

/// Length of the valid UTF-8 sequence at `i`, or 0 if it is not one.
std::size_t utf8_length(const std::string& s, std::size_t i) {
    const auto byte = [&](std::size_t k) { return k < s.size() ? static_cast<unsigned char>(s[k]) : 0u; };
    const auto cont = [&](std::size_t k, unsigned lo, unsigned hi) { return byte(k) >= lo && byte(k) <= hi; };
    const unsigned c = byte(i);
    if (c < 0x80) return 1;
    if (c >= 0xc2 && c <= 0xdf) return cont(i + 1, 0x80, 0xbf) ? 2 : 0;
    if (c == 0xe0) return cont(i + 1, 0xa0, 0xbf) && cont(i + 2, 0x80, 0xbf) ? 3 : 0;
    if ((c >= 0xe1 && c <= 0xec) || c == 0xee || c == 0xef)
        return cont(i + 1, 0x80, 0xbf) && cont(i + 2, 0x80, 0xbf) ? 3 : 0;
    if (c == 0xed) return cont(i + 1, 0x80, 0x9f) && cont(i + 2, 0x80, 0xbf) ? 3 : 0;
    if (c == 0xf0) return cont(i + 1, 0x90, 0xbf) && cont(i + 2, 0x80, 0xbf) && cont(i + 3, 0x80, 0xbf) ? 4 : 0;
    if (c >= 0xf1 && c <= 0xf3)
        return cont(i + 1, 0x80, 0xbf) && cont(i + 2, 0x80, 0xbf) && cont(i + 3, 0x80, 0xbf) ? 4 : 0;
    if (c == 0xf4) return cont(i + 1, 0x80, 0x8f) && cont(i + 2, 0x80, 0xbf) && cont(i + 3, 0x80, 0xbf) ? 4 : 0;
    return 0;
}

}  // namespace

std::string text_line_problem(const std::string& line) {
    for (std::size_t i = 0; i < line.size();) {
        const auto c = static_cast<unsigned char>(line[i]);
        if (c >= 0x20 && c < 0x7f) {
            ++i;
            continue;
        }
        if (c == 0) return "contains NUL bytes";
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            return "control byte " + hex_byte(c) + " at column " + std::to_string(i + 1);
        const std::size_t n = utf8_length(line, i);
        if (n == 0) return "invalid UTF-8 byte " + hex_byte(c) + " at column " + std::to_string(i + 1);
        i += n;
    }
    return "";
}

namespace {

std::mutex g_files_read_mutex;
std::set<std::string> g_files_read;  // bounded by the distinct paths a run names

}  // namespace

std::vector<std::string> files_read() {
    const std::lock_guard lock(g_files_read_mutex);
    return {g_files_read.begin(), g_files_read.end()};
}

std::ifstream open_input_file(const std::string& path, const std::string& what) {
    std::error_code ec;
    if (path.empty()) throw InputError("cannot read " + what + ": empty file name");
    if (std::filesystem::is_directory(path, ec)) throw InputError(path + ": cannot read " + what + ": is a directory");
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        const int error = errno;
        throw InputError(path + ": cannot read " + what + ": " +
                         (error != 0 ? std::string(std::strerror(error)) : std::string("cannot open")));
    }
    {
        const std::lock_guard lock(g_files_read_mutex);
        g_files_read.insert(path);
    }
    return in;
}

TextLineReader::TextLineReader(std::string path, std::string what, std::size_t max_line)
    : path_(std::move(path)), what_(std::move(what)), max_line_(max_line), in_(open_input_file(path_, what_)) {}

std::string TextLineReader::where() const { return path_ + ":" + std::to_string(line_number_); }

bool TextLineReader::fill() {
    if (eof_) return false;
    if (pos_ > 0) {
        buffer_.erase(0, pos_);
        pos_ = 0;
    }
    const std::size_t old_size = buffer_.size();
    buffer_.resize(old_size + kChunk);
    in_.read(buffer_.data() + old_size, static_cast<std::streamsize>(kChunk));
    const auto got = static_cast<std::size_t>(in_.gcount());
    buffer_.resize(old_size + got);
    if (in_.bad()) throw InputError(path_ + ": cannot read " + what_ + ": read error");
    if (got == 0) eof_ = true;
    return got > 0;
}

bool TextLineReader::next(std::string& line) {
    std::size_t searched = pos_;
    while (true) {
        const std::size_t newline = buffer_.find('\n', searched);
        if (newline != std::string::npos) {
            line.assign(buffer_, pos_, newline - pos_);
            pos_ = newline + 1;
            break;
        }
        searched = buffer_.size();
        if (buffer_.size() - pos_ > max_line_) {
            ++line_number_;
            throw InputError(where() + ": line longer than " + std::to_string(max_line_) + " bytes in " + what_);
        }
        const std::size_t before = pos_;
        if (!fill()) {
            if (buffer_.size() == pos_) return false;
            line.assign(buffer_, pos_, std::string::npos);
            pos_ = buffer_.size();
            unterminated_ = true;
            break;
        }
        searched -= before;
    }
    ++line_number_;
    if (line.size() > max_line_)
        throw InputError(where() + ": line longer than " + std::to_string(max_line_) + " bytes in " + what_);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line_number_ == 1 && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);
    const std::string problem = text_line_problem(line);
    if (!problem.empty()) throw InputError(where() + ": not a text " + what_ + " (" + problem + ")");
    return true;
}

std::string read_text_file(const std::string& path, const std::string& what, std::size_t max_bytes) {
    // Read in chunks and joined once at the end: a string grown line by line would copy itself at
    // each doubling, holding up to twice the text (an endless pipe at a 1 GiB cap peaked at 1.9 GB).
    constexpr std::size_t kChunkBytes = std::size_t{16} << 20;
    TextLineReader reader(path, what, std::min(max_bytes, kMaxTextLineBytes));
    std::vector<std::string> chunks(1);
    std::size_t total = 0;
    std::string line;
    while (reader.next(line)) {
        if (line.size() + 1 > max_bytes - total)
            throw InputError(path + ": " + what + " is larger than " + std::to_string(max_bytes) + " bytes");
        total += line.size() + 1;
        if (chunks.back().size() + line.size() + 1 > kChunkBytes && !chunks.back().empty()) chunks.emplace_back();
        chunks.back() += line;
        chunks.back() += '\n';
    }
    if (chunks.size() == 1) return std::move(chunks.front());
    std::string text;
    text.reserve(total);
    for (auto& chunk : chunks) {
        text += chunk;
        std::string().swap(chunk);  // freed as it is copied: the peak is the text and one chunk
    }
    return text;
}

}  // namespace gpusched

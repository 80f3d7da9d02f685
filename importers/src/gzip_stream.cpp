// GzipStream: plain or gzip bytes of a trace, streamed through zlib's inflate with caps on size and ratio.
#include "gpusched/importers/gzip_stream.h"

#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "gpusched/support/input_error.h"
#include "gpusched/support/text_file.h"

namespace gpusched::importers {

namespace {
constexpr std::size_t kChunkBytes = std::size_t{1} << 20;

std::string mib(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }
}  // namespace

struct GzipStream::Inflater {
    z_stream z{};
    std::vector<char> input = std::vector<char>(kChunkBytes);
    bool member_done = false;  ///< the last gzip member ended; more input starts another
    Inflater() {
        if (inflateInit2(&z, 15 + 16) != Z_OK) throw std::runtime_error("zlib: inflateInit2 failed");
    }
    ~Inflater() { inflateEnd(&z); }
};

GzipStream::GzipStream(std::string path, const StreamLimits& limits) : path_(std::move(path)), limits_(limits) {
    std::error_code ec;
    if (std::filesystem::is_directory(path_, ec)) throw InputError(path_ + ": is a directory, not a trace file");
    in_ = open_input_file(path_, "trace");
    head_.resize(2);
    const std::size_t got = read_file(head_.data(), head_.size());
    head_.resize(got);
    compressed_ = got == 2 && static_cast<unsigned char>(head_[0]) == 0x1f && static_cast<unsigned char>(head_[1]) == 0x8b;
    if (compressed_) inflater_ = std::make_unique<Inflater>();
}

GzipStream::~GzipStream() = default;

std::size_t GzipStream::read_file(char* out, std::size_t size) {
    if (file_end_) return 0;
    in_.read(out, static_cast<std::streamsize>(size));
    const auto got = static_cast<std::size_t>(in_.gcount());
    if (in_.bad()) throw InputError(path_ + ": cannot read the trace (read error after " + std::to_string(file_bytes_) + " bytes)");
    if (got < size) file_end_ = true;
    file_bytes_ += got;
    if (file_bytes_ > limits_.max_file_bytes)
        throw InputError(path_ + ": the trace file is larger than " + mib(limits_.max_file_bytes) +
                         " (the importer's cap; split the profile into shorter traces)");
    return got;
}

void GzipStream::count_text(std::size_t bytes) {
    text_bytes_ += bytes;
    if (text_bytes_ > limits_.max_text_bytes)
        throw InputError(path_ + ": the trace text is larger than " + mib(limits_.max_text_bytes) + " (the importer's cap)");
    if (compressed_ && text_bytes_ > limits_.ratio_free_bytes && text_bytes_ / std::max<std::uint64_t>(file_bytes_, 1) > limits_.max_ratio)
        throw InputError(path_ + ": the gzip stream expands more than " + std::to_string(limits_.max_ratio) + " times (" +
                         std::to_string(text_bytes_) + " bytes from " + std::to_string(file_bytes_) +
                         "): refused as a gzip bomb");
}

std::size_t GzipStream::read(char* out, std::size_t size) {
    if (size == 0) return 0;
    std::size_t got = 0;
    if (compressed_) {
        got = read_compressed(out, size);
    } else {
        if (head_pos_ < head_.size()) {
            got = std::min(size, head_.size() - head_pos_);
            std::copy_n(head_.data() + head_pos_, got, out);
            head_pos_ += got;
        }
        if (got < size) got += read_file(out + got, size - got);
    }
    count_text(got);
    return got;
}

std::size_t GzipStream::read_compressed(char* out, std::size_t size) {
    z_stream& z = inflater_->z;
    z.next_out = reinterpret_cast<Bytef*>(out);
    z.avail_out = static_cast<uInt>(std::min<std::size_t>(size, kChunkBytes));
    const uInt wanted = z.avail_out;
    while (z.avail_out == wanted) {
        if (z.avail_in == 0) {
            std::size_t got = 0;
            if (head_pos_ < head_.size()) {
                got = head_.size() - head_pos_;
                std::copy_n(head_.data() + head_pos_, got, inflater_->input.data());
                head_pos_ = head_.size();
            }
            got += read_file(inflater_->input.data() + got, inflater_->input.size() - got);
            if (got == 0) {
                if (inflater_->member_done) return 0;
                throw InputError(path_ + ": truncated gzip stream (the file ends after " + std::to_string(file_bytes_) +
                                 " bytes, inside compressed data)");
            }
            z.next_in = reinterpret_cast<Bytef*>(inflater_->input.data());
            z.avail_in = static_cast<uInt>(got);
        }
        if (inflater_->member_done) {
            // More bytes after a complete member: another member follows (gzip -c a b > ab.gz).
            if (inflateReset(&z) != Z_OK) throw std::runtime_error("zlib: inflateReset failed");
            inflater_->member_done = false;
        }
        const int status = inflate(&z, Z_NO_FLUSH);
        if (status == Z_STREAM_END) {
            inflater_->member_done = true;
        } else if (status == Z_DATA_ERROR || status == Z_NEED_DICT) {
            const std::uint64_t at = file_bytes_ - z.avail_in;
            throw InputError(path_ + ": corrupt gzip data near compressed byte " + std::to_string(at) +
                             (z.msg != nullptr ? std::string(" (") + z.msg + ")" : std::string()));
        } else if (status == Z_MEM_ERROR) {
            throw std::runtime_error("zlib: out of memory");
        } else if (status != Z_OK && status != Z_BUF_ERROR) {
            throw std::runtime_error("zlib: inflate returned " + std::to_string(status));
        }
    }
    return wanted - z.avail_out;
}

}  // namespace gpusched::importers

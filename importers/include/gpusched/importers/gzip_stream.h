// GzipStream: the bytes of a trace file, inflated on the fly when it is gzip, within caps on size and expansion.
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace gpusched::importers {

/// Bounds of one trace read (docs/importing.md "Limits").
struct StreamLimits {
    std::uint64_t max_file_bytes = std::uint64_t{4} << 30;   ///< the file as stored (compressed or not)
    std::uint64_t max_text_bytes = std::uint64_t{16} << 30;  ///< the text after inflating
    std::uint64_t max_ratio = 200;                           ///< inflated / compressed bytes, past ratio_free_bytes
    std::uint64_t ratio_free_bytes = std::uint64_t{64} << 20;
};

/// Reads a file that is either plain or gzip (recognised by its magic bytes 1f 8b; several
/// gzip members one after another are one stream, as gzip writes them). Every problem is an
/// InputError "PATH: ...": unreadable, a directory, over a cap, a truncated or corrupt gzip
/// stream (naming the compressed byte offset), a gzip bomb (expansion over max_ratio).
class GzipStream {
public:
    GzipStream(std::string path, const StreamLimits& limits = {});
    ~GzipStream();
    GzipStream(const GzipStream&) = delete;
    GzipStream& operator=(const GzipStream&) = delete;

    /// Up to `size` bytes of text into `out`; 0 only at the end of the text.
    std::size_t read(char* out, std::size_t size);

    [[nodiscard]] bool compressed() const { return compressed_; }
    /// Bytes of text returned so far.
    [[nodiscard]] std::uint64_t text_bytes() const { return text_bytes_; }
    [[nodiscard]] const std::string& path() const { return path_; }

private:
    struct Inflater;

    std::size_t read_file(char* out, std::size_t size);
    std::size_t read_compressed(char* out, std::size_t size);
    void count_text(std::size_t bytes);

    std::string path_;
    StreamLimits limits_;
    std::ifstream in_;
    bool compressed_ = false;
    bool file_end_ = false;
    std::uint64_t file_bytes_ = 0;
    std::uint64_t text_bytes_ = 0;
    std::vector<char> head_;  ///< the bytes read to recognise the format, returned first
    std::size_t head_pos_ = 0;
    std::unique_ptr<Inflater> inflater_;
};

}  // namespace gpusched::importers

// JsonStreamBuf: a std::streambuf over a GzipStream for the JSON parser, refusing strings and numbers longer than a cap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <streambuf>
#include <vector>

#include "gpusched/importers/gzip_stream.h"

namespace gpusched::importers {

/// The longest JSON string or number token a trace may hold: the parser keeps one token whole,
/// so this bounds its memory however the file is made.
constexpr std::size_t kMaxJsonTokenBytes = std::size_t{1} << 20;

/// Feeds the text of `source` to a reader (nlohmann's SAX parser reads through sbumpc) in
/// chunks, scanning each chunk for a string or bare token (number, literal) longer than
/// kMaxJsonTokenBytes: InputError "PATH: a JSON string or number longer than 1 MiB at byte N".
class JsonStreamBuf : public std::streambuf {
public:
    explicit JsonStreamBuf(GzipStream& source);

protected:
    int_type underflow() override;

private:
    void scan(const char* begin, const char* end);

    GzipStream& source_;
    std::vector<char> buffer_;
    std::uint64_t offset_ = 0;  ///< text bytes before the buffer's start
    bool in_string_ = false;
    bool escape_ = false;
    std::size_t token_ = 0;     ///< bytes of the current string or bare token
};

}  // namespace gpusched::importers

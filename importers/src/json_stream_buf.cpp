// JsonStreamBuf: chunked text for the JSON parser, with a cap on the length of any one token.
#include "gpusched/importers/json_stream_buf.h"

#include <string>

#include "gpusched/support/input_error.h"

namespace gpusched::importers {

JsonStreamBuf::JsonStreamBuf(GzipStream& source) : source_(source), buffer_(std::size_t{1} << 20) {
    setg(buffer_.data(), buffer_.data(), buffer_.data());
}

JsonStreamBuf::int_type JsonStreamBuf::underflow() {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    offset_ += static_cast<std::uint64_t>(egptr() - eback());
    const std::size_t got = source_.read(buffer_.data(), buffer_.size());
    setg(buffer_.data(), buffer_.data(), buffer_.data() + got);
    if (got == 0) return traits_type::eof();
    scan(buffer_.data(), buffer_.data() + got);
    return traits_type::to_int_type(*gptr());
}

void JsonStreamBuf::scan(const char* begin, const char* end) {
    for (const char* p = begin; p != end; ++p) {
        const char c = *p;
        if (in_string_) {
            if (escape_) escape_ = false;
            else if (c == '\\') escape_ = true;
            else if (c == '"') in_string_ = false;
            ++token_;
        } else if (c == '"') {
            in_string_ = true;
            token_ = 0;
        } else if (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == ',' || c == ':' || c == '[' || c == ']' ||
                   c == '{' || c == '}') {
            token_ = 0;
        } else {
            ++token_;
        }
        if (token_ > kMaxJsonTokenBytes)
            throw InputError(source_.path() + ": a JSON string or number longer than " +
                             std::to_string(kMaxJsonTokenBytes >> 20) + " MiB at text byte " +
                             std::to_string(offset_ + static_cast<std::uint64_t>(p - begin)) + " (not a profiler trace)");
    }
}

}  // namespace gpusched::importers

// GzipStream: plain and gzip files give the same text; truncated, corrupt, oversized and bomb-like inputs are refused by name.
#include <doctest/doctest.h>

#include <zlib.h>

#include "gpusched/importers/gzip_stream.h"
#include "gpusched/support/input_error.h"
#include "importers/importer_test_files.h"

using gpusched::InputError;
using gpusched::importers::GzipStream;
using gpusched::importers::StreamLimits;
using gpusched::test::importer_data;
using gpusched::test::slurp;
using gpusched::test::temp_file;

namespace {

std::string read_all(GzipStream& in, std::size_t chunk = 4096) {
    std::string out;
    std::string buffer(chunk, '\0');
    for (std::size_t got; (got = in.read(buffer.data(), buffer.size())) > 0;) out.append(buffer.data(), got);
    return out;
}

std::string gzip(const std::string& text) {
    std::string out(compressBound(static_cast<uLong>(text.size())) + 64, '\0');
    z_stream z{};
    deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = static_cast<uInt>(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

}  // namespace

TEST_CASE("a gzip trace and its plain JSON read as the same text") {
    GzipStream plain(importer_data("two_streams.json"));
    GzipStream packed(importer_data("two_streams.json.gz"));
    CHECK_FALSE(plain.compressed());
    CHECK(packed.compressed());
    const std::string text = read_all(plain, 7);  // odd chunks cross the 2 magic bytes read ahead
    CHECK(text == slurp(importer_data("two_streams.json")));
    CHECK(read_all(packed) == text);
    CHECK(packed.text_bytes() == text.size());
}

TEST_CASE("two gzip members one after another are one stream, as gzip writes them") {
    GzipStream in(temp_file("two_members.gz", gzip("{\"a\":") + gzip("1}")));
    CHECK(read_all(in) == "{\"a\":1}");
}

TEST_CASE("a truncated or corrupt gzip stream is refused naming the file") {
    GzipStream cut(importer_data("truncated.json.gz"));
    CHECK_THROWS_WITH_AS(read_all(cut), doctest::Contains("truncated.json.gz: truncated gzip stream (the file ends after 1000 bytes"),
                         InputError);
    GzipStream corrupt(importer_data("corrupt.json.gz"));
    CHECK_THROWS_WITH_AS(read_all(corrupt), doctest::Contains("corrupt.json.gz: corrupt gzip data near compressed byte"), InputError);
    GzipStream junk_after(temp_file("junk_after.gz", gzip("{}") + "not gzip"));
    CHECK_THROWS_WITH_AS(read_all(junk_after), doctest::Contains("junk_after.gz: corrupt gzip data"), InputError);
    CHECK_THROWS_WITH_AS(GzipStream(GPUSCHED_SOURCE_DIR), doctest::Contains("is a directory"), InputError);
    CHECK_THROWS_WITH_AS(GzipStream("no/such/trace.json"), doctest::Contains("no/such/trace.json: cannot read trace"), InputError);
}

TEST_CASE("caps: file size, text size and the expansion ratio of a gzip bomb") {
    // 4 MiB of one byte compresses about 1000:1; with a 1 MiB ratio-free allowance and 200:1 it
    // is refused once the text passes 1 MiB and 200 x the compressed bytes read.
    const std::string bomb = temp_file("bomb.gz", gzip(std::string(std::size_t{4} << 20, ' ')));
    StreamLimits limits;
    limits.ratio_free_bytes = std::size_t{1} << 20;
    GzipStream in(bomb, limits);
    CHECK_THROWS_WITH_AS(read_all(in), doctest::Contains("expands more than 200 times"), InputError);
    limits.max_ratio = 100000;  // the same file within a generous ratio reads
    GzipStream generous(bomb, limits);
    CHECK(read_all(generous).size() == (std::size_t{4} << 20));

    StreamLimits small;
    small.max_file_bytes = 100;
    GzipStream big_file(importer_data("two_streams.json"), small);
    CHECK_THROWS_WITH_AS(read_all(big_file), doctest::Contains("two_streams.json: the trace file is larger than"), InputError);
    StreamLimits short_text;
    short_text.max_text_bytes = 1000;
    GzipStream long_text(importer_data("two_streams.json.gz"), short_text);
    CHECK_THROWS_WITH_AS(read_all(long_text), doctest::Contains("the trace text is larger than"), InputError);
}

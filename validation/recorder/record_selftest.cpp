// gpusched-record-selftest: checks the recorder's JSON escaping, spool format and trace assembly without a GPU.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "json_text.h"
#include "spool_format.h"
#include "trace_assembler.h"

namespace {

int g_failures = 0;
int g_checks = 0;

void check_equal(const std::string& got, const std::string& want, const char* what) {
    ++g_checks;
    if (got == want) return;
    ++g_failures;
    std::printf("FAIL %s\n  got:  %s\n  want: %s\n", what, got.c_str(), want.c_str());
}

void check_true(bool ok, const char* what) {
    ++g_checks;
    if (ok) return;
    ++g_failures;
    std::printf("FAIL %s\n", what);
}

void json_escaping() {
    using gpusched::record::json_string;
    check_equal(json_string("plain"), "\"plain\"", "plain text is kept");
    check_equal(json_string("a\"b\\c"), "\"a\\\"b\\\\c\"", "quote and backslash are escaped");
    check_equal(json_string("t\tn\nr\r"), "\"t\\tn\\nr\\r\"", "tab, newline, return use their short escapes");
    check_equal(json_string(std::string("\x01\x1f\x7f", 3)), "\"\\u0001\\u001f\\u007f\"", "other control bytes are \\u00XX");
    check_equal(json_string(std::string("nul\0x", 5)), "\"nul\\u0000x\"", "NUL is escaped, not a terminator");
    // U+00E9 (2 bytes), U+20AC (3 bytes), U+1F600 (4 bytes) are valid UTF-8 and stay as they are.
    check_equal(json_string("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"), "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"",
                "valid UTF-8 is kept");
    // 0xff is never UTF-8; 0xc3 then 'x' is a cut sequence; C0 80 is an overlong NUL; ED A0 80 a surrogate:
    // each bad byte becomes one U+FFFD escape, the good bytes after it stay.
    check_equal(json_string("a\xff" "b"), "\"a\\ufffdb\"", "an invalid byte becomes U+FFFD");
    check_equal(json_string("\xc3x"), "\"\\ufffdx\"", "a cut sequence becomes U+FFFD");
    check_equal(json_string("\xc0\x80"), "\"\\ufffd\\ufffd\"", "an overlong form is invalid");
    check_equal(json_string("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"", "a UTF-16 surrogate is invalid");
    check_equal(json_string("\xe2\x82"), "\"\\ufffd\\ufffd\"", "a sequence cut by the end of the text is invalid");
}

void micros_text() {
    using gpusched::record::micros;
    check_equal(micros(0), "0.000", "0 ns");
    check_equal(micros(7), "0.007", "7 ns = 0.007 us");
    check_equal(micros(1234567), "1234.567", "1234567 ns = 1234.567 us");
    check_equal(micros(18446744073709551615ull), "18446744073709551.615", "the largest uint64 is exact");
}

void spool_lines() {
    using namespace gpusched::record;
    const std::string nasty = "a\tb\nc\\d\re";
    check_equal(spool_escape(nasty), "a\\tb\\nc\\\\d\\re", "spool escaping");
    check_equal(spool_unescape(spool_escape(nasty)), nasty, "spool escaping round-trips");
    const auto f = spool_fields("K\t1\t\tx");
    check_true(f.size() == 4 && f[0] == "K" && f[1] == "1" && f[2].empty() && f[3] == "x", "spool fields keep empty ones");
    check_equal(api_name("cudaLaunchKernel_v7000"), "cudaLaunchKernel", "version suffix dropped");
    check_equal(api_name("cudaLaunchKernel_ptsz_v7000"), "cudaLaunchKernel_ptsz", "only the version suffix is dropped");
    check_equal(api_name("cuLaunchKernel"), "cuLaunchKernel", "no suffix");
    check_equal(api_name("cuda_v"), "cuda_v", "'_v' without digits is kept");
    check_equal(memcpy_name(1, 2, 3), "Memcpy HtoD (Pinned -> Device)", "HtoD pinned");
    check_equal(memcpy_name(2, 3, 1), "Memcpy DtoH (Device -> Pageable)", "DtoH pageable");
    check_equal(memcpy_name(99, -1, 8), "Memcpy Unknown (Unknown -> Unknown)", "out-of-range kinds");
    check_equal(memset_name(3), "Memset (Device)", "memset");
}

/// A spool of two processes' files: the trace is in time order, relative to the earliest record,
/// with the stream priority joined to the kernel and the driver's device line completing the CUPTI one.
void trace_assembly() {
    const std::string dir = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
    const std::string a = dir + "/gpusched-record-selftest.a.tsv", b = dir + "/gpusched-record-selftest.b.tsv";
    {
        std::ofstream out(a);
        // device 0 from CUPTI (optin unknown: -1), then a stream of priority -5 on context 1.
        out << "V\t0\tGPU \\t X\t1000\t9\t0\t1024\t2048\t65536\t65536\t32\t49152\t233472\t132\t-1\n";
        out << "P\t1\t13\t-5\t1\t40\n";
        // the kernel launch call: 2000..2500 ns, correlation 41.
        out << "R\t2000\t2500\t77\t78\t41\t211\tcudaLaunchKernel_v7000\n";
        // the kernel on stream 13: 3000..4500 ns, 32 registers, 1024 static + 512 dynamic bytes, cluster 2x1x1.
        out << "K\t3000\t4500\t0\t1\t13\t41\t32\t1024\t512\t4\t2\t1\t256\t1\t1\t2\t1\t1\t0\t_Z3fooPf\n";
        out << "K\t3000\tbad\n";  // a cut line: counted, skipped
        // a kernel still running at a forced flush (no end): left out, counted.
        out << "K\t5000\t0\t0\t1\t13\t42\t32\t0\t0\t1\t1\t1\t32\t1\t1\t0\t0\t0\t0\tbar\n";
    }
    {
        std::ofstream out(b);
        // a pinned HtoD copy of 4096 bytes on the default stream 7 at 1000..1800 ns (the earliest record).
        out << "M\t1000\t1800\t0\t1\t7\t39\t4096\t1\t2\t3\n";
        out << "S\t1900\t1950\t0\t1\t7\t40\t64\t3\t0\n";
        out << "V\t0\tGPU \\t X\t1000\t9\t0\t1024\t2048\t65536\t65536\t32\t49152\t233472\t132\t232448\n";
        out << "N\tactivity kind X not recorded\n";
    }
    gpusched::record::RecordedRun run{"./app", {"--n", "q\"uote"}, 3, 0};
    std::ostringstream out;
    const auto counts = gpusched::record::write_trace({a, b}, run, out);
    // base = 1000 ns: copy at 0.000 us for 0.800, memset at 0.900, call at 1.000, kernel at 2.000 for 1.500.
    const std::string want =
        "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n"
        "    {\"id\": 0, \"name\": \"GPU \\t X\", \"totalGlobalMem\": 1000, \"computeMajor\": 9, \"computeMinor\": 0, "
        "\"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048, \"regsPerBlock\": 65536, "
        "\"regsPerMultiprocessor\": 65536, \"warpSize\": 32, \"sharedMemPerBlock\": 49152, "
        "\"sharedMemPerMultiprocessor\": 233472, \"numSms\": 132, \"sharedMemPerBlockOptin\": 232448}\n  ],\n"
        "  \"traceEvents\": [\n"
        "    {\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD (Pinned -> Device)\", \"pid\": 0, \"tid\": 7, "
        "\"ts\": 0.000, \"dur\": 0.800, \"args\": {\"device\": 0, \"context\": 1, \"stream\": 7, \"correlation\": 39, "
        "\"bytes\": 4096}},\n"
        "    {\"ph\": \"X\", \"cat\": \"gpu_memset\", \"name\": \"Memset (Device)\", \"pid\": 0, \"tid\": 7, "
        "\"ts\": 0.900, \"dur\": 0.050, \"args\": {\"device\": 0, \"context\": 1, \"stream\": 7, \"correlation\": 40, "
        "\"bytes\": 64}},\n"
        "    {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 77, \"tid\": 78, "
        "\"ts\": 1.000, \"dur\": 0.500, \"args\": {\"cbid\": 211, \"correlation\": 41}},\n"
        "    {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"foo(float*)\", \"pid\": 0, \"tid\": 13, \"ts\": 2.000, "
        "\"dur\": 1.500, \"args\": {\"device\": 0, \"context\": 1, \"stream\": 13, \"correlation\": 41, "
        "\"registers per thread\": 32, \"shared memory\": 1536, \"static shared memory\": 1024, "
        "\"dynamic shared memory\": 512, \"grid\": [4, 2, 1], \"block\": [256, 1, 1], \"cluster\": [2, 1, 1], "
        "\"stream priority\": -5, \"graph id\": 0}}\n  ],\n"
        "  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": 1000,\n"
        "  \"gpuschedRecorder\": {\"version\": 1, \"program\": \"./app\", \"args\": [\"--n\", \"q\\\"uote\"], "
        "\"exit_code\": 3, \"signal\": 0, \"complete\": false, \"dropped_records\": 0, \"incomplete_records\": 1, "
        "\"unreadable_spool_lines\": 1, "
        "\"notes\": [\"activity kind X not recorded\"]}\n}\n";
    check_equal(out.str(), want, "assembled trace");
    check_true(counts.kernels == 1 && counts.copies == 1 && counts.memsets == 1 && counts.api_calls == 1 &&
                   counts.devices == 1 && counts.bad_lines == 1 && counts.incomplete == 1,
               "trace counts");
    std::remove(a.c_str());
    std::remove(b.c_str());

    std::ostringstream empty;
    const auto none = gpusched::record::write_trace({dir + "/gpusched-record-selftest.missing.tsv"}, {"p", {}, 0, 0}, empty);
    check_true(empty.str().find("\"traceEvents\": [],") != std::string::npos && none.notes.size() == 1,
               "no spool: an empty but valid trace and a note");
}

}  // namespace

int main() {
    json_escaping();
    micros_text();
    spool_lines();
    trace_assembly();
    std::printf("gpusched-record-selftest: %d of %d checks passed\n", g_checks - g_failures, g_checks);
    return g_failures == 0 ? 0 : 1;
}

// workloads/timeline_csv: what write_timeline_head/row write, TimelineCsvReader reads back exactly; bad rows name PATH:LINE.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/timeline_csv.h"

using namespace gpusched;
using namespace gpusched::workloads;

namespace {

std::string timeline_file(const std::string& name, const std::string& text) {
    const auto path = std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()) + ".csv");
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
}

std::string first_error(const std::string& path, const TimelineReadOptions& options = {}) {
    try {
        TimelineCsvReader reader(path, options);
        TimelineRow row;
        while (reader.next(row)) (void)reader.launch_number();
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("a timeline written by the format's writer reads back row for row, metadata included") {
    std::ostringstream out;
    write_timeline_head(out, "gpusched timeline", {{"sm_count", "132"}, {"launch.0", "k, \"odd\" blocks=2"}});
    const std::string odd = " k, \"odd\"";  // a kernel name the writer must quote
    write_timeline_row(out, {odd, 0, 0, 5, 0, 1'000, 2'500'500});
    write_timeline_row(out, {odd, 0, 1, 131, 7, 1'001, 9'000'000'000});
    CHECK(out.str().find("kernel,launch,block,sm,dispatch_ns,start_ns,end_ns\n") != std::string::npos);
    CHECK(out.str().find("\"") != std::string::npos);
    const std::string path = timeline_file("gpusched-timeline-roundtrip", out.str());

    TimelineCsvReader reader(path);
    CHECK(reader.has_kernel());
    CHECK(reader.has_launch());
    const auto& metadata = reader.csv().metadata();
    REQUIRE(metadata.size() == 3);
    CHECK(metadata[0].raw == "# gpusched timeline");
    CHECK(reader.csv().find_metadata("sm_count")->value == "132");
    CHECK(reader.csv().find_metadata("launch.0")->line == 3);
    TimelineRow row;
    REQUIRE(reader.next(row));
    CHECK(*row.kernel == odd);
    CHECK(*row.launch == "0");
    CHECK(reader.launch_number() == 0);
    CHECK(row.block == 0);
    CHECK(row.sm == 5);
    CHECK(row.start == 1'000);      // 0.001 ns: exact in picoseconds
    CHECK(row.end == 2'500'500);    // 2500.500 ns
    REQUIRE(reader.next(row));
    CHECK(row.block == 1);
    CHECK(row.sm == 131);
    CHECK(row.end == 9'000'000'000);
    CHECK_FALSE(reader.next(row));
    CHECK(reader.rows() == 2);
}

TEST_CASE("timeline columns: kernel and launch optional, the others required in any order") {
    const std::string path = timeline_file("gpusched-timeline-minimal", "end_ns,sm,extra,block,start_ns\n4.5,2,x,0,1\n");
    TimelineCsvReader reader(path);
    CHECK_FALSE(reader.has_kernel());
    CHECK_FALSE(reader.has_launch());
    TimelineRow row;
    REQUIRE(reader.next(row));
    CHECK(row.kernel->empty());
    CHECK(reader.launch_number() == 0);  // no launch column: every block is launch 0
    CHECK(row.end - row.start == 3'500);
    CHECK(is_timeline_header({"block", "sm", "start_ns", "end_ns"}));
    CHECK_FALSE(is_timeline_header({"block", "sm", "start_ns"}));
}

TEST_CASE("bad timelines: PATH:LINE and the column") {
    const std::string head = "# sm_count=4\nkernel,launch,block,sm,start_ns,end_ns\n";
    const std::string no_kernel = timeline_file("gpusched-timeline-nokernel", "block,sm,start_ns,end_ns\n0,0,1,2\n");
    TimelineReadOptions needs_kernel;
    needs_kernel.need_kernel = true;
    CHECK(first_error(no_kernel, needs_kernel) ==
          no_kernel + ":1: missing column 'kernel' in the header (required: kernel,block,sm,start_ns,end_ns; optional: launch)");
    const std::string label = timeline_file("gpusched-timeline-label", head + "k,first,0,0,1,2\n");
    CHECK(first_error(label) == label + ":3: column 'launch': expected a non-negative integer, got 'first'");
    const std::string sm = timeline_file("gpusched-timeline-sm", head + "k,0,0,3000000000,1,2\n");
    CHECK(first_error(sm) == sm + ":3: column 'sm': SM id 3000000000 is too large (at most 2147483647)");
    const std::string order = timeline_file("gpusched-timeline-order", head + "k,0,0,0,5,2.5\n");
    CHECK(first_error(order) == order + ":3: end_ns 2.5 is before start_ns 5");
    const std::string many = timeline_file("gpusched-timeline-many", head + "k,0,0,0,1,2\nk,0,1,0,1,2\n");
    TimelineReadOptions one_row;
    one_row.max_rows = 1;
    CHECK(first_error(many, one_row) == many + ":4: more than 1 block rows in timeline CSV");
    const std::string cut = timeline_file("gpusched-timeline-cut", head + "k,0,0,0,1,2");
    CHECK(first_error(cut) == "(no error)");
    TimelineReadOptions runner;
    runner.what = "measured timeline";
    runner.refuse_cut_line = true;
    CHECK(first_error(cut, runner).find(cut + ":3: the last line ends without a line break") == 0);
    const std::string empty = timeline_file("gpusched-timeline-empty", "# only=metadata\n");
    CHECK(first_error(empty, runner) ==
          empty + ": empty measured timeline (expected a header line with columns block,sm,start_ns,end_ns)");
}

// Stream priorities as written: workload-file `priority` values, the GPU spec's streams.priority_range, the rule's note.
#include <doctest/doctest.h>

#include <algorithm>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "gpusched/workloads/ruled_numbers.h"
#include "gpusched/workloads/workload_file.h"

using namespace gpusched;
using namespace gpusched::workloads;

namespace {

const std::string launches = "launches:\n  - kernel: synthetic\n    blocks: 4\n    threads: 64\n    duration: 5us\n";

Application with_priority(const std::string& value) {
    return parse_workload("streams:\n  - id: 1\n    priority: " + value + "\n" + launches, "w.yaml");
}

}  // namespace

TEST_CASE("workload files: priority is normal, high or a CUDA number (0 or below)") {
    CHECK(with_priority("normal").stream(1).priority == StreamPriority::normal);
    CHECK(with_priority("high").stream(1).priority == StreamPriority::high);
    CHECK(with_priority("-3").stream(1).priority == StreamPriority::cuda(-3));
    CHECK(with_priority("0").stream(1).priority == StreamPriority::normal);  // normal is CUDA's 0
    CHECK(StreamPriority::high != StreamPriority::cuda(-5));  // `high` is resolved against the GPU, not a number
    for (const std::string bad : {"urgent", "1", "-1025", "-2.5"}) {
        CAPTURE(bad);
        CHECK_THROWS_WITH_AS(with_priority(bad),
                             doctest::Contains("w.yaml:3: key 'streams[0].priority': expected normal, high or a CUDA "
                                               "priority (an integer in [-1024, 0], lower is higher), got"),
                             InputError);
    }
}

TEST_CASE("GPU specs: streams.priority_range as stated, CUDA's rule where absent") {
    // The H100 and H200 state six levels, the A100 too; cc < 3.5 presets one level; k20 (cc 3.5) none: the rule's two.
    CHECK(hw::resolve_gpu("h100").stream_priorities() == hw::StreamPriorityRange{0, -5, true});
    CHECK(hw::resolve_gpu("h100").stream_priorities().levels() == 6);
    CHECK(hw::resolve_gpu("h200").stream_priorities() == hw::StreamPriorityRange{0, -5, true});
    CHECK(hw::resolve_gpu("a100").stream_priorities() == hw::StreamPriorityRange{0, -5, true});
    CHECK(hw::resolve_gpu("c2050").stream_priorities() == hw::StreamPriorityRange{0, 0, true});
    CHECK(hw::resolve_gpu("k20").stream_priorities() == hw::StreamPriorityRange{0, -1, false});
    // The key survives writing and reading back.
    const hw::GpuSpec again = hw::parse_gpu_spec(hw::to_yaml(hw::resolve_gpu("h100")), "again.yaml");
    CHECK(again.stream_priority_range == hw::StreamPriorityRange{0, -5, true});
    // Bad ranges name the key.
    std::string yaml = hw::to_yaml(hw::resolve_gpu("h100"));
    const std::string good = "  priority_range: [0, -5]\n";
    const auto at = yaml.find(good);
    REQUIRE(at != std::string::npos);
    for (const std::string bad : {"[-1, -5]", "[0, 2]", "[0]", "[0, -2000]"}) {
        CAPTURE(bad);
        std::string broken = yaml;
        broken.replace(at, good.size(), "  priority_range: " + bad + "\n");
        CHECK_THROWS_WITH_AS(hw::parse_gpu_spec(broken, "g.yaml"), doctest::Contains("streams.priority_range"), InputError);
    }
}

TEST_CASE("a numbered priority on a GPU whose range comes from the rule gets a note; `high` and stated ranges do not") {
    const hw::GpuSpec k20 = hw::resolve_gpu("k20");
    const auto notes = ruled_number_notes(with_priority("-1"), k20, false);
    CHECK(std::count_if(notes.begin(), notes.end(), [](const std::string& n) {
              return n == "GPU 'k20' uses a rule, not data: streams.priority_range 0 (least) down to -1 (greatest) "
                          "(CUDA documents stream priorities from compute capability 3.5 on, not how many levels a GPU "
                          "has: two, 0 and -1, assumed where its spec states none)";
          }) == 1);
    const auto none = [](const std::vector<std::string>& n) {
        return std::none_of(n.begin(), n.end(), [](const std::string& s) { return s.find("priority_range") != std::string::npos; });
    };
    CHECK(none(ruled_number_notes(with_priority("high"), k20, false)));
    CHECK(none(ruled_number_notes(with_priority("-1"), hw::resolve_gpu("h100"), false)));
}

// The embedded presets: all required GPUs present, consistent, and with the papers' SM counts.
#include <doctest/doctest.h>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/presets.h"

using namespace gpusched;

TEST_CASE("all required presets are embedded with the expected identity") {
    struct Expected {
        const char* name;
        int cc_major, cc_minor, sms;
    };
    // SM counts from the vendors' specifications; k20 is the compute-bound paper's 13-SM "Kepler 20".
    const Expected expected[] = {{"c1060", 1, 3, 30}, {"c2050", 2, 0, 14}, {"c2075", 2, 0, 14},
                                 {"gtx480", 2, 0, 15}, {"gtx680", 3, 0, 8}, {"gtx780", 3, 5, 12},
                                 {"k20", 3, 5, 13},    {"v100", 7, 0, 80}, {"a100", 8, 0, 108},
                                 {"h100", 9, 0, 132},  {"h200", 9, 0, 132}};
    for (const auto& e : expected) {
        CAPTURE(e.name);
        REQUIRE(hw::preset_yaml(e.name).has_value());
        const hw::GpuSpec s = hw::resolve_gpu(e.name);
        CHECK(s.cc_major == e.cc_major);
        CHECK(s.cc_minor == e.cc_minor);
        CHECK(s.sm_count == e.sms);
        CHECK(s.max_warps_per_sm * s.warp_size == s.max_threads_per_sm);
    }
    CHECK(hw::preset_names().size() >= 11);
}

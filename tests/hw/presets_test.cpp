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

TEST_CASE("preset names are matched without regard to case and keep their canonical spelling") {
    // "H100" and "GtX480" name the presets h100 and gtx480; the spec read is the preset's, named as the file names it.
    CHECK(hw::canonical_preset_name("H100") == std::optional<std::string>("h100"));
    CHECK(hw::canonical_preset_name("GtX480") == std::optional<std::string>("gtx480"));
    CHECK(hw::canonical_preset_name("h100") == std::optional<std::string>("h100"));
    CHECK_FALSE(hw::canonical_preset_name("h1000").has_value());
    CHECK_FALSE(hw::canonical_preset_name("").has_value());
    REQUIRE(hw::preset_yaml("C2075").has_value());
    CHECK(*hw::preset_yaml("C2075") == *hw::preset_yaml("c2075"));
    const hw::GpuSpec upper = hw::resolve_gpu("H100");
    CHECK(upper.name == "h100");
    CHECK(upper == hw::resolve_gpu("h100"));
}

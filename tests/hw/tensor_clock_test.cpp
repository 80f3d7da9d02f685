// The power-limited tensor clock: the f^3 rule, the load a kernel's utilisation implies, and its two preset keys.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "gpusched/hw/gpu_overrides.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/presets.h"
#include "gpusched/hw/tensor_clock.h"
#include "gpusched/support/input_error.h"
#include "support/gpu_spec_text.h"

using namespace gpusched;

namespace {
std::string spec_text(const std::string& execution_tail) { return test::minimal_spec_text(execution_tail, "", "1980"); }
}  // namespace

TEST_CASE("the f^3 rule: P SMs at full tensor activity run at the tensor clock, more run slower") {
    const hw::GpuSpec h100 = hw::resolve_gpu("h100");  // f_t 1830 MHz, P 68.5
    REQUIRE(hw::has_tensor_power(h100));
    CHECK(*hw::power_limited_tensor_clock_mhz(h100, 16) == doctest::Approx(1830));
    CHECK(*hw::power_limited_tensor_clock_mhz(h100, 68.5) == doctest::Approx(1830));
    // 137 busy SMs: twice P, so the clock falls by the cube root of 2: 1830 / 1.26 = 1452.5 MHz.
    CHECK(*hw::power_limited_tensor_clock_mhz(h100, 137) == doctest::Approx(1830 / std::cbrt(2.0)));
    // The whole GPU at activity 0.92 (the 8192^3 bf16 GEMM): 121.4 busy SMs, 1830 x (68.5 / 121.4)^(1/3) = 1515 MHz.
    CHECK(*hw::power_limited_tensor_clock_mhz(h100, 132 * 0.92) == doctest::Approx(1515.0).epsilon(0.002));
}

TEST_CASE("a kernel's utilisation gives the clock it ran at and its activity, and the rule gives that clock back") {
    const hw::GpuSpec h100 = hw::resolve_gpu("h100");
    // u = 0.75 on 132 SMs: f = 1830 x sqrt(68.5 / 99) = 1522.2 MHz; a = 0.75 x 1830 / 1522.2 = 0.9016.
    const auto load = hw::tensor_load_from_utilisation(h100, 132, 0.75);
    REQUIRE(load);
    CHECK(load->clock_mhz == doctest::Approx(1522.2).epsilon(0.001));
    CHECK(load->activity == doctest::Approx(0.9016).epsilon(0.001));
    CHECK(*hw::power_limited_tensor_clock_mhz(h100, 132 * load->activity) == doctest::Approx(load->clock_mhz));
    // Few SMs or little tensor work: below the limit, at the tensor clock, and the activity is the utilisation.
    const auto light = hw::tensor_load_from_utilisation(h100, 16, 0.75);
    REQUIRE(light);
    CHECK(light->clock_mhz == 1830);
    CHECK(light->activity == doctest::Approx(0.75));
    CHECK(hw::tensor_load_from_utilisation(h100, 132, 0.2)->clock_mhz == 1830);
    // Nothing to explain: no load.
    CHECK_FALSE(hw::tensor_load_from_utilisation(h100, 132, 0));
    CHECK_FALSE(hw::tensor_load_from_utilisation(h100, 0, 0.5));
}

TEST_CASE("a GPU without the keys has no power-limited clock; the keys go together, read back and take --set") {
    const hw::GpuSpec plain = hw::parse_gpu_spec(spec_text(""), "g.yaml");
    CHECK_FALSE(hw::has_tensor_power(plain));
    CHECK_FALSE(hw::power_limited_tensor_clock_mhz(plain, 100));
    CHECK_FALSE(hw::tensor_load_from_utilisation(plain, 4, 0.9));
    const hw::GpuSpec both = hw::parse_gpu_spec(spec_text("  tensor_clock_mhz: 1830\n  tensor_power_sms: 3\n"), "g.yaml");
    CHECK(*both.tensor_clock_mhz == 1830);
    CHECK(*both.tensor_power_sms == 3);
    CHECK(hw::parse_gpu_spec(hw::to_yaml(both), "again.yaml").tensor_power_sms == both.tensor_power_sms);
    CHECK(test::spec_error(spec_text("  tensor_clock_mhz: 1830\n")).find("execution.tensor_clock_mhz") != std::string::npos);
    CHECK(test::spec_error(spec_text("  tensor_power_sms: 3\n")).find("execution.tensor_power_sms") != std::string::npos);
    // A tensor clock above clock_mhz (as when a what-if sweep lowers the clock) is capped at clock_mhz, 1980 MHz here.
    const hw::GpuSpec slow = hw::parse_gpu_spec(spec_text("  tensor_clock_mhz: 2500\n  tensor_power_sms: 3\n"), "g.yaml");
    CHECK(*hw::power_limited_tensor_clock_mhz(slow, 1) == 1980);
    CHECK(hw::tensor_load_from_utilisation(slow, 1, 0.5)->clock_mhz == 1980);
    CHECK(test::spec_error(spec_text("  tensor_clock_mhz: 1830\n  tensor_power_sms: -1\n")).find("execution.tensor_power_sms") !=
          std::string::npos);
    const hw::GpuSpec set = hw::resolve_gpu_with_overrides("h100", {{"execution.tensor_power_sms", "132"}},
                                                           {"--set execution.tensor_power_sms=132"});
    CHECK(*set.tensor_power_sms == 132);
    // The whole H100 at activity 0.92 then stays at the tensor clock.
    CHECK(*hw::power_limited_tensor_clock_mhz(set, 132 * 0.92) == 1830);
}

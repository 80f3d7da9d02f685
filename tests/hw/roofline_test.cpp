// The roofline keys (FP32 and tensor FLOPs per SM per cycle), their peaks, overrides, device names and every preset's rules.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "gpusched/hw/gpu_overrides.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/gpu_spec_provenance.h"
#include "gpusched/hw/presets.h"
#include "gpusched/hw/roofline.h"
#include "gpusched/support/input_error.h"
#include "support/gpu_spec_text.h"

using namespace gpusched;

namespace {
std::string spec_text(const std::string& execution_tail, const std::string& top_tail = "") {
    return test::minimal_spec_text(execution_tail, top_tail);
}
}  // namespace

TEST_CASE("every preset has an FP32 roofline, positive tensor rates of known dtypes, and device names") {
    for (const auto& name : hw::preset_names()) {
        CAPTURE(name);
        const hw::GpuSpec s = hw::resolve_gpu(name);
        REQUIRE(s.fma_flops_per_sm_cycle.has_value());
        CHECK(*s.fma_flops_per_sm_cycle > 0);
        REQUIRE(s.fp32_lanes_per_sm.has_value());
        CHECK(*s.fma_flops_per_sm_cycle == 2.0 * *s.fp32_lanes_per_sm);  // an FMA counts 2
        CHECK(hw::peak_flops(s, "fp32").value_or(0) > 0);
        for (const auto& [dtype, rate] : s.tensor_flops_per_sm_cycle) {
            CAPTURE(dtype);
            CHECK(rate > 0);
            CHECK(hw::tensor_flops_per_sm_cycle(s, dtype) == rate);
            CHECK(hw::peak_flops(s, dtype).value_or(0) > 0);
        }
        CHECK(s.tensor_flops_per_sm_cycle.empty() == (s.cc_major < 7));  // tensor cores from Volta on
        CHECK(!s.device_names.empty());
    }
}

TEST_CASE("each rules entry names a key the preset gives") {
    for (const auto& name : hw::preset_names()) {
        const hw::GpuSpec s = hw::resolve_gpu(name);
        for (const auto& [key, rule] : s.rules) {
            CAPTURE(name);
            CAPTURE(key);
            CHECK(!rule.empty());
            const auto& keys = hw::gpu_number_keys();
            if (std::find(keys.begin(), keys.end(), key) != keys.end()) CHECK(hw::gpu_number(s, key).has_value());
            else CHECK((key == "defaults.policy" || key == "defaults.execution" || key == "execution.issue_model" ||
                        key == "execution.l1_model"));
        }
    }
}

TEST_CASE("peaks are per SM per cycle x SMs x clock; --sms K keeps the per-SM rates and scales the peak") {
    const hw::GpuSpec h100 = hw::resolve_gpu("h100");
    const double clock_hz = *h100.clock_mhz * 1e6;
    CHECK(hw::peak_flops(h100, "fp32") == doctest::Approx(*h100.fma_flops_per_sm_cycle * 132 * clock_hz));
    const double bf16 = *hw::tensor_flops_per_sm_cycle(h100, "bf16");
    CHECK(hw::peak_flops(h100, "bf16") == doctest::Approx(bf16 * 132 * clock_hz));
    CHECK(hw::headline_tensor_dtype(h100) == std::optional<std::string>("bf16"));
    CHECK(hw::headline_tensor_dtype(hw::resolve_gpu("v100")) == std::optional<std::string>("fp16"));
    CHECK_FALSE(hw::headline_tensor_dtype(hw::resolve_gpu("k20")).has_value());
    CHECK_FALSE(hw::peak_flops(h100, "fp4").has_value());                    // not a dtype of the roofline
    CHECK_FALSE(hw::peak_flops(hw::resolve_gpu("t4"), "bf16").has_value());  // Turing has no BF16 tensor path
    for (int sms : {16, 66, 200}) {
        CAPTURE(sms);
        const hw::GpuSpec fewer = hw::with_sm_count(h100, sms);
        CHECK(fewer.tensor_flops_per_sm_cycle == h100.tensor_flops_per_sm_cycle);
        CHECK(fewer.fma_flops_per_sm_cycle == h100.fma_flops_per_sm_cycle);
        CHECK(*hw::peak_flops(fewer, "bf16") == doctest::Approx(*hw::peak_flops(h100, "bf16") * sms / 132));
        CHECK(*hw::peak_flops(fewer, "fp32") == doctest::Approx(*hw::peak_flops(h100, "fp32") * sms / 132));
    }
}

TEST_CASE("--set reaches a tensor dtype; a bad value or dtype names the key") {
    const hw::GpuSpec set = hw::resolve_gpu_with_overrides(
        "h100", {{"execution.tensor_flops_per_sm_cycle.bf16", "8192"}}, {"--set execution.tensor_flops_per_sm_cycle.bf16=8192"});
    CHECK(hw::tensor_flops_per_sm_cycle(set, "bf16") == 8192.0);
    CHECK(hw::tensor_flops_per_sm_cycle(set, "fp16") == hw::tensor_flops_per_sm_cycle(hw::resolve_gpu("h100"), "fp16"));
    CHECK(set.name == "h100 (execution.tensor_flops_per_sm_cycle.bf16=8192)");
    // A GPU without tensor cores gets the mapping; the FP32 rate by its bare key.
    const hw::GpuSpec k20 = hw::resolve_gpu_with_overrides(
        "k20", {{"execution.tensor_flops_per_sm_cycle.fp16", "512"}, hw::parse_gpu_override("fma_flops_per_sm_cycle=200", "--set")}, {});
    CHECK(hw::tensor_flops_per_sm_cycle(k20, "fp16") == 512.0);
    CHECK(k20.fma_flops_per_sm_cycle == 200.0);
    const auto bad = [](const std::string& key, const std::string& value) {
        const std::string written = "--set " + key + "=" + value;
        CAPTURE(written);
        try {
            (void)hw::resolve_gpu_with_overrides("h100", {{key, value}}, {written});
            FAIL("accepted");
        } catch (const InputError& e) {
            const std::string message = e.what();
            CHECK(message.rfind(written + ": ", 0) == 0);
            CHECK(message.find("'" + key + "'") != std::string::npos);
        }
    };
    bad("execution.tensor_flops_per_sm_cycle.bf16", "-1");
    bad("execution.tensor_flops_per_sm_cycle.bf16", "lots");
    bad("execution.tensor_flops_per_sm_cycle.fp4", "100");
    bad("execution.fma_flops_per_sm_cycle", "0");
    CHECK_THROWS_WITH_AS(hw::resolve_gpu_with_overrides("h100", {{"execution.tensor_flops_per_sm_cycle.fp4", "1"}}, {}),
                         doctest::Contains("bf16"), InputError);  // the known dtypes are listed
    bad("execution.library_efficiency.gemm", "1.5");  // a fraction of the peak
    bad("execution.library_efficiency.gemm", "0");
    bad("execution.library_efficiency.softmax", "0.5");  // not a compute family
    CHECK_THROWS_AS(hw::resolve_gpu_with_overrides("h100", {{"execution.clock_mhz.x", "1"}}, {}), InputError);
    CHECK_THROWS_AS(hw::resolve_gpu_with_overrides("h100", {{"execution.a.b.c", "1"}}, {}), InputError);
}

TEST_CASE("the roofline keys and device names are read strictly and written back") {
    const std::string tensor = "  fma_flops_per_sm_cycle: 256\n  tensor_flops_per_sm_cycle:\n    bf16: 4096\n    int8: 8192\n";
    const hw::GpuSpec s = hw::parse_gpu_spec(spec_text(tensor, "device_names: [\"NVIDIA T\", \"NVIDIA T 2\"]\n"), "t.yaml");
    CHECK(s.device_names == std::vector<std::string>{"NVIDIA T", "NVIDIA T 2"});
    CHECK(s.tensor_flops_per_sm_cycle.size() == 2);
    CHECK(hw::parse_gpu_spec(hw::to_yaml(s), "again.yaml") == s);
    CHECK(hw::gpu_number(s, "execution.tensor_flops_per_sm_cycle.int8") == 8192.0);
    CHECK_FALSE(hw::gpu_number(s, "execution.tensor_flops_per_sm_cycle.fp16").has_value());
    const auto fails = [](const std::string& text, const std::string& needle) {
        CHECK_THROWS_WITH_AS(hw::parse_gpu_spec(text, "t.yaml"), doctest::Contains(needle.c_str()), InputError);
    };
    fails(spec_text("  tensor_flops_per_sm_cycle: 4096\n"), "key 'execution.tensor_flops_per_sm_cycle': expected a mapping");
    fails(spec_text("  tensor_flops_per_sm_cycle:\n    fp4: 1\n"), "unknown key 'execution.tensor_flops_per_sm_cycle.fp4'");
    fails(spec_text("  tensor_flops_per_sm_cycle:\n    bf16: -2\n"), "key 'execution.tensor_flops_per_sm_cycle.bf16'");
    fails(spec_text("", "device_names: NVIDIA T\n"), "key 'device_names': expected a list");
    // The library efficiencies: a mapping of compute families to fractions, written back, reachable by --set.
    const hw::GpuSpec e = hw::parse_gpu_spec(spec_text(tensor + "  library_efficiency:\n    gemm: 0.7\n    attention: 0.3\n"), "e.yaml");
    CHECK(hw::library_efficiency(e, "gemm") == 0.7);
    CHECK_FALSE(hw::library_efficiency(e, "conv").has_value());
    CHECK(hw::gpu_number(e, "execution.library_efficiency.attention") == 0.3);
    CHECK(hw::parse_gpu_spec(hw::to_yaml(e), "again.yaml") == e);
    CHECK(hw::library_efficiency(hw::resolve_gpu_with_overrides("h100", {{"execution.library_efficiency.gemm", "0.5"}}, {}), "gemm") == 0.5);
    fails(spec_text("  library_efficiency: 0.7\n"), "key 'execution.library_efficiency': expected a mapping");
    fails(spec_text("  library_efficiency:\n    softmax: 0.5\n"), "unknown key 'execution.library_efficiency.softmax'");
    fails(spec_text("", "device_names: [\"A\", \"A\"]\n"), "'A' is listed twice");
    // A rule may name a tensor key the spec gives, not one it lacks.
    CHECK(hw::parse_gpu_spec(spec_text(tensor) + "rules:\n  execution.tensor_flops_per_sm_cycle.bf16: \"R0 test\"\n", "t.yaml")
              .rules.size() == 1);
    fails(spec_text(tensor) + "rules:\n  execution.tensor_flops_per_sm_cycle.fp16: \"R0 test\"\n", "gives no value");
}

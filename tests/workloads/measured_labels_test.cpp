// The labels an import writes on measured kernels (family, work_from, flops, dtype): parsed, carried, bad values refused naming the key.
#include <doctest/doctest.h>

#include <string>

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/measured_work.h"

using namespace gpusched;

namespace {

const std::string kBase = "kernel:blocks=128,threads=256,measured=20us,measured_gpu=h100";

/// The message of the error reading `spec`, "" when it is accepted.
std::string error_of(const std::string& spec) {
    try {
        (void)workloads::application_from_specs({spec}, "--kernel");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("family, work_from, flops and dtype are accepted on a measured launch") {
    CHECK(error_of(kBase + ",family=gemm,work_from=profiler-flops,flops=1e9,dtype=bf16") == "");
    CHECK(error_of(kBase + ",family=copy,work_from=bandwidth-rule,dram_bytes=60000000") == "");
    for (const auto& family : workloads::kernel_family_names()) CHECK(error_of(kBase + ",family=" + family) == "");
    for (const auto& from : workloads::work_from_names()) CHECK(error_of(kBase + ",work_from=" + from) == "");
    for (const auto& dtype : workloads::measured_dtype_names()) CHECK(error_of(kBase + ",dtype=" + dtype) == "");
}

TEST_CASE("bad labels are an input error naming the key") {
    const std::string family = error_of(kBase + ",family=matmul");
    CHECK(family.find("family") != std::string::npos);
    CHECK(family.find("expected one of gemm, conv") != std::string::npos);
    CHECK(family.find("got 'matmul'") != std::string::npos);
    CHECK(error_of(kBase + ",dtype=float32").find("dtype") != std::string::npos);
    CHECK(error_of(kBase + ",dtype=float32").find("got 'float32'") != std::string::npos);
    CHECK(error_of(kBase + ",work_from=guess").find("work_from") != std::string::npos);
    CHECK(error_of(kBase + ",flops=-1").find("flops") != std::string::npos);
    CHECK(error_of(kBase + ",flops=lots").find("flops") != std::string::npos);
    // Only on a measured launch: a hand-described kernel's work is its warp_* keys.
    CHECK(error_of("kernel:blocks=1,threads=32,warp_instr=10,family=gemm").find("belongs to a measured launch") != std::string::npos);
}

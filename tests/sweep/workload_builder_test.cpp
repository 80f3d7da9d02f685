// Workload builder: ${NAME} placeholders, kernel keys set or replaced, and located errors.
#include <doctest/doctest.h>

#include "gpusched/support/input_error.h"
#include "gpusched/sweep/workload_builder.h"

using namespace gpusched;

namespace {
std::vector<sweep::Parameter> params(const std::vector<std::string>& names) {
    std::vector<sweep::Parameter> out;
    for (const auto& n : names) out.push_back({n, sweep::ParamKind::workload_key, ""});
    return out;
}
}  // namespace

TEST_CASE("placeholders are ${NAME} with letters, digits and underscores") {
    CHECK(sweep::placeholders("a=${x},b=${y_2},c=${x},d=${...},e=${}") == std::vector<std::string>{"x", "y_2"});
}

TEST_CASE("a one-spec workload takes its kernel's keys; placeholders take any parameter") {
    sweep::WorkloadDef w{"w", {"synthetic:blocks=${b},threads=64,duration=1us"}, "", "", "study.yaml:3"};
    CHECK(sweep::feeds_workload(w, "b"));
    CHECK(sweep::feeds_workload(w, "threads"));
    CHECK_FALSE(sweep::feeds_workload(w, "sm_count"));
    const auto app = sweep::build_workload(w, params({"b", "threads", "regs"}), {"12", "128", "32"});
    REQUIRE(app.launches.size() == 1);
    CHECK(app.launches[0].blocks() == 12);
    CHECK(app.launches[0].block.count() == 128);
    CHECK(app.launches[0].registers_per_thread == 32);
    CHECK(app.description == "synthetic:blocks=12,threads=128,duration=1us,regs=32");
}

TEST_CASE("a multi-spec workload takes placeholders only") {
    sweep::WorkloadDef w{"two", {"synthetic:blocks=${b},threads=64,duration=1us", "synthetic:blocks=3,threads=32,duration=1us"},
                         "", "", ""};
    CHECK_FALSE(sweep::feeds_workload(w, "threads"));
    const auto app = sweep::build_workload(w, params({"b", "threads"}), {"5", "1024"});
    REQUIRE(app.launches.size() == 2);
    CHECK(app.launches[0].block.count() == 64);
    CHECK(app.launches[1].blocks() == 3);
}

TEST_CASE("a placeholder without a value and a bad value are errors naming the workload") {
    sweep::WorkloadDef w{"w", {"synthetic:blocks=${b},threads=64,duration=1us"}, "", "", ""};
    CHECK_THROWS_WITH_AS(sweep::build_workload(w, params({"b"}), {""}),
                         doctest::Contains("workload 'w': placeholder ${b} has no value"), InputError);
    CHECK_THROWS_WITH_AS(sweep::build_workload(w, params({"b"}), {"many"}),
                         doctest::Contains("workload 'w': key 'blocks'"), InputError);
}

TEST_CASE("a spec's whole application is built: different later launches and its copies") {
    // spmv HYB is two different launches (ELL part, then COO part: `then`); streamcluster
    // issues two device-to-host copies after its kernel (`after_each`). A sweep point must
    // simulate all of it, exactly as `gpusched simulate --kernel` does.
    sweep::WorkloadDef hyb{"hyb", {"spmv:format=hyb,gen=harbor"}, "", "", ""};
    const auto two = sweep::build_workload(hyb, {}, {});
    REQUIRE(two.launches.size() == 2);
    CHECK(two.launches[0].name != two.launches[1].name);
    sweep::WorkloadDef sc{"sc", {"streamcluster:points=4096,dims=16,rake=${r}"}, "", "", ""};
    const auto app = sweep::build_workload(sc, params({"r"}), {"4"});
    REQUIRE(app.launches.size() == 1);
    int copies = 0;
    for (const auto& op : app.issue_order()) copies += op.kind == workloads::Operation::Kind::copy ? 1 : 0;
    CHECK(copies == 2);
}

TEST_CASE("broken placeholders are found where they are; comments of a workload file are not checked") {
    CHECK(sweep::broken_placeholder("synthetic:blocks=${b},threads=${t}").empty());
    // "${b," never closes before a character that cannot be in a name: line 1, 24 characters shown.
    CHECK(sweep::broken_placeholder("synthetic:blocks=${b,threads=64,duration=3us") ==
          "line 1: '${b,threads=64,duration='");
    CHECK(sweep::broken_placeholder("a: 1\nb: ${}\n") == "line 2: '${}'");
    CHECK(sweep::broken_placeholder("x: ${n") == "line 1: '${n'");
    const std::string file = "# ${...} placeholders are filled in\nblocks: ${n}  # or ${...}\nthreads: ${t\n";
    CHECK(sweep::broken_placeholder(file, true) == "line 3: '${t'");
    CHECK(sweep::broken_placeholder(file, false) == "line 1: '${...} placeholders are '");
}

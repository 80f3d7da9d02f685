// The streamcluster paper's Table V (best rake size R for ten problem sizes on the GTX 480): its model and the simulated exhaustive search.
#include <doctest/doctest.h>

#include <cstdlib>
#include <limits>
#include <string>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/models/streamcluster_rake_model.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/workloads/kernel_spec.h"
#include "support/csv_table.h"

using namespace gpusched;

namespace {

const std::string kTable = std::string(GPUSCHED_SOURCE_DIR) + "/validation/data/published/streamcluster_table5.csv";

/// The paper's application (Table IV: DIM 16, 512 work-items per group, 23 registers; K 20) at N points.
std::string paper_spec(const std::string& points, const std::string& extra_keys) {
    return "streamcluster:points=" + points + ",dims=16,threads=512,regs=23" + extra_keys;
}

/// The simulated exhaustive search: the R in 1..kMaxRake with the shortest kernel + pinned copies
/// (one call; every call of the paper's run has the same shape), most-room, the preset's execution.
int simulated_best_rake(const hw::GpuSpec& gpu, const std::string& points, const std::string& extra_keys) {
    constexpr int kMaxRake = 260;  // beyond every simulated optimum below (216 at most)
    const auto policy = scheduler::make_policy("most-room");
    int best = 0;
    double best_us = std::numeric_limits<double>::infinity();
    for (int r = 1; r <= kMaxRake; ++r) {
        const workloads::Application app =
            workloads::application_from_specs({paper_spec(points, extra_keys + ",rake=" + std::to_string(r))});
        sim::Simulation run(gpu, app, *policy);
        const double us = static_cast<double>(run.run().makespan) / 1e6;
        if (us < best_us) best_us = us, best = r;
    }
    return best;
}

}  // namespace

TEST_CASE("Table V, predicted column: eq. 9's b on the gtx480 preset, and the paper's a > b case at 51200 points") {
    const test::CsvTable t = test::read_csv_table(kTable);
    REQUIRE(t.rows.size() == 10);
    hw::GpuSpec gpu = hw::resolve_gpu("gtx480");
    for (const auto& row : t.rows) {
        const std::string points = row[t.column("points")];
        CAPTURE(points);
        const auto in = models::rake_model_inputs(gpu, workloads::parse_kernel_spec(paper_spec(points, ""), "test"), 0.01);
        CHECK(in.warps_per_sm == 32);  // MW = 32 (Sect. IV-A): 2 blocks of 512 work-items at 23 registers
        const auto model = models::rake_model(in);
        // b = ceil(N / (15 x 32 x 32)): the paper's predicted R wherever a <= b.
        if (points != "51200") CHECK(model.b == static_cast<std::uint64_t>(std::stoi(row[t.column("predicted_r")])));
        else CHECK(model.b == 4);  // and a = 11 (Sect. IV-B): searched [4, 11] to R = 8
    }
    // Sect. IV-B's own inputs at 51200 points: l 45 us, n 895, BW 1 GB/s -> a = 11 > b = 4.
    models::RakeModelInputs paper{51200, 20, 15, 32, 32, 45e-6, 895, 1e9, 0.01};
    CHECK(models::rake_model(paper).a == 11);
    CHECK(models::rake_model(paper).needs_search());
}

TEST_CASE("Table V, exhaustive column: the simulated best R on the gtx480 preset (target: within +-2 for all ten)") {
    const test::CsvTable t = test::read_csv_table(kTable);
    const hw::GpuSpec gpu = hw::resolve_gpu("gtx480");
    // Today (docs/validation.md "Published numbers"), the preset's defaults: simulated best R =
    // 16 23 44 65 87 108 130 151 194 216 against the paper's 8 8 16 20 28 34 40 48 60 68: 2.0-3.3x,
    // none within +-2 (target missed). The derived distance-loop chain (4x unrolled, one 600-cycle
    // DRAM latency per four trips: 178.75 cycles per trip) keeps the kernel DRAM-bandwidth-bound, so
    // flat in R, until R is about 3 b, while the copies shrink as 1/R.
    // With one DRAM latency per trip (no unroll: 600 + FADD 22 + FFMA 22 = 644 cycles, not fitted to
    // this table) the kernel turns latency-bound at R = b and 9 of 10 are within +-2; 102400 points
    // gives 12 against 8 (b = 7).
    const int expected_default[] = {16, 23, 44, 65, 87, 108, 130, 151, 194, 216};
    const int expected_no_unroll[] = {9, 12, 17, 21, 27, 34, 40, 47, 60, 67};
    int within_default = 0, within_no_unroll = 0;
    for (std::size_t i = 0; i < t.rows.size(); ++i) {
        const std::string points = t.rows[i][t.column("points")];
        const int paper = std::stoi(t.rows[i][t.column("exhaustive_r")]);
        CAPTURE(points);
        const int with_defaults = simulated_best_rake(gpu, points, "");
        const int no_unroll = simulated_best_rake(gpu, points, ",dim_latency_cycles=644");
        CHECK(with_defaults == expected_default[i]);
        CHECK(no_unroll == expected_no_unroll[i]);
        within_default += std::abs(with_defaults - paper) <= 2 ? 1 : 0;
        within_no_unroll += std::abs(no_unroll - paper) <= 2 ? 1 : 0;
    }
    CHECK(within_default == 0);
    CHECK(within_no_unroll == 9);
}

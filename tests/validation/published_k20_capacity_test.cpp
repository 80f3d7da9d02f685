// The compute-bound paper's Kepler 20 capacities (seed 003, Sect. 3): the k20 preset states them, and the simulated series kernel steps where they are exceeded.
#include <doctest/doctest.h>

#include <string>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/occupancy.h"
#include "gpusched/models/compute_bound_model.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/workloads/kernel_spec.h"
#include "support/csv_table.h"

using namespace gpusched;

namespace {

const std::string kTable = std::string(GPUSCHED_SOURCE_DIR) + "/validation/data/published/compute_bound_k20.csv";

double paper_value(const test::CsvTable& t, const std::string& quantity) {
    for (const auto& row : t.rows)
        if (row[t.column("quantity")] == quantity) return std::stod(row[t.column("value")]);
    FAIL("no " << quantity << " in " << kTable);
    return 0;
}

double series_us(const hw::GpuSpec& gpu, int blocks, int threads) {
    const workloads::Application app = workloads::application_from_specs(
        {"binomial-series:blocks=" + std::to_string(blocks) + ",threads=" + std::to_string(threads)});
    const auto policy = scheduler::make_policy("most-room");
    sim::Simulation run(gpu, app, *policy);
    return static_cast<double>(run.run().makespan) / 1e6;
}

/// The paper's eq. 3 time in units of tau (kappa = tau / time).
double paper_time(const hw::GpuSpec& g, std::uint64_t blocks, std::uint64_t threads) {
    return models::compute_bound_model({1.0, blocks, threads, g.sm_count, g.max_blocks_per_sm, g.max_warps_per_sm, g.warp_size}).time;
}

}  // namespace

TEST_CASE("the k20 preset has the paper's Kepler 20 capacities: 13 SMs x 64 warps x 32 = 26,624 threads, 208 blocks of 128") {
    const test::CsvTable t = test::read_csv_table(kTable);
    const hw::GpuSpec k20 = hw::resolve_gpu("k20");
    CHECK(k20.sm_count == paper_value(t, "sm_count"));
    CHECK(k20.max_warps_per_sm == paper_value(t, "warps_per_sm"));
    CHECK(k20.warp_size == paper_value(t, "warp_size"));
    CHECK(k20.max_threads_per_sm == paper_value(t, "threads_per_sm"));
    CHECK(k20.max_threads_per_block == paper_value(t, "max_threads_per_block"));
    CHECK(k20.sm_count * k20.max_warps_per_sm * k20.warp_size == paper_value(t, "resident_threads"));
    // The occupancy calculator on a 128-thread block: 16 blocks (block and warp limits at once) x 13 SMs = 208.
    const auto occ = hw::compute_occupancy(
        k20, workloads::parse_kernel_spec("binomial-series:blocks=208,threads=128", "test").occupancy_request());
    CHECK(occ.blocks_per_sm * k20.sm_count == paper_value(t, "blocks_at_thread_capacity"));
    CHECK(occ.blocks_per_sm * k20.sm_count * 128 == paper_value(t, "resident_threads"));
}

TEST_CASE("k20: the simulated series steps at the paper's capacity, and its ratios follow eq. 3 within 7%") {
    const hw::GpuSpec k20 = hw::resolve_gpu("k20");
    // Below the block capacity nothing changes (207 and 208 blocks of 128 threads: one wave).
    const double t207 = series_us(k20, 207, 128), t208 = series_us(k20, 208, 128);
    CHECK(t207 == doctest::Approx(t208));
    // Eq. 3 at 208 blocks: tau + xi_rw = 2 tau; at 209: xi_rb + xi_rw = 2 + 209 x 128 / 26624 = 3.005 tau;
    // at 416: 4 tau; at 417: 5.005 tau. Ratios to 208: 1.502, 2.0, 2.502.
    // Simulated today: 115.1 / 183.1 / 228.6 / 296.6 us, ratios 1.590 (+5.9%), 1.986 (-0.7%), 2.576 (+2.9%).
    for (int blocks : {209, 416, 417}) {
        CAPTURE(blocks);
        const double simulated = series_us(k20, blocks, 128) / t208;
        const double paper = paper_time(k20, static_cast<std::uint64_t>(blocks), 128) / paper_time(k20, 208, 128);
        CHECK(simulated / paper == doctest::Approx(1.0).epsilon(0.07));
    }
    CHECK(series_us(k20, 209, 128) / t208 == doctest::Approx(1.590).epsilon(0.01));
    // Far below the thread capacity (32-thread blocks: 208 x 32 = 6,656 threads) the time is flat (tau).
    CHECK(series_us(k20, 208, 32) / series_us(k20, 13, 32) == doctest::Approx(1.0).epsilon(0.01));
}

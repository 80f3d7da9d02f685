// The interval paper's large-graph errors (C2075, GTX 780): the measured time they imply, against the simulation calibrated at the paper's n0 = 500.
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/occupancy.h"
#include "gpusched/models/interval_model.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/workloads/apsp_grid.h"
#include "gpusched/workloads/kernel_spec.h"
#include "support/csv_table.h"

using namespace gpusched;

namespace {

const std::string kDir = std::string(GPUSCHED_SOURCE_DIR) + "/validation/data/published/";

/// Table 4 and 5 of the paper (interval_model_parameters.csv).
struct PaperParameters {
    std::map<std::string, double> v;
    explicit PaperParameters(const test::CsvTable& t) {
        for (const auto& row : t.rows) v[row[t.column("parameter")]] = std::stod(row[t.column("value")]);
    }
    [[nodiscard]] double at(const std::string& key) const { return v.at(key); }
};

/// The paper's four models in symbolic units (eqs. 1-5, 14-18; Table 5), #WarpsPerSM from the
/// preset's occupancy and the exact active warps of each block. Order: Min, Sorted, Full, Buckets.
std::vector<double> paper_models(const PaperParameters& p, const hw::GpuSpec& gpu, std::uint64_t n, std::uint32_t bs) {
    const workloads::KernelLaunch k = workloads::parse_kernel_spec(
        "apsp-minplus:n=" + std::to_string(n) + ",block=" + std::to_string(bs), "test");
    const hw::OccupancyResult occ = hw::compute_occupancy(gpu, k.occupancy_request());
    const workloads::ApspGrid grid(n, bs);
    const int wpb = occ.warps_per_block;
    models::IntervalKernel ik{grid.blocks(), gpu.sm_count, occ.blocks_per_sm, wpb,
                                 [&](std::uint64_t b) { return grid.active_warps(grid.category(b), wpb); }};
    const models::WarpsPerSm w = models::interval_warps_per_sm(ik);
    const double tpw = p.at("threads_per_warp"), coal = p.at("coalescable_mem_accesses"), pmin = p.at("p_min");
    const double reads = std::ceil((1 + 2 * static_cast<double>(grid.width()) + pmin) * tpw / coal);
    const double writes = std::ceil(2 * pmin * tpw / coal);
    const double t_warp = static_cast<double>(n) * p.at("instr_per_vertex") * p.at("t_instr") + reads * p.at("t_read") +
                          writes * p.at("t_write");
    const double launches = std::ceil(std::log2(static_cast<double>(n - 1)));
    const double per_warp = t_warp * tpw / p.at("cores_per_sm." + gpu.name);
    std::vector<double> out;
    for (std::uint64_t warps : {w.min, w.sorted, w.full, w.buckets})
        out.push_back(launches * (p.at("t_launch") + per_warp * static_cast<double>(warps)));
    return out;
}

/// The simulated Min-plus run (the spec's launches, no Init), `shared`, most-room, the preset's defaults, us.
double simulated_us(const hw::GpuSpec& gpu, std::uint64_t n, std::uint32_t bs) {
    static std::map<std::tuple<std::string, std::uint64_t, std::uint32_t>, double> cache;
    const auto key = std::make_tuple(gpu.name, n, bs);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
    const workloads::Application app = workloads::application_from_specs(
        {"apsp-minplus:n=" + std::to_string(n) + ",block=" + std::to_string(bs)});
    const auto policy = scheduler::make_policy("most-room");
    sim::Simulation run(gpu, app, *policy, "shared");
    return cache[key] = static_cast<double>(run.run().makespan) / 1e6;
}

int model_index(const std::string& name) {
    const std::map<std::string, int> index{{"min", 0}, {"sorted", 1}, {"full", 2}, {"buckets", 3}};
    return index.at(name);
}

/// The simulation's mean error over n = 4000 and 4050 against the measured time the paper's stated
/// error implies: measured(n) / measured(n0) = (4 T'_m(n) / sum of the four T'(n0)) / (1 + e),
/// averaged over the row's models; the simulation is calibrated at n0 as the paper is.
double simulated_error_percent(const PaperParameters& p, const hw::GpuSpec& gpu, std::uint32_t bs,
                               const std::vector<int>& models, double paper_error_percent) {
    const auto n0 = static_cast<std::uint64_t>(p.at("n0"));
    const std::vector<double> at_n0 = paper_models(p, gpu, n0, bs);
    const double sum_n0 = at_n0[0] + at_n0[1] + at_n0[2] + at_n0[3];
    double sum = 0;
    const std::uint64_t sizes[] = {4000, 4050};
    for (std::uint64_t n : sizes) {
        const std::vector<double> at_n = paper_models(p, gpu, n, bs);
        double implied = 0;
        for (int m : models) implied += 4 * at_n[static_cast<std::size_t>(m)] / sum_n0 / (1 + paper_error_percent / 100);
        implied /= static_cast<double>(models.size());
        const double simulated = simulated_us(gpu, n, bs) / simulated_us(gpu, n0, bs);
        sum += 100 * (simulated / implied - 1);
    }
    return sum / 2;
}

}  // namespace

TEST_CASE("interval paper, large graphs: the simulation against the measured times the paper's errors imply") {
    const PaperParameters p(test::read_csv_table(kDir + "interval_model_parameters.csv"));
    const test::CsvTable t = test::read_csv_table(kDir + "interval_large_graphs.csv");
    REQUIRE(t.rows.size() == 7);
    // Today (docs/validation.md "Published numbers"), mean of n = 4000 and 4050, for the paper's
    // stated error bounds: the simulation (preset defaults) calibrated at n = 500 is
    //   c2075  8x8  +5.7 .. +6.8% (the paper's models: -1 .. 0%), 16x16 -6.3 .. -5.3% (-1 .. 0%),
    //   32x32 -6.4% (Full/Buckets row, the paper -1.1%) and -6.7% (Min/Sorted row, -1.6%);
    //   gtx780 32x32 +15.6%, 16x16 +17.0%, 8x8 +18.9% (the paper's models: about +20%).
    // (Since min-plus edge blocks run every warp on a GPU with latencies: n = 4050 is not a multiple
    // of 16 or 32; before, c2075 16x16 -5.4 .. -4.4%, gtx780 32x32 +19.4%, 16x16 +20.3%.)
    // On the GTX 780 the simulation grows from n = 500 to 4000 as the paper's models do, both 20%
    // more than the hardware; on the C2075 it misses by 4-7% where the paper's models were within 1-2%.
    const std::map<std::string, std::pair<double, double>> expected{
        {"c2075 8 min buckets", {5.68, 6.75}},   {"c2075 16 min sorted full buckets", {-6.26, -5.31}},
        {"c2075 32 full buckets", {-6.42, -6.42}}, {"c2075 32 min sorted", {-6.69, -6.69}},
        {"gtx780 32 min sorted full buckets", {15.58, 15.58}}, {"gtx780 16 min sorted full buckets", {17.00, 17.00}},
        {"gtx780 8 min sorted full buckets", {18.93, 18.93}}};
    for (const auto& row : t.rows) {
        const std::string gpu_name = row[t.column("gpu")];
        const auto bs = static_cast<std::uint32_t>(std::stoi(row[t.column("block")]));
        const std::string models_text = row[t.column("models")];
        std::vector<int> models;
        std::istringstream words(models_text);
        for (std::string m; words >> m;) models.push_back(model_index(m));
        const hw::GpuSpec gpu = hw::resolve_gpu(gpu_name);
        // A larger stated error implies a smaller measured time, so a larger simulated error.
        const double low = simulated_error_percent(p, gpu, bs, models, std::stod(row[t.column("error_low_percent")]));
        const double high = simulated_error_percent(p, gpu, bs, models, std::stod(row[t.column("error_high_percent")]));
        const std::string key = gpu_name + " " + std::to_string(bs) + " " + models_text;
        CAPTURE(key);
        MESSAGE(key << ": simulated error " << low << " .. " << high << " %");
        const auto& [want_low, want_high] = expected.at(key);
        CHECK(std::abs(low - want_low) <= 0.05);
        CHECK(std::abs(high - want_high) <= 0.05);
    }
}

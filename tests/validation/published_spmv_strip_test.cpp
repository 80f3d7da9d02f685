// The SpMV paper's per-format average differences on the C2050: its strip model against the simulated c2050, beside the paper's model against the real one.
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/models/spmv_strip_model.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/spmv_work.h"
#include "support/csv_table.h"

using namespace gpusched;

namespace {

const std::string kTable = std::string(GPUSCHED_SOURCE_DIR) + "/validation/data/published/spmv_format_differences.csv";

double simulated_us(const hw::GpuSpec& gpu, const workloads::Application& app) {
    const auto policy = scheduler::make_policy("most-room");
    sim::Simulation run(gpu, app, *policy, "shared");
    return static_cast<double>(run.run().makespan) / 1e6;
}

/// The benchmark matrices of Section III-C for every format, timed by the simulator (as `gpusched
/// predict --model strip` does; the paper timed them on its C2050), with the target's block size and costs.
std::vector<models::SpmvBenchmarkPoint> simulated_benchmarks(const hw::GpuSpec& gpu, const workloads::SpmvWork& target,
                                                                const workloads::KernelLaunch& like) {
    const auto sizes = models::spmv_strip_sizes(gpu);
    std::vector<models::SpmvBenchmarkPoint> points = models::spmv_benchmark_plan();
    for (auto& p : points) {
        auto offsets = std::make_shared<const std::vector<std::uint64_t>>(
            models::spmv_uniform_offsets(models::spmv_benchmark_rows(sizes, p), p.nnz_per_row));
        std::shared_ptr<const workloads::SpmvWork> work;
        if (p.format == "csr") work = std::make_shared<const workloads::SpmvCsrWork>(offsets, target.threads_per_block(), target.costs());
        else if (p.format == "ell")
            work = std::make_shared<const workloads::SpmvEllWork>(offsets, p.nnz_per_row, target.threads_per_block(), target.costs());
        else work = std::make_shared<const workloads::SpmvCooWork>(offsets, target.threads_per_block(), target.costs());
        workloads::KernelLaunch k = like;
        k.name = "spmv-benchmark-" + p.format;
        k.grid = workloads::Dim3{static_cast<std::uint32_t>(work->blocks()), 1, 1};
        k.work = work;
        workloads::Application app;
        app.launches.push_back(k);
        p.time_us = simulated_us(gpu, app);
    }
    return points;
}

/// |strip model - simulation| / simulation, %, of one Table IV stand-in in one format.
double difference_percent(const hw::GpuSpec& gpu, const models::SpmvStripModel& model, const std::string& format,
                          const std::string& matrix) {
    const workloads::SpecLaunches parsed =
        workloads::parse_kernel_spec_launches("spmv:format=" + format + ",gen=" + matrix, "test");
    const auto& target = dynamic_cast<const workloads::SpmvWork&>(*parsed.launch.work);
    const auto features = models::spmv_target_features(target.offsets());
    models::SpmvStripEstimate e;
    if (format == "hyb") {
        const auto* ell = dynamic_cast<const workloads::SpmvEllWork*>(&target);
        const auto* coo = dynamic_cast<const workloads::SpmvCooWork*>(&target);
        const std::uint64_t rest =
            coo ? coo->nnz() : (parsed.then.empty() ? 0 : dynamic_cast<const workloads::SpmvWork&>(*parsed.then.front().work).nnz());
        e = model.hyb(features, ell ? ell->width() : 0, rest);
    } else if (format == "ell") {
        e = model.ell(features);
    } else if (format == "coo") {
        e = model.coo(features);
    } else {
        e = model.csr(features);
    }
    workloads::Application app;
    parsed.append_to(app);
    const double sim = simulated_us(gpu, app);
    return std::abs(e.time_us - sim) / sim * 100;
}

}  // namespace

TEST_CASE("SpMV paper on the c2050: the strip model describes the simulated kernels as it described the C2050 (COO only)") {
    const test::CsvTable t = test::read_csv_table(kTable);
    REQUIRE(t.rows.size() == 4);
    const hw::GpuSpec gpu = hw::resolve_gpu("c2050");
    const workloads::SpecLaunches like = workloads::parse_kernel_spec_launches("spmv:format=csr,gen=qcd", "test");
    const auto points = simulated_benchmarks(gpu, dynamic_cast<const workloads::SpmvWork&>(*like.launch.work), like.launch);
    const models::SpmvStripModel model(models::spmv_strip_sizes(gpu), static_cast<std::uint64_t>(gpu.max_threads_per_block),
                                          points);
    // Today (docs/validation.md "Published numbers"): mean |difference| over the eight Table IV
    // stand-ins (generated at the paper's sizes), against the paper's measured 4.2 / 5.2 / 1.0 / 5.7%:
    //   CSR 14.0% (Epidemiology -38.7%: 4 non-zeros per row, the fixed per-warp latency the linear fit misses)
    //   ELL 90.8% (Dense +493%: 2000 rows are a tenth of one 21,504-row ELL strip, which the model prices
    //        as a whole strip; the C2050 evidently did too, the simulation does not)
    //   COO 1.5% (paper 1.0%), HYB 19.7% (its ELL part); within 7%: 13 of 32 (paper: 29 of 32).
    // (Before each warp's chain, the loop-step chains: 15.4 / 116.8 / 1.4 / 20.1%, 12 of 32.)
    const std::map<std::string, double> expected{{"csr", 14.0}, {"ell", 90.8}, {"coo", 1.48}, {"hyb", 19.7}};
    int within_7 = 0;
    for (const auto& row : t.rows) {
        const std::string format = row[t.column("format")];
        double sum = 0;
        for (const char* matrix : {"dense", "protein", "spheres", "cantilever", "harbor", "qcd", "ship", "epidemiology"}) {
            const double d = difference_percent(gpu, model, format, matrix);
            sum += d;
            within_7 += d <= 7 ? 1 : 0;
        }
        const double mean = sum / 8, paper = std::stod(row[t.column("average_difference_percent")]);
        CAPTURE(format);
        MESSAGE(format << ": mean |difference| " << mean << "% (paper, against the C2050: " << paper << "%)");
        CHECK(mean == doctest::Approx(expected.at(format)).epsilon(0.02));
    }
    CHECK(within_7 == 13);
}

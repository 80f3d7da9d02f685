// `gpusched predict`: the papers' closed forms (interval, compute-bound, SpMV strip, rake size) for a kernel.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "execution_flag.h"
#include "gpusched/calibrate/calibration_file.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/key_error.h"
#include "gpusched/models/compute_bound_model.h"
#include "gpusched/models/interval_model.h"
#include "gpusched/scheduler/run_setup.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/workloads/cycle_latency.h"
#include "gpusched/workloads/gpu_bound_work.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/models/spmv_strip_model.h"
#include "gpusched/workloads/spmv_work.h"
#include "gpusched/workloads/streamcluster.h"
#include "gpusched/models/streamcluster_rake_model.h"
#include "table.h"

namespace gpusched::cli {

namespace {

struct PredictOptions {
    std::string model = "interval";
    std::string gpu = "h100";
    std::string kernel;
    std::optional<double> measured_ms;
    std::optional<std::int64_t> at;
    std::optional<double> tau_us;
    std::optional<std::string> exec_flag;  ///< --exec, when given
    std::string execution;                 ///< strip, rake: the model run, scheduler::resolve_run_setup of exec_flag on the GPU, with auto resolved
    std::string calibration;
    double delta = 0.01;
    std::string rakes;
    bool rakes_given = false;  ///< --rakes '' is an error, not the default
    bool json = false;
};

/// The four predictions, in microseconds, for the whole application of one spec.
struct IntervalPrediction {
    models::WarpsPerSm warps;
    std::uint64_t launches = 0;
    double warp_us = 0;    ///< one warp's SM time: W / (C f)
    double launch_us = 0;  ///< T_launch: the spec's launch to first block (GpuSpec::launch_to_first_block_ns)
    [[nodiscard]] double app_us(std::uint64_t warps_per_sm) const {
        return static_cast<double>(launches) * (launch_us + warp_us * static_cast<double>(warps_per_sm));
    }
};

IntervalPrediction predict(const hw::GpuSpec& gpu, const workloads::KernelSpec& spec) {
    const workloads::SpecLaunches parsed = workloads::build_kernel_launches(spec);
    const workloads::KernelLaunch& k = parsed.launch;
    const hw::OccupancyResult occ = hw::compute_occupancy(gpu, k.occupancy_request());
    if (!gpu.clock_mhz) throw InputError("--gpu " + gpu.name + ": the interval model needs execution.clock_mhz");
    const auto work = workloads::warp_work_at_clock(*k.work, 0, *gpu.clock_mhz);
    if (!work) throw InputError("--kernel: '" + k.name + "' gives no per-warp work; the interval model needs it");
    IntervalPrediction p;
    const int warps = occ.warps_per_block;
    models::IntervalKernel ik{k.blocks(), gpu.sm_count, occ.blocks_per_sm, warps,
                                 [&](std::uint64_t b) { return k.work->active_warps(b, warps); }};
    p.warps = models::interval_warps_per_sm(ik);
    p.launches = parsed.count;
    // T_warp x 32 / #CoresPerSM of eq. 2 is one warp's share of the SM's issue: W / (C f).
    const double slots_per_us = gpu.issue_slots_per_cycle() * *gpu.clock_mhz;
    p.warp_us = work->issue_slots / slots_per_us;
    p.launch_us = gpu.launch_to_first_block_ns() / 1000.0;
    return p;
}

/// The compute-bound paper's model for B blocks of T threads; tau from --tau-us, or the time a
/// lone warp of the kernel takes: max(L, W / (C f)).
void run_compute_bound(const PredictOptions& o) {
    if (o.measured_ms || o.at) throw InputError("--measured and --at calibrate the interval model only");
    const hw::GpuSpec gpu = hw::resolve_gpu(o.gpu);
    const workloads::KernelLaunch k = workloads::parse_kernel_spec_launches(o.kernel, "--kernel").launch;
    double tau = 0;
    if (o.tau_us) {
        if (!(*o.tau_us > 0) || !(*o.tau_us <= 1e9))
            throw InputError("--tau-us: expected a positive, finite time in microseconds (at most 1e9), got " +
                             std::to_string(*o.tau_us));
        tau = *o.tau_us;
    } else {
        if (!gpu.clock_mhz) throw InputError("--gpu " + gpu.name + ": needs execution.clock_mhz (or give --tau-us)");
        // The work on this GPU: a latency floor the generator derives from the GPU's latencies.
        const auto bound = workloads::work_on_gpu(k, gpu);
        const auto work = workloads::warp_work_at_clock(*bound, 0, *gpu.clock_mhz);
        if (!work) throw InputError("--kernel: '" + k.name + "' gives no per-warp work; give --tau-us");
        const double slots_per_us = gpu.issue_slots_per_cycle() * *gpu.clock_mhz;
        tau = std::max(static_cast<double>(work->latency_bound) / 1e6, work->issue_slots / slots_per_us);
    }
    const models::ComputeBoundInputs in{tau, k.blocks(), static_cast<std::uint64_t>(k.threads_per_block()),
                                           gpu.sm_count, gpu.max_blocks_per_sm, gpu.max_warps_per_sm, gpu.warp_size};
    const auto p = models::compute_bound_model(in);
    if (o.json) {
        nlohmann::ordered_json j{{"model", "compute-bound"}, {"gpu", gpu.name},   {"kernel", o.kernel},
                                 {"tau_us", tau},          {"xi_rb_us", p.xi_rb}, {"xi_rw_us", p.xi_rw},
                                 {"kappa", p.kappa},       {"time_us", p.time},   {"over_capacity", p.over_capacity}};
        std::cout << j.dump(2) << "\n";
        return;
    }
    std::cout << "compute-bound model for " << o.kernel << " on " << gpu.name << " (beta = " << in.blocks
              << ", theta = " << in.threads << ")\n"
              << "  tau      " << fixed(tau, 3) << " us" << (o.tau_us ? "" : " (a lone warp of the kernel)") << "\n"
              << "  xi_rb    " << fixed(p.xi_rb, 3) << " us   (eq. 1)\n"
              << "  xi_rw    " << fixed(p.xi_rw, 3) << " us   (eq. 2)\n"
              << "  kappa    " << fixed(p.kappa, 4) << "      (eq. 3"
              << (p.over_capacity ? ", beyond the resident-thread capacity" : "") << ")\n"
              << "  time     " << fixed(p.time, 3) << " us   (tau / kappa)\n";
}

/// Simulated time of `app` in microseconds (makespan, launch overhead included).
double simulated_us(const hw::GpuSpec& gpu, const workloads::Application& app, const std::string& execution) {
    const scheduler::RunSetup setup = scheduler::resolve_run_setup(gpu, {});
    sim::Simulation simulation(gpu, app, *setup.policy, execution);
    return static_cast<double>(simulation.run().makespan) / 1e6;
}

/// The execution model `name` means for the target spec's launches (`auto` resolved).
std::string resolved_execution(const std::string& name, const workloads::SpecLaunches& target) {
    workloads::Application app;
    target.append_to(app.launches);
    return sim::resolve_execution_model(name, app);
}

/// The SpMV strip model (Guo & Wang) calibrated on its benchmark matrices, which the simulator runs
/// in place of the GPU (same block size and instruction costs as the target); beside it, the
/// simulated time of the target itself.
void run_strip(const PredictOptions& options) {
    PredictOptions o = options;
    if (o.measured_ms || o.at || o.tau_us) throw InputError("--measured, --at and --tau-us do not apply to --model strip");
    const hw::GpuSpec gpu = hw::resolve_gpu(o.gpu);
    o.execution = scheduler::resolve_run_setup(gpu, {.execution = o.exec_flag}).execution;
    if (o.execution != "auto" && o.execution != "shared" && o.execution != "fixed")
        throw InputError("--exec: expected auto, shared or fixed, got '" + o.execution + "'");
    const workloads::SpecLaunches parsed = workloads::parse_kernel_spec_launches(o.kernel, "--kernel");
    const auto* target = dynamic_cast<const workloads::SpmvWork*>(parsed.launch.work.get());
    if (target == nullptr) throw InputError("--kernel: --model strip needs an spmv kernel, got '" + parsed.launch.name + "'");
    o.execution = resolved_execution(o.execution, parsed);
    const auto sizes = models::spmv_strip_sizes(gpu);
    const std::uint64_t threads = target->threads_per_block();
    const auto* ell = dynamic_cast<const workloads::SpmvEllWork*>(target);
    const auto* coo = dynamic_cast<const workloads::SpmvCooWork*>(target);
    const bool hyb = (ell && ell->label() == "hyb-ell") || (coo && coo->label() == "hyb-coo");
    // Only the benchmark matrices of the format(s) the estimate uses (HYB: ELL and COO).
    const auto needed = [&](const std::string& format) {
        if (hyb) return format != "csr";
        return format == (ell ? "ell" : coo ? "coo" : "csr");
    };
    std::vector<models::SpmvBenchmarkPoint> points;
    if (!o.calibration.empty()) points = models::read_spmv_benchmarks(o.calibration);
    for (const auto& p : models::spmv_benchmark_plan())
        if (o.calibration.empty() && needed(p.format)) points.push_back(p);
    for (auto& p : points) {
        if (p.time_us > 0) continue;  // measured (--calibration)
        auto offsets = std::make_shared<const std::vector<std::uint64_t>>(
            models::spmv_uniform_offsets(models::spmv_benchmark_rows(sizes, p), p.nnz_per_row));
        std::shared_ptr<const workloads::SpmvWork> work;
        if (p.format == "csr") work = std::make_shared<const workloads::SpmvCsrWork>(offsets, threads, target->costs());
        else if (p.format == "ell")
            work = std::make_shared<const workloads::SpmvEllWork>(offsets, p.nnz_per_row, threads, target->costs());
        else work = std::make_shared<const workloads::SpmvCooWork>(offsets, threads, target->costs());
        workloads::Application app;
        workloads::KernelLaunch k = parsed.launch;
        k.name = "spmv-benchmark-" + p.format;
        k.grid = workloads::Dim3{static_cast<std::uint32_t>(work->blocks()), 1, 1};
        k.work = work;
        app.launches.push_back(k);
        p.time_us = simulated_us(gpu, app, o.execution);
    }
    const models::SpmvStripModel model(sizes, static_cast<std::uint64_t>(gpu.max_threads_per_block), points);
    const auto features = models::spmv_target_features(target->offsets());
    models::SpmvStripEstimate e;
    if (hyb) {
        const std::uint64_t rest =
            coo ? coo->nnz()
                : (parsed.then.empty() ? 0 : dynamic_cast<const workloads::SpmvWork&>(*parsed.then.front().work).nnz());
        e = model.hyb(features, ell ? ell->width() : 0, rest);
    } else if (ell) {
        e = model.ell(features);
    } else if (coo) {
        e = model.coo(features);
    } else {
        e = model.csr(features);
    }
    workloads::Application app;
    parsed.append_to(app.launches);
    const double sim_us = simulated_us(gpu, app, o.execution);
    const double diff = (e.time_us - sim_us) / sim_us * 100;
    if (o.json) {
        nlohmann::ordered_json j{{"model", "strip"}, {"gpu", gpu.name}, {"kernel", o.kernel}, {"execution", o.execution},
                                 {"strip_sizes", {{"csr", sizes.csr}, {"ell", sizes.ell}, {"coo", sizes.coo}}},
                                 {"rows", features.rows}, {"nnz", features.nnz}, {"strips", e.strips},
                                 {"nnz_per_row", e.nnz_per_row}, {"coo_strips", e.coo_strips},
                                 {"time_us", e.time_us}, {"simulated_us", sim_us}, {"difference_percent", diff},
                                 {"benchmarks", points.size()}};
        std::cout << j.dump(2) << "\n";
        return;
    }
    std::cout << "strip model (Guo & Wang) for " << o.kernel << " on " << gpu.name << ", calibrated on "
              << points.size()
              << (o.calibration.empty() ? " simulated benchmark matrices" : " measured benchmark matrices (" + o.calibration + ")")
              << " (exec " << o.execution << ")\n"
              << "  strip sizes   S_CSR " << sizes.csr << ", S_ELL " << sizes.ell << ", S_COO " << sizes.coo << "\n"
              << "  target        " << features.rows << " rows, " << features.nnz << " non-zeros, P_NZ "
              << fixed(e.nnz_per_row, 1) << ", " << e.strips << " strips"
              << (e.coo_strips > 0 ? ", COO part " + std::to_string(e.coo_strips) + " strips" : "") << "\n"
              << "  strip model   " << fixed(e.time_us, 3) << " us\n"
              << "  simulated     " << fixed(sim_us, 3) << " us (difference " << fixed(diff, 1) << "%)\n";
}

/// --rakes: "1,2,4" or "LO-HI" (every R in between), each in [1, points]; sorted, without repeats.
std::vector<std::uint64_t> parse_rakes(const std::string& text, std::uint64_t points) {
    const auto bad = [&]() -> std::vector<std::uint64_t> {
        throw InputError("--rakes: expected R,R,... or LO-HI with 1 <= R <= " + std::to_string(points) +
                         " (the points) and at most 10000 values, got '" + text + "'");
    };
    const auto number = [&](const std::string& item) {
        if (item.empty() || item.size() > 15 || item.find_first_not_of("0123456789") != std::string::npos) bad();
        const std::uint64_t v = std::stoull(item);
        if (v < 1 || v > points) bad();
        return v;
    };
    std::vector<std::uint64_t> out;
    if (const auto dash = text.find('-'); dash != std::string::npos) {
        const std::uint64_t lo = number(text.substr(0, dash)), hi = number(text.substr(dash + 1));
        if (lo > hi || hi - lo >= 10000) bad();
        for (std::uint64_t r = lo; r <= hi; ++r) out.push_back(r);
        return out;
    }
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        out.push_back(number(text.substr(start, comma - start)));
        start = comma + 1;
    }
    if (out.size() > 10000) bad();
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

/// The CDS paper's rake-size model (b from occupancy, a from the transfer model) for a streamcluster
/// spec, beside the simulated time of each R in --rakes (default: powers of two up to 2 max(a, b),
/// and a and b) and the simulated best R (the smallest R on ties).
void run_rake(const PredictOptions& options) {
    PredictOptions o = options;
    if (o.measured_ms || o.at || o.tau_us) throw InputError("--measured, --at and --tau-us do not apply to --model rake");
    const hw::GpuSpec gpu = hw::resolve_gpu(o.gpu);
    o.execution = scheduler::resolve_run_setup(gpu, {.execution = o.exec_flag}).execution;
    if (o.execution != "auto" && o.execution != "shared" && o.execution != "fixed")
        throw InputError("--exec: expected auto, shared or fixed, got '" + o.execution + "'");
    const workloads::KernelSpec spec = workloads::KernelSpec::parse(o.kernel, "--kernel");
    const workloads::SpecLaunches parsed = workloads::build_kernel_launches(spec);
    if (dynamic_cast<const workloads::StreamclusterWork*>(parsed.launch.work.get()) == nullptr)
        throw InputError("--kernel: --model rake needs a streamcluster kernel, got '" + parsed.launch.name + "'");
    o.execution = resolved_execution(o.execution, parsed);
    const models::RakeModelInputs in = models::rake_model_inputs(gpu, parsed.launch, o.delta);
    const models::RakeModelResult m = models::rake_model(in);
    std::vector<std::uint64_t> rakes;
    if (o.rakes_given) {
        rakes = parse_rakes(o.rakes, in.points);
    } else {
        const std::uint64_t top = std::min(in.points, 2 * std::max(m.a, m.b));
        for (std::uint64_t r = 1; r <= top; r *= 2) rakes.push_back(r);
        for (const std::uint64_t r : {m.a, m.b})
            if (r <= in.points) rakes.push_back(r);
        std::sort(rakes.begin(), rakes.end());
        rakes.erase(std::unique(rakes.begin(), rakes.end()), rakes.end());
    }
    struct Row {
        std::uint64_t rake = 0, blocks = 0;
        double kernel_us = 0, total_us = 0;
    };
    std::vector<Row> rows;
    std::size_t best = 0;
    for (const std::uint64_t r : rakes) {
        const workloads::KernelSpec with_rake = spec.with("rake", std::to_string(r));
        const workloads::Application app = workloads::build_application({with_rake});
        const workloads::Application kernels = workloads::build_application({with_rake.with("copy", "none")});
        rows.push_back({r, app.launches.front().blocks(), simulated_us(gpu, kernels, o.execution),
                        simulated_us(gpu, app, o.execution)});
        if (rows.back().total_us < rows[best].total_us) best = rows.size() - 1;
    }
    if (o.json) {
        nlohmann::ordered_json j{{"model", "rake"}, {"gpu", gpu.name}, {"kernel", o.kernel}, {"execution", o.execution},
                                 {"warps_per_sm", in.warps_per_sm}, {"b", m.b}, {"a_bound", m.a_bound}, {"a", m.a},
                                 {"needs_search", m.needs_search()}};
        j["model_rake"] = m.needs_search() ? nlohmann::ordered_json() : nlohmann::ordered_json(m.b);
        for (const auto& row : rows)
            j["simulated"].push_back({{"rake", row.rake}, {"blocks", row.blocks}, {"kernel_us", row.kernel_us},
                                      {"copies_us", row.total_us - row.kernel_us}, {"total_us", row.total_us}});
        j["simulated_best_rake"] = rows[best].rake;
        std::cout << j.dump(2) << "\n";
        return;
    }
    std::cout << "rake-size model (CDS paper) for " << o.kernel << " on " << gpu.name << " (exec " << o.execution << ")\n"
              << "  b = ceil(N / (MP x MW x 32)) = ceil(" << in.points << " / (" << in.sms << " x " << in.warps_per_sm
              << " x " << in.warp_size << ")) = " << m.b << "   (eq. 9, MW from occupancy)\n"
              << "  a: R >= 4 (K+1) N / (delta l n BW) = " << fixed(m.a_bound, 2) << ", a = " << m.a
              << "   (eq. 13, delta " << o.delta << ", l " << fixed(in.latency_s * 1e6, 3) << " us, n " << in.commands
              << ", BW " << fixed(in.bandwidth_bytes_per_s / 1e9, 2) << " GB/s)\n";
    if (m.needs_search())
        std::cout << "  model: a > b, the best R lies in [b, a] = [" << m.b << ", " << m.a << "]: searched by simulation\n";
    else
        std::cout << "  model: a <= b, best R = b = " << m.b << "\n";
    TextTable table({"R", "blocks", "kernel_us", "copies_us", "total_us", ""}, {true, true, true, true, true, false});
    for (std::size_t i = 0; i < rows.size(); ++i) {
        std::string mark = i == best ? "simulated best" : "";
        if (!m.needs_search() && rows[i].rake == m.b) mark += mark.empty() ? "model" : ", model";
        table.add_row({std::to_string(rows[i].rake), std::to_string(rows[i].blocks), fixed(rows[i].kernel_us, 3),
                       fixed(rows[i].total_us - rows[i].kernel_us, 3), fixed(rows[i].total_us, 3), mark});
    }
    table.print(std::cout);
    std::cout << "simulated best R = " << rows[best].rake << " (" << fixed(rows[best].total_us, 3) << " us)\n";
}

void run_predict(const PredictOptions& o) {
    if (!o.calibration.empty() && o.model != "strip" && o.model != "interval")
        throw InputError("--calibration applies to --model strip and interval only");
    if ((!o.rakes.empty() || o.delta != 0.01) && o.model != "rake")
        throw InputError("--rakes and --delta apply to --model rake only");
    if (o.model == "compute-bound") return run_compute_bound(o);
    if (o.model == "strip") return run_strip(o);
    if (o.model == "rake") return run_rake(o);
    if (o.model != "interval")
        throw InputError("--model: unknown model '" + o.model + "' (known: interval, compute-bound, strip, rake)");
    if (o.measured_ms.has_value() != o.at.has_value())
        throw InputError("--measured and --at go together: the measured time (ms) of the kernel at n = --at");
    if (o.measured_ms && !(*o.measured_ms > 0 && *o.measured_ms <= 1e9))
        throw InputError("--measured: expected a positive, finite time in ms (at most 1e9), got " +
                         std::to_string(*o.measured_ms));
    const hw::GpuSpec gpu = hw::resolve_gpu(o.gpu);
    const workloads::KernelSpec spec = workloads::KernelSpec::parse(o.kernel, "--kernel");
    const IntervalPrediction p = predict(gpu, spec);
    std::optional<double> factor;
    std::optional<double> fitted_launch_us;  // per-launch time of a `gpusched calibrate interval` file
    if (!o.calibration.empty()) {
        if (o.measured_ms) throw InputError("--calibration and --measured are alternatives: give one of them");
        const calibrate::Calibration c = calibrate::load_calibration(o.calibration);
        if (!c.interval) throw InputError(o.calibration + ": no 'interval' section (write one with gpusched calibrate interval)");
        if (c.kernel != spec.name())
            throw InputError(o.calibration + ": calibrated for kernel '" + c.kernel + "', not '" + spec.name() + "'");
        factor = c.interval->f;
        fitted_launch_us = c.interval->launch_us;
    }
    if (o.measured_ms) {
        if (!spec.has("n")) throw InputError("--at: the --kernel spec has no 'n=' to replace");
        const IntervalPrediction at = [&] {
            try {
                return predict(gpu, spec.with("n", std::to_string(*o.at)));
            } catch (const InputError& e) {
                throw InputError("--at " + std::to_string(*o.at) + ": the kernel at n = --at: " + e.what());
            }
        }();
        factor = models::interval_calibration_factor(*o.measured_ms * 1000.0, at.app_us(at.warps.min),
                                                        at.app_us(at.warps.sorted), at.app_us(at.warps.full),
                                                        at.app_us(at.warps.buckets));
    }
    // f x T' (T_launch included), or with a fitted per-launch time: launches x launch_us + f x (T' - T_launch part).
    const auto calibrated = [&](std::uint64_t w) {
        if (!fitted_launch_us) return *factor * p.app_us(w);
        const double launches = static_cast<double>(p.launches);
        return launches * *fitted_launch_us + *factor * (p.app_us(w) - launches * p.launch_us);
    };
    const std::pair<const char*, std::uint64_t> rows[] = {
        {"Min", p.warps.min}, {"Sorted", p.warps.sorted}, {"Full", p.warps.full}, {"Buckets", p.warps.buckets}};
    if (o.json) {
        nlohmann::ordered_json j;
        j["model"] = "interval";
        j["gpu"] = gpu.name;
        j["kernel"] = o.kernel;
        j["launches"] = p.launches;
        j["warp_us"] = p.warp_us;
        if (factor) j["calibration_factor"] = *factor;
        if (fitted_launch_us) j["calibrated_launch_us"] = *fitted_launch_us;
        for (const auto& [name, w] : rows) {
            auto& e = j["predictions"][name];
            e["warps_per_sm"] = w;
            e["time_us"] = p.app_us(w);
            if (factor) e["calibrated_time_us"] = calibrated(w);
        }
        std::cout << j.dump(2) << "\n";
        return;
    }
    std::cout << "interval model (Min / Sorted / Full / Buckets) for " << o.kernel << " on " << gpu.name << ": "
              << p.launches << " launches, T_warp x 32/cores = " << fixed(p.warp_us * 1000.0, 3) << " ns, T_launch = "
              << fixed(p.launch_us, 3) << " us\n";
    std::vector<std::string> headers = {"model", "warps/SM", "time_us"};
    if (factor) headers.push_back("calibrated_us");
    TextTable table(headers, {false, true, true, true});
    for (const auto& [name, w] : rows) {
        std::vector<std::string> cells = {name, std::to_string(w), fixed(p.app_us(w), 3)};
        if (factor) cells.push_back(fixed(calibrated(w), 3));
        table.add_row(cells);
    }
    table.print(std::cout);
    if (factor && o.measured_ms)
        std::cout << "calibration factor f = " << fixed(*factor, 6) << " (from " << *o.measured_ms << " ms at n = " << *o.at << ")\n";
    if (factor && !o.measured_ms)
        std::cout << "calibration factor f = " << fixed(*factor, 6)
                  << (fitted_launch_us ? ", per-launch time " + fixed(*fitted_launch_us, 3) + " us" : std::string())
                  << " (from " << o.calibration << ")\n";
}

}  // namespace

void add_predict_command(CLI::App& app) {
    auto o = std::make_shared<PredictOptions>();
    auto* cmd = app.add_subcommand("predict", "Closed-form predictions of the source papers' models");
    cmd->footer("Examples (docs/scheduling.md, docs/calibration.md):\n"
                "  gpusched predict --model interval --gpu c2075 --kernel apsp-minplus:n=121,block=8\n"
                "  gpusched predict --model interval --kernel apsp-minplus:n=1000,block=16 --measured 20.5 --at 1000\n"
                "  gpusched predict --model compute-bound --gpu h100 --kernel binomial-series:blocks=264,threads=256 --json");
    cmd->add_option("--model", o->model,
                    "Closed-form model: interval (APSP paper: Min/Sorted/Full/Buckets) or compute-bound "
                    "(series paper: xi_rb, xi_rw, kappa) or strip (SpMV paper, calibrated on simulated benchmark "
                    "matrices) or rake (CDS paper: streamcluster's rake size from occupancy and transfers, with the "
                    "simulated best R)")
        ->capture_default_str();
    cmd->add_option("--gpu", o->gpu, "Preset name or GPU YAML file")->capture_default_str();
    cmd->add_option("--kernel", o->kernel, "Kernel spec with per-warp work, e.g. apsp-minplus:n=500,block=16")->required();
    cmd->add_option("--measured", o->measured_ms, "Measured time (ms) at n = --at, for the calibration factor f");
    cmd->add_option("--at", o->at, "Problem size n of the --measured time");
    cmd->add_option("--tau-us", o->tau_us, "compute-bound: ideal execution time tau in us (default: a lone warp's time)");
    cmd->add_option("--calibration", o->calibration,
                    "strip: measured benchmark times, CSV format,strips,nnz_per_row,time_us (default: simulate them); "
                    "interval: a YAML of gpusched calibrate interval (f and the per-launch time)");
    cmd->add_option("--delta", o->delta, "rake: threshold delta of eq. 10 (the paper's 1%)")->capture_default_str();
    cmd->add_option("--rakes", o->rakes, "rake: R values to simulate, R,R,... or LO-HI (default: powers of two and a, b)")
        ->each([o](const std::string&) { o->rakes_given = true; });
    cmd->add_option("--exec", o->exec_flag, exec_flag_help("strip, rake: "));
    cmd->add_flag("--json", o->json, "Print one JSON object");
    cmd->callback([o] {
        naming_keys({{"gpu", "--gpu"}, {"kernel", "--kernel"}, {"exec", "--exec"}, {"delta", "--delta"}},
                    [&] { run_predict(*o); });
    });
}

}  // namespace gpusched::cli

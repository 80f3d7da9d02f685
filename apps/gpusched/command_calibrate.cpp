// `gpusched calibrate series|interval`: fits work-model keys or the interval model's f to measured data, cross-validated.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include <unistd.h>

#include "commands.h"
#include "execution_flag.h"
#include "policy_flag.h"
#include "output_file.h"
#include "run_progress.h"
#include "gpusched/calibrate/calibration_file.h"
#include "gpusched/calibrate/interval_calibration.h"
#include "gpusched/calibrate/key_fit.h"
#include "gpusched/calibrate/series_calibration.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/sim/execution/execution_model.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/key_error.h"
#include "gpusched/support/yaml_fields.h"
#include "gpusched/scheduler/run_setup.h"
#include "gpusched/workloads/kernel_spec_value.h"
#include "table.h"

namespace gpusched::cli {

namespace {

struct CalibrateOptions {
    std::string data;
    std::string gpu = "h100";
    std::optional<std::string> policy_flag;  ///< --policy, when given
    std::string policy;                      ///< the policy run: scheduler::resolve_run_setup of policy_flag on the GPU
    std::string out;
    bool points = false;
    std::int64_t extrapolate_blocks = 660;  ///< signed so that -1 is refused, not wrapped
    bool extrapolate_blocks_given = false;  ///< a given value that splits nothing is an error (the default is skipped)
    std::string kernel = "apsp-minplus";
    std::string algorithm = "minplus";
    std::vector<int> blocks;
    std::string method = "factor-launch";
    std::int64_t extrapolate_n = 140;
    bool extrapolate_n_given = false;  ///< given by the user: a value that splits nothing is an error (the default is skipped)
    std::size_t folds = 5;
    std::string key;
    std::string range = "0:1000";
    std::string time_column = "median_ms";
    std::string group;
    std::optional<std::int64_t> extrapolate;
    std::optional<std::string> exec_flag;  ///< key: --exec, when given
};

std::string stats_cells(const calibrate::ErrorStats& s) {
    return fixed(s.median_abs, 1) + " / " + fixed(s.max_abs, 1) + " / " + fixed(s.rms, 1);
}

/// Writes the calibration to `path` (never over one of `inputs`).
void write_file(const std::string& path, const calibrate::Calibration& c, const std::vector<std::string>& inputs) {
    OutputFile out(path, "--out", inputs);
    calibrate::write_calibration(out.stream(), c);
    out.commit();
    std::cout << "wrote " << path << "\n";
}

void run_series(const CalibrateOptions& given) {
    check_not_an_input(given.out, "--out", {given.data, given.gpu});  // before the fit, not after it
    const hw::GpuSpec gpu = hw::resolve_gpu(given.gpu);
    CalibrateOptions o = given;
    o.policy = scheduler::resolve_run_setup(gpu, {.policy = o.policy_flag}).policy_name;
    calibrate::SeriesSimulator sim(gpu, o.policy, calibrate::read_series_measurements(o.data));
    StepProgress progress(std::cerr, isatty(STDERR_FILENO) != 0, "calibrate series");
    sim.on_simulation([&progress](std::size_t n) { progress.update("simulation " + std::to_string(n)); });
    if (sim.points().size() < 2)
        throw InputError(o.data + ": " + std::to_string(sim.points().size()) +
                         " measured point(s); fitting instr_per_term and term_latency_cycles needs at least 2");
    if (o.extrapolate_blocks < 1)
        throw InputError("--extrapolate-blocks " + std::to_string(o.extrapolate_blocks) + ": expected a block count >= 1");
    if (o.extrapolate_blocks_given) {
        const auto [low, high] = std::minmax_element(sim.points().begin(), sim.points().end(),
                                                     [](const auto& a, const auto& b) { return a.blocks < b.blocks; });
        if (static_cast<std::uint64_t>(o.extrapolate_blocks) < low->blocks ||
            static_cast<std::uint64_t>(o.extrapolate_blocks) >= high->blocks)
            throw InputError("--extrapolate-blocks " + std::to_string(o.extrapolate_blocks) +
                             ": splits nothing (the measured grids are " + std::to_string(low->blocks) + ".." +
                             std::to_string(high->blocks) + " blocks; fit on blocks <= it needs points on both sides)");
    }
    const calibrate::SeriesCalibration c =
        calibrate::calibrate_series(sim, static_cast<std::uint64_t>(o.extrapolate_blocks));
    progress.finish();
    const auto& p = c.fit.params;
    std::cout << "binomial-series on " << gpu.name << " (" << o.policy << ", exec shared), " << sim.points().size()
              << " measured points of " << o.data << "\n"
              << "  instr_per_term       " << fixed(p.instr_per_term, 4) << "  (issue slots per term)\n"
              << "  term_latency_cycles  " << fixed(p.term_latency_cycles, 4) << "  (latency floor per term)\n"
              << "  in-sample |error| %  median / max / rms  " << stats_cells(c.in_sample) << "\n\n"
              << "cross-validation (fit on train, full simulation of the held-out points):\n";
    TextTable t({"scheme / split", "train", "test", "instr_per_term", "term_latency_cycles", "held-out |err| % med/max/rms"},
                {false, true, true, true, true, true});
    for (const auto& scheme : c.schemes) {
        for (const auto& s : scheme.splits)
            t.add_row({"  " + s.split.name, std::to_string(s.split.train.size()), std::to_string(s.split.test.size()),
                       fixed(s.fit.params.instr_per_term, 3), fixed(s.fit.params.term_latency_cycles, 3),
                       stats_cells(s.held_out)});
        t.add_row({scheme.name + ": pooled", "", std::to_string(scheme.pooled.count), "", "", stats_cells(scheme.pooled)});
    }
    t.print(std::cout);
    if (o.points) {
        std::cout << "\nper point (fit on all points):\n";
        TextTable pt({"blocks", "threads", "measured_us", "simulated_us", "error_%"}, {true, true, true, true, true});
        for (std::size_t i = 0; i < sim.points().size(); ++i)
            pt.add_row({std::to_string(sim.points()[i].blocks), std::to_string(sim.points()[i].threads),
                        fixed(sim.points()[i].measured_us, 2), fixed(c.simulated_us[i], 2),
                        fixed(c.errors_percent[i], 1)});
        pt.print(std::cout);
    }
    std::cout << "(" << sim.simulations() << " simulations)\n";
    if (o.out.empty()) return;
    calibrate::Calibration cal;
    cal.kernel = "binomial-series";
    cal.keys = {{"instr_per_term", p.instr_per_term}, {"term_latency_cycles", p.term_latency_cycles}};
    cal.notes = {"gpusched calibrate series --data " + o.data + " --gpu " + gpu.name + " --policy " + o.policy,
                 std::to_string(sim.points().size()) + " points; in-sample |error| % median " +
                     fixed(c.in_sample.median_abs, 1) + ", max " + fixed(c.in_sample.max_abs, 1)};
    for (const auto& scheme : c.schemes)
        cal.notes.push_back("held out, " + scheme.name + ": |error| % median " + fixed(scheme.pooled.median_abs, 1) +
                            ", max " + fixed(scheme.pooled.max_abs, 1));
    cal.notes.push_back("use: gpusched simulate --calibration FILE --kernel binomial-series:blocks=B,threads=T");
    write_file(o.out, cal, {o.data, o.gpu});
}

calibrate::IntervalMethod parse_method(const std::string& name) {
    if (name == "one-point") return calibrate::IntervalMethod::one_point;
    if (name == "factor") return calibrate::IntervalMethod::factor;
    if (name == "factor-launch") return calibrate::IntervalMethod::factor_launch;
    throw InputError("--method: expected one-point, factor or factor-launch, got '" + name + "'");
}

void run_interval(const CalibrateOptions& o) {
    check_not_an_input(o.out, "--out", {o.data, o.gpu});  // before the fit, not after it
    const calibrate::IntervalMethod chosen = parse_method(o.method);
    const hw::GpuSpec gpu = hw::resolve_gpu(o.gpu);
    std::vector<calibrate::ApspMeasurement> measured;
    for (const auto& m : calibrate::read_apsp_measurements(o.data, o.algorithm))
        if (o.blocks.empty() || std::find(o.blocks.begin(), o.blocks.end(), m.block) != o.blocks.end())
            measured.push_back(m);
    if (measured.empty()) throw InputError("--block: no measured rows with these block sizes in " + o.data);
    if (o.folds > measured.size())
        throw InputError("--folds " + std::to_string(o.folds) + ": more folds than measured points (" +
                         std::to_string(measured.size()) + " in " + o.data + ")");
    if (o.extrapolate_n_given) {
        const auto [low, high] = std::minmax_element(measured.begin(), measured.end(),
                                                     [](const auto& a, const auto& b) { return a.n < b.n; });
        if (o.extrapolate_n < low->n || o.extrapolate_n >= high->n)
            throw InputError("--extrapolate-n " + std::to_string(o.extrapolate_n) + ": splits nothing (the measured n are " +
                             std::to_string(low->n) + ".." + std::to_string(high->n) + "; fit on n <= it needs points on both sides)");
    }
    const calibrate::IntervalCalibration c =
        calibrate::calibrate_interval(gpu, workloads::KernelSpec::parse(o.kernel, "--kernel"), measured, o.extrapolate_n, o.folds);
    std::cout << "interval model (mean of Min, Sorted, Full, Buckets) for " << o.kernel << " on " << gpu.name << ", "
              << measured.size() << " measured points (" << o.algorithm << ") of " << o.data << "\n";
    TextTable t({"method", "f", "launch_us", "in-sample |err| % med/max/rms", "scheme", "held-out |err| % med/max/rms"},
                {false, true, true, true, false, true});
    for (const auto& m : c.methods) {
        const bool launch = m.method == calibrate::IntervalMethod::factor_launch;
        bool first = true;
        for (const auto& s : m.schemes) {
            t.add_row({first ? calibrate::interval_method_name(m.method) : "", first ? fixed(m.factor.f, 4) : "",
                       first && launch ? fixed(*m.factor.launch_us, 3) : "", first ? stats_cells(m.in_sample) : "",
                       s.name, stats_cells(s.pooled)});
            first = false;
        }
        if (first)
            t.add_row({calibrate::interval_method_name(m.method), fixed(m.factor.f, 4),
                       launch ? fixed(*m.factor.launch_us, 3) : "", stats_cells(m.in_sample), "", ""});
    }
    t.print(std::cout);
    if (o.out.empty()) return;
    const auto& r = c.methods.at(static_cast<std::size_t>(chosen));
    calibrate::Calibration cal;
    cal.kernel = workloads::KernelSpec::name_of(o.kernel);
    cal.interval = r.factor;
    std::string block_flags;
    for (const int b : o.blocks) block_flags += " --block " + std::to_string(b);
    cal.notes = {"gpusched calibrate interval --data " + o.data + " --kernel " + o.kernel + block_flags + " --gpu " +
                     gpu.name + " --method " + o.method,
                 std::string(calibrate::interval_method_name(chosen)) + " on " + std::to_string(measured.size()) +
                     " points; in-sample |error| % median " + fixed(r.in_sample.median_abs, 1) + ", max " +
                     fixed(r.in_sample.max_abs, 1)};
    for (const auto& s : r.schemes)
        cal.notes.push_back("held out, " + s.name + ": |error| % median " + fixed(s.pooled.median_abs, 1) + ", max " +
                            fixed(s.pooled.max_abs, 1));
    cal.notes.push_back(r.factor.launch_us ? "T = launches x launch_us + f x (closed form without T_launch)"
                                           : "T = f x (closed form with T_launch)");
    const workloads::KernelSpec usage = workloads::KernelSpec::parse(o.kernel, "--kernel").with("n", "N");
    cal.notes.push_back("use: gpusched predict --model interval --calibration FILE --kernel " +
                        usage.with("block", "BS").to_string());
    write_file(o.out, cal, {o.data, o.gpu});
}

void run_key(const CalibrateOptions& o) {
    check_not_an_input(o.out, "--out", {o.data, o.gpu});  // before the fit, not after it
    calibrate::KeyFitOptions options;
    const auto colon = o.range.find(':');
    const auto lo = colon == std::string::npos ? std::nullopt : parse_number(o.range.substr(0, colon));
    const auto hi = colon == std::string::npos ? std::nullopt : parse_number(o.range.substr(colon + 1));
    if (!lo || !hi || !(*hi > *lo)) throw InputError("--range: expected LO:HI with LO < HI, got '" + o.range + "'");
    options.lo = *lo;
    options.hi = *hi;
    if (o.extrapolate && o.group.empty()) throw InputError("--extrapolate needs --group (the column it splits on)");
    const hw::GpuSpec gpu = hw::resolve_gpu(o.gpu);
    const scheduler::RunSetup setup = scheduler::resolve_run_setup(gpu, {.policy = o.policy_flag, .execution = o.exec_flag});
    const std::string& execution = setup.execution;
    const std::string& policy = setup.policy_name;
    calibrate::KeySimulator sim(gpu, policy, execution, o.key,
                                calibrate::read_key_measurements(o.data, o.kernel, o.time_column, o.group), "--kernel");
    StepProgress progress(std::cerr, isatty(STDERR_FILENO) != 0, "calibrate key");
    sim.on_simulation([&progress](std::size_t n) { progress.update("simulation " + std::to_string(n)); });
    const calibrate::KeyCalibration c = calibrate::calibrate_key(sim, options, o.extrapolate);
    progress.finish();
    std::cout << o.key << " of " << o.kernel << " on " << gpu.name << " (" << policy << ", exec " << execution
              << "), " << sim.rows().size() << " measured rows of " << o.data << " (" << o.time_column << ")\n"
              << "  " << o.key << " = " << fixed(c.fit.value, 4) << " (searched " << o.range << ")\n"
              << "  in-sample |error| %      median / max / rms  " << stats_cells(c.in_sample) << "\n"
              << "  held out, leave one out  median / max / rms  " << stats_cells(c.leave_one_out) << "\n";
    if (c.extrapolation)
        std::cout << "  held out, " << o.group << " <= " << *o.extrapolate << " -> larger (fit " << o.key << " = "
                  << fixed(c.extrapolation_fit.value, 4) << " on " << c.extrapolation->train.size() << " rows): "
                  << stats_cells(c.extrapolation_held_out) << "\n";
    TextTable t({"row", "spec", "measured_us", "simulated_us", "error_%"}, {true, false, true, true, true});
    for (std::size_t i = 0; i < sim.rows().size(); ++i)
        t.add_row({std::to_string(i + 1), sim.rows()[i].spec, fixed(sim.rows()[i].measured_us, 2),
                   fixed(c.simulated_us[i], 2), fixed(c.errors_percent[i], 1)});
    t.print(std::cout);
    if (o.out.empty()) return;
    calibrate::Calibration cal;
    cal.kernel = workloads::KernelSpec::name_of(o.kernel);
    cal.keys = {{o.key, c.fit.value}};
    cal.notes = {"gpusched calibrate key --data " + o.data + " --kernel '" + o.kernel + "' --key " + o.key +
                     " --time-column " + o.time_column + " --gpu " + gpu.name,
                 std::to_string(sim.rows().size()) + " rows; in-sample |error| % median " +
                     fixed(c.in_sample.median_abs, 1) + ", held out (leave one out) median " +
                     fixed(c.leave_one_out.median_abs, 1) + ", max " + fixed(c.leave_one_out.max_abs, 1)};
    std::ostringstream text;
    calibrate::write_calibration(text, cal);
    (void)calibrate::parse_calibration(text.str(), "--out " + o.out);  // only generator keys can be defaults
    write_file(o.out, cal, {o.data, o.gpu});
}

}  // namespace

void add_calibrate_command(CLI::App& app) {
    auto o = std::make_shared<CalibrateOptions>();
    const KeyNames flags = {
        {"gpu", "--gpu"}, {"policy", "--policy"}, {"exec", "--exec"}, {"kernel", "--kernel"}, {"range", "--range"}, {"key", "--key"}};
    auto* cmd = app.add_subcommand("calibrate", "Fit work-model keys or the interval model's f to measured run times");
    cmd->require_subcommand(1);
    cmd->footer("Schema, method and the H100 numbers: docs/calibration.md\n"
                "Examples:\n"
                "  gpusched calibrate series --data examples/binomial-series-4-points.csv --out binomial.calibration.yaml\n"
                "  gpusched calibrate interval --data validation/data/h100/curves/apsp_minplus.csv --block 16 --out f.yaml");
    auto* series = cmd->add_subcommand("series", "binomial-series: fit instr_per_term and term_latency_cycles");
    auto* interval = cmd->add_subcommand("interval", "APSP: fit the interval paper's factor f (and a per-launch time)");
    auto* key = cmd->add_subcommand("key", "Any generator key (e.g. a latency floor): 1-D search over simulations");
    series->footer("Examples (docs/calibration.md):\n"
                   "  gpusched calibrate series --data examples/binomial-series-4-points.csv --points\n"
                   "  gpusched calibrate series --data examples/binomial-series-4-points.csv --out binomial.calibration.yaml\n"
                   "(the H100's whole measured series, 60 points, about half a minute: --data validation/data/h100/curves/binomial.csv)");
    interval->footer("Examples (docs/calibration.md):\n"
                     "  gpusched calibrate interval --data examples/apsp-minplus-few-points.csv\n"
                     "  gpusched calibrate interval --data validation/data/h100/curves/apsp_minplus.csv --block 16 \\\n"
                     "                              --method factor-launch --out f.yaml");
    key->footer("Examples (docs/calibration.md):\n"
                "  gpusched calibrate key --data validation/data/h100/streamcluster/runs.csv \\\n"
                "      --kernel 'streamcluster:points={points},dims={dim},centers={centers},rake={rake},threads={threads},"
                "regs=40,copy=none' \\\n"
                "      --key dim_latency_cycles --range 0:400 --time-column kernel_median_ms --out streamcluster.calibration.yaml");
    for (auto* sub : {series, interval, key}) {
        sub->add_option("--data", o->data, "Measured CSV (the runner's binomial.csv or apsp_minplus.csv)")->required();
        sub->add_option("--gpu", o->gpu, "Preset name or GPU YAML file")->capture_default_str();
        sub->add_option("--out", o->out, "Write the calibration YAML here (simulate/predict --calibration)");
    }
    series->add_option("--policy", o->policy_flag, policy_flag_help("Dispatch policy of the simulations"));
    series->add_option("--extrapolate-blocks", o->extrapolate_blocks,
                       "Extrapolation split: fit on blocks <= this, predict the larger grids")
        ->capture_default_str()
        ->each([o](const std::string&) { o->extrapolate_blocks_given = true; });
    series->add_flag("--points", o->points, "Print every point's measured and simulated time");
    series->callback([o, flags] { naming_keys(flags, [&] { run_series(*o); }); });
    interval->add_option("--kernel", o->kernel, "Spec without n and block, e.g. apsp-minplus:regs=32")
        ->capture_default_str();
    interval->add_option("--algorithm", o->algorithm, "Rows of this 'algorithm' column value")->capture_default_str();
    interval->add_option("--block", o->blocks, "Only these block sizes (repeat; default all)");
    interval->add_option("--method", o->method, "What --out holds: one-point, factor or factor-launch")
        ->capture_default_str();
    interval->add_option("--extrapolate-n", o->extrapolate_n, "Extrapolation split: fit on n <= this")
        ->capture_default_str()
        ->each([o](const std::string&) { o->extrapolate_n_given = true; });
    interval->add_option("--folds", o->folds, "Interleaved folds by n (2 to 100)")->type_name("N")->capture_default_str()->check(CLI::Range(2, 100).description(""));
    interval->callback([o, flags] { naming_keys(flags, [&] { run_interval(*o); }); });
    key->add_option("--kernel", o->kernel, "Spec template; {column} is replaced by each row's cell")->required();
    key->add_option("--key", o->key, "The generator key to fit, e.g. dim_latency_cycles")->required();
    key->add_option("--range", o->range, "Search interval LO:HI")->capture_default_str();
    key->add_option("--time-column", o->time_column, "Measured time column, ms")->capture_default_str();
    key->add_option("--group", o->group, "Integer column for --extrapolate");
    key->add_option("--extrapolate", o->extrapolate, "Also fit on rows with --group <= this, predict the rest");
    key->add_option("--policy", o->policy_flag, policy_flag_help("Dispatch policy of the simulations"));
    key->add_option("--exec", o->exec_flag, exec_flag_help());
    key->callback([o, flags] { naming_keys(flags, [&] { run_key(*o); }); });
}

}  // namespace gpusched::cli

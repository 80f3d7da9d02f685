// `gpusched curve`: sweeps n of an APSP kernel spec; simulated makespan and the interval paper's closed forms per n.
#include <charconv>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "commands.h"
#include "execution_flag.h"
#include "policy_flag.h"
#include "gpu_what_if.h"
#include "output_file.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/key_error.h"
#include "gpusched/charts/line_chart.h"
#include "gpusched/charts/time_unit.h"
#include "gpusched/models/interval_model.h"
#include "gpusched/scheduler/run_setup.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/sim/output/summary_collector.h"
#include "gpusched/workloads/cycle_latency.h"
#include "gpusched/workloads/kernel_spec.h"
#include "table.h"

namespace gpusched::cli {

namespace {

/// Most points one sweep may have.
constexpr std::int64_t kMaxCurvePoints = 100000;
/// Jumps of one kind (launches, blocks) are marked in the SVG only up to this many; beyond
/// that they happen at nearly every n (apsp-fw's launches) and marks would hide the curves.
constexpr std::size_t kMaxMarkedJumps = 20;

struct CurveOptions {
    std::string gpu = "h100";
    GpuWhatIf what_if;  ///< --sms, --set
    std::string kernel;
    std::string range;
    std::int64_t step = 1;
    std::optional<std::string> policy_flag;  ///< --policy, when given
    std::string policy;                      ///< the policy run: scheduler::resolve_run_setup of policy_flag on the GPU
    std::optional<std::string> exec_flag;  ///< --exec, when given
    std::string execution;                 ///< the model run: scheduler::resolve_run_setup of exec_flag on the GPU, then auto resolved
    bool models = false;
    std::string csv;
    std::string svg;
};

/// The interval paper's four predictions for one spec, in microseconds.
struct ModelTimes {
    double min = 0, sorted = 0, full = 0, buckets = 0;
};

struct CurvePoint {
    std::int64_t n = 0;
    std::uint64_t launches = 0;
    std::uint64_t blocks = 0;  ///< per launch
    Time makespan = 0;
    std::optional<ModelTimes> models;
};

std::optional<std::int64_t> parse_integer(const std::string& text) {
    std::int64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc{} || ptr != end) return std::nullopt;
    return value;
}

/// "FIRST..LAST" (or one integer N, i.e. N..N) with 2 <= FIRST <= LAST.
std::pair<std::int64_t, std::int64_t> parse_range(const std::string& text) {
    const std::string expected = "--n: expected FIRST..LAST (integers, e.g. 50..100) or one integer, got '" + text + "'";
    const auto dots = text.find("..");
    std::optional<std::int64_t> first, last;
    if (dots == std::string::npos) {
        first = last = parse_integer(text);
    } else {
        first = parse_integer(text.substr(0, dots));
        last = parse_integer(text.substr(dots + 2));
    }
    if (!first || !last) throw InputError(expected);
    if (*first < 2) throw InputError("--n: sizes start at n = 2, got " + std::to_string(*first));
    if (*last < *first)
        throw InputError("--n: empty range " + text + " (FIRST..LAST needs FIRST <= LAST)");
    return {*first, *last};
}

/// The --kernel spec, after checking that it is an APSP kernel without n=.
workloads::KernelSpec check_kernel(const std::string& text) {
    const std::string name = workloads::KernelSpec::name_of(text);
    if (name != "apsp-minplus" && name != "apsp-fw")
        throw InputError("--kernel: curve sweeps n of apsp-minplus or apsp-fw, got kernel '" + name + "'");
    workloads::KernelSpec spec = workloads::KernelSpec::parse(text, "--kernel");
    if (spec.has("n")) throw InputError("--kernel: leave n= out of the spec; --n gives the sizes to sweep");
    return spec;
}

workloads::KernelSpec spec_at(const workloads::KernelSpec& spec, std::int64_t n) {
    return spec.with("n", std::to_string(n));
}

/// The interval model exactly as `gpusched predict --model interval` computes it
/// (command_predict.cpp): models::interval_warps_per_sm for #WarpsPerSM, one warp's SM
/// time W / (C f), T_launch from the GPU, times the spec's launches.
ModelTimes interval_times(const hw::GpuSpec& gpu, const workloads::KernelSpec& spec) {
    const workloads::SpecLaunches parsed = workloads::build_kernel_launches(spec);
    const workloads::KernelLaunch& k = parsed.launch;
    const hw::OccupancyResult occ = hw::compute_occupancy(gpu, k.occupancy_request());
    if (!gpu.clock_mhz) throw InputError("--models: --gpu " + gpu.name + " has no execution.clock_mhz");
    const auto work = workloads::warp_work_at_clock(*k.work, 0, *gpu.clock_mhz);
    if (!work) throw InputError("--kernel: '" + k.name + "' gives no per-warp work; --models needs it");
    const int warps = occ.warps_per_block;
    const models::IntervalKernel ik{k.blocks(), gpu.sm_count, occ.blocks_per_sm, warps,
                                       [&](std::uint64_t b) { return k.work->active_warps(b, warps); }};
    const models::WarpsPerSm w = models::interval_warps_per_sm(ik);
    const double warp_us = work->issue_slots / (gpu.issue_slots_per_cycle() * *gpu.clock_mhz);
    const double launch_us = gpu.launch_to_first_block_ns() / 1000.0;
    const auto app_us = [&](std::uint64_t warps_per_sm) {
        return static_cast<double>(parsed.count) * (launch_us + warp_us * static_cast<double>(warps_per_sm));
    };
    return {app_us(w.min), app_us(w.sorted), app_us(w.full), app_us(w.buckets)};
}

CurvePoint run_point(const hw::GpuSpec& gpu, const sim::DispatchPolicy& policy, const CurveOptions& o,
                     const workloads::KernelSpec& kernel, std::int64_t n) {
    const workloads::KernelSpec spec = spec_at(kernel, n);
    const workloads::Application app = workloads::build_application({spec});
    sim::Simulation simulation(gpu, app, policy, o.execution);
    sim::SummaryCollector summary;
    simulation.observe(summary);
    simulation.run();
    CurvePoint p;
    p.n = n;
    p.launches = app.launches.size();
    p.blocks = app.launches.front().blocks();
    p.makespan = summary.summary().makespan;
    if (o.models) p.models = interval_times(gpu, spec);
    return p;
}

/// Picoseconds as microseconds with three decimals, rounded to the nearest nanosecond.
std::string us_text(Time ps) {
    const Time ns = (ps + kPicosecondsPerNanosecond / 2) / kPicosecondsPerNanosecond;
    std::string frac = std::to_string(ns % 1000);
    return std::to_string(ns / 1000) + "." + std::string(3 - frac.size(), '0') + frac;
}

std::vector<std::string> row_cells(const CurvePoint& p, bool models) {
    std::vector<std::string> cells = {std::to_string(p.n), std::to_string(p.launches), std::to_string(p.blocks),
                                      us_text(p.makespan)};
    if (models) {
        const ModelTimes m = p.models.value_or(ModelTimes{});
        for (const double t : {m.min, m.sorted, m.full, m.buckets}) cells.push_back(fixed(t, 3));
    }
    return cells;
}

void write_csv(std::ostream& out, const std::vector<CurvePoint>& points, bool models) {
    out << "n,launches,blocks,simulated_us,min_us,sorted_us,full_us,buckets_us\n";
    for (const CurvePoint& p : points) {
        const auto cells = row_cells(p, models);
        for (std::size_t c = 0; c < 8; ++c) out << (c ? "," : "") << (c < cells.size() ? cells[c] : "");
        out << "\n";
    }
}

/// Vertical markers between consecutive points where the launches or the blocks per launch change.
std::vector<charts::VerticalMarker> jump_markers(const std::vector<CurvePoint>& points) {
    std::size_t launch_jumps = 0, block_jumps = 0;
    for (std::size_t i = 1; i < points.size(); ++i) {
        launch_jumps += points[i].launches != points[i - 1].launches;
        block_jumps += points[i].blocks != points[i - 1].blocks;
    }
    std::vector<charts::VerticalMarker> markers;
    for (std::size_t i = 1; i < points.size(); ++i) {
        const CurvePoint& a = points[i - 1];
        const CurvePoint& b = points[i];
        std::string what;
        if (a.launches != b.launches && launch_jumps <= kMaxMarkedJumps)
            what = "launches " + std::to_string(a.launches) + "->" + std::to_string(b.launches);
        if (a.blocks != b.blocks && block_jumps <= kMaxMarkedJumps)
            what += (what.empty() ? "" : ", ") + std::string("blocks ") + std::to_string(a.blocks) + "->" +
                    std::to_string(b.blocks);
        if (!what.empty())
            markers.push_back({static_cast<double>(a.n + b.n) / 2, "n=" + std::to_string(b.n) + ": " + what});
    }
    return markers;
}

std::string curve_svg(const std::vector<CurvePoint>& points, const CurveOptions& o, const hw::GpuSpec& gpu) {
    double top_us = 0;
    for (const CurvePoint& p : points) top_us = std::max(top_us, static_cast<double>(p.makespan) / 1e6);
    const charts::TimeUnit unit = charts::readable_time_unit(top_us * 1e3);
    const double scale = 1e3 / unit.nanoseconds;  // us -> the unit
    charts::LineChart chart;
    chart.title = o.kernel + " on " + gpu.name + " (" + o.policy + ", " + o.execution + ")";
    chart.x_label = "n (matrix size)";
    chart.y_label = "time (" + unit.name + ")";
    charts::LineSeries simulated{"simulated", {}, true, "", 2.5, 6};
    for (const CurvePoint& p : points)
        simulated.points.push_back({static_cast<double>(p.n), static_cast<double>(p.makespan) / 1e6 * scale});
    chart.series.push_back(simulated);
    if (o.models) {
        const struct {
            const char* name;
            double ModelTimes::*field;
            const char* dash;
            std::size_t colour;
        } kinds[] = {{"Min", &ModelTimes::min, "2 3", 0},
                     {"Sorted", &ModelTimes::sorted, "7 3", 1},
                     {"Full", &ModelTimes::full, "12 3 2 3", 2},
                     {"Buckets", &ModelTimes::buckets, "4 2", 4}};
        for (const auto& kind : kinds) {
            charts::LineSeries s{kind.name, {}, false, kind.dash, 1.5, kind.colour};
            for (const CurvePoint& p : points)
                s.points.push_back({static_cast<double>(p.n), (*p.models).*kind.field * scale});
            chart.series.push_back(s);
        }
    }
    chart.markers = jump_markers(points);
    return charts::render_svg(chart);
}

void write_file(const std::string& path, const std::string& flag, const std::string& text, const std::string& gpu_file) {
    OutputFile out(path, flag, {gpu_file});
    out.stream() << text;
    out.commit();
}

void run_curve(const CurveOptions& options) {
    CurveOptions o = options;
    check_distinct_outputs({{o.csv, "--csv"}, {o.svg, "--svg"}});
    const auto [first, last] = parse_range(o.range);
    if (o.step <= 0 || o.step > std::max<std::int64_t>(1, last - first))
        throw InputError("--step " + std::to_string(o.step) + ": expected an integer in [1, " +
                         std::to_string(std::max<std::int64_t>(1, last - first)) + "] (the width of --n)");
    const std::int64_t count = (last - first) / o.step + 1;
    if (count > kMaxCurvePoints)
        throw InputError("--n/--step: " + std::to_string(count) + " points; at most " + std::to_string(kMaxCurvePoints) +
                         " (raise --step or narrow --n)");
    const hw::GpuSpec gpu = resolve_gpu_what_if(o.gpu, o.what_if);
    const scheduler::RunSetup setup = scheduler::resolve_run_setup(gpu, {.policy = o.policy_flag, .execution = o.exec_flag});
    o.execution = setup.execution;
    o.policy = setup.policy_name;
    if (o.execution != "auto" && o.execution != "shared" && o.execution != "fixed")
        throw InputError("--exec: expected auto, shared or fixed, got '" + o.execution + "'");
    const workloads::KernelSpec kernel = check_kernel(o.kernel);
    // Spec errors (and n beyond the generator's range) before any simulation runs.
    o.execution = sim::resolve_execution_model(o.execution, workloads::build_application({spec_at(kernel, first)}));
    workloads::build_kernel_launches(spec_at(kernel, first + (count - 1) * o.step));
    const auto& policy = setup.policy;

    std::vector<CurvePoint> points;
    for (std::int64_t i = 0; i < count; ++i) points.push_back(run_point(gpu, *policy, o, kernel, first + i * o.step));

    if (!o.csv.empty()) {
        std::ostringstream csv;
        write_csv(csv, points, o.models);
        write_file(o.csv, "--csv", csv.str(), o.gpu);
    } else {
        std::cout << "curve of " << o.kernel << " on " << gpu.name << " (policy " << o.policy << ", exec " << o.execution
                  << "): n = " << first << ".." << last << " step " << o.step << "\n";
        std::vector<std::string> headers = {"n", "launches", "blocks", "simulated_us"};
        if (o.models) headers.insert(headers.end(), {"min_us", "sorted_us", "full_us", "buckets_us"});
        TextTable table(headers, std::vector<bool>(headers.size(), true));
        for (const CurvePoint& p : points) table.add_row(row_cells(p, o.models));
        table.print(std::cout);
    }
    if (!o.svg.empty()) write_file(o.svg, "--svg", curve_svg(points, o, gpu), o.gpu);
}

}  // namespace

void add_curve_command(CLI::App& app) {
    auto o = std::make_shared<CurveOptions>();
    auto* cmd = app.add_subcommand("curve", "Runtime curve of an APSP kernel over a range of matrix sizes n");
    cmd->footer(
        "Each n runs the same simulation as `gpusched simulate --kernel SPEC,n=N`; --models adds the\n"
        "interval paper's Min/Sorted/Full/Buckets (as `gpusched predict`). CSV columns: docs/outputs.md.\n"
        "Examples:\n"
        "  gpusched curve --gpu c2075 --kernel apsp-minplus:block=8 --n 50..100 --models \\\n"
        "                 --csv c2075-8.csv --svg c2075-8.svg\n"
        "The SVG marks where the launch count or the blocks per launch change (at most 20 marks of each kind).");
    cmd->add_option("--gpu", o->gpu, "Preset name (gpusched list gpus) or GPU YAML file")->capture_default_str();
    add_gpu_what_if_options(cmd, o->what_if);
    cmd->add_option("--kernel", o->kernel, "apsp-minplus or apsp-fw spec without n=, e.g. apsp-minplus:block=16,regs=32")
        ->required();
    cmd->add_option("--n", o->range, "Matrix sizes FIRST..LAST (inclusive, n >= 2), e.g. 50..100")->required();
    cmd->add_option("--step", o->step, "Step between sizes")->capture_default_str();
    cmd->add_option("--policy", o->policy_flag, policy_flag_help());
    cmd->add_option("--exec", o->exec_flag, exec_flag_help());
    cmd->add_flag("--models", o->models, "Add the interval model's four closed forms per n");
    cmd->add_option("--csv", o->csv, "Write the curve as CSV (then no table on stdout)");
    cmd->add_option("--svg", o->svg, "Write the curve as an SVG plot");
    cmd->callback([o] {
        naming_keys({{"gpu", "--gpu"}, {"policy", "--policy"}, {"exec", "--exec"}}, [&] { run_curve(*o); });
    });
}

}  // namespace gpusched::cli

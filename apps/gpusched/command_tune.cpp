// `gpusched tune`: simulated search over one kernel-spec key (block size, rake, streams, carveout) with the papers' guidelines.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "execution_flag.h"
#include "policy_flag.h"
#include "gpu_what_if.h"
#include "output_file.h"
#include "gpusched/calibrate/calibration_file.h"
#include "gpusched/calibrate/tune.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/key_error.h"
#include "gpusched/support/yaml_fields.h"
#include "gpusched/charts/line_chart.h"
#include "gpusched/charts/time_unit.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/scheduler/run_setup.h"
#include "gpusched/sim/execution/execution_model.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/models/streamcluster_rake_model.h"
#include "table.h"

namespace gpusched::cli {

namespace {

struct TuneOptions {
    std::string kernel;
    std::string param;
    std::string gpu = "h100";
    GpuWhatIf what_if;  ///< --sms, --set
    std::optional<std::string> policy;  ///< --policy, when given (scheduler::resolve_run_setup)
    std::optional<std::string> exec_flag;  ///< --exec, when given
    std::vector<std::string> calibrations;
    std::optional<std::int64_t> total_threads;  ///< signed so that -1 is refused, not wrapped
    std::string csv;
    std::string svg;
    bool json = false;
};

/// "KEY=V1,V2,..." -> key and values.
std::pair<std::string, std::vector<std::string>> parse_param(const std::string& text) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
        throw InputError("--param: expected KEY=V1,V2,... (e.g. threads=64,128,256), got '" + text + "'");
    std::vector<std::string> values;
    std::istringstream items(text.substr(eq + 1));
    std::string item;
    while (std::getline(items, item, ',')) {
        if (item.empty()) throw InputError("--param: empty value in '" + text + "'");
        if (std::find(values.begin(), values.end(), item) != values.end())
            throw InputError("--param: value '" + item + "' is given twice in '" + text + "'");
        values.push_back(item);
    }
    if (values.size() > 4096) throw InputError("--param: at most 4096 values");
    return {text.substr(0, eq), values};
}

/// The papers' guidance for this key, as text lines; `pick` is the candidate a rule points at.
struct Guideline {
    std::vector<std::string> lines;
    std::optional<std::size_t> pick;
};

std::optional<std::size_t> find_value(const calibrate::TuneResult& r, std::uint64_t value) {
    for (std::size_t i = 0; i < r.candidates.size(); ++i)
        if (r.candidates[i].value == std::to_string(value)) return i;
    return std::nullopt;
}

Guideline guideline(const hw::GpuSpec& gpu, const std::string& spec, const std::string& key,
                    const calibrate::TuneResult& r) {
    Guideline g;
    if (key == "threads" || key == "block") {
        g.pick = calibrate::smallest_max_occupancy(r);
        g.lines.push_back("characterisation paper (seed 002): use the smallest block size that maximises occupancy -> " +
                          (g.pick ? key + "=" + r.candidates[*g.pick].value : std::string("(no numeric candidate ran)")));
    } else if (key == "rake") {
        const workloads::KernelLaunch launch = workloads::parse_kernel_spec_launches(spec, "--kernel").launch;
        const models::RakeModelResult m = models::rake_model(models::rake_model_inputs(gpu, launch, 0.01));
        std::string line = "CDS paper (seed 004): b = " + std::to_string(m.b) + " (eq. 9), a = " + std::to_string(m.a) +
                           " (eq. 13, delta 1%): ";
        if (!m.needs_search()) {
            g.pick = find_value(r, m.b);
            line += "a <= b, so R = b = " + std::to_string(m.b);
        } else {
            line += "a > b, so search R in [" + std::to_string(m.b) + ", " + std::to_string(m.a) + "]";
            for (std::size_t i = 0; i < r.candidates.size(); ++i) {
                const auto v = parse_integer(r.candidates[i].value);
                if (!v || !r.candidates[i].makespan_us || *v < static_cast<std::int64_t>(m.b) ||
                    *v > static_cast<std::int64_t>(m.a))
                    continue;
                if (!g.pick || *r.candidates[i].makespan_us < *r.candidates[*g.pick].makespan_us) g.pick = i;
            }
            line += g.pick ? ": simulated best there R = " + r.candidates[*g.pick].value : ": no candidate in it";
        }
        g.lines.push_back(line);
    } else if (key == "streams") {
        g.lines.push_back("characterisation paper (seed 002): concurrent kernels pay off most for kernels with few "
                          "memory accesses; reduce the concurrency degree for memory-heavy kernels (qualitative)");
    } else if (key == "carveout") {
        g.lines.push_back("characterisation paper (seed 002): its best configurations all use the increased L1 "
                          "setting (Table 2); here that is carveout=max-l1 (qualitative)");
    }
    return g;
}

/// The files tune reads (its outputs must not be one of them).
std::vector<std::string> tune_inputs(const TuneOptions& o) {
    std::vector<std::string> inputs{o.gpu};
    inputs.insert(inputs.end(), o.calibrations.begin(), o.calibrations.end());
    return inputs;
}

void write_outputs(const TuneOptions& o, const std::string& key, const calibrate::TuneResult& r) {
    if (!o.csv.empty()) {
        OutputFile file(o.csv, "--csv", tune_inputs(o));
        std::ostream& out = file.stream();
        out << key << ",makespan_us,blocks_per_sm,warps_per_sm,occupancy,error\n";
        for (const auto& c : r.candidates)
            out << c.value << "," << (c.makespan_us ? calibrate::exact_number(*c.makespan_us) : "") << ","
                << c.blocks_per_sm << "," << c.warps_per_sm << "," << calibrate::exact_number(c.occupancy) << ","
                << (c.error.empty() ? "" : "\"" + c.error + "\"") << "\n";
        file.commit();
    }
    if (!o.svg.empty()) {
        charts::LineChart chart;
        chart.title = "gpusched tune: " + o.kernel + " over " + key;
        chart.x_label = key;
        chart.y_from_zero = true;  // candidates compared by height
        double largest_us = 0;
        for (const auto& c : r.candidates)
            if (c.makespan_us) largest_us = std::max(largest_us, *c.makespan_us);
        const charts::TimeUnit unit = charts::readable_time_unit(largest_us * 1e3);
        chart.y_label = "simulated run time (" + unit.name + ")";
        charts::LineSeries s;
        s.name = "simulated";
        s.markers = true;
        for (const auto& c : r.candidates) {
            const auto x = gpusched::parse_number(c.value);
            if (!x) throw InputError("--svg: the values of --param must be numbers to plot, got '" + c.value + "'");
            s.points.push_back({*x, c.makespan_us ? *c.makespan_us * 1e3 / unit.nanoseconds : std::nan("")});
        }
        chart.series.push_back(s);
        if (r.best) chart.markers.push_back({s.points[*r.best].x, "best " + r.candidates[*r.best].value});
        OutputFile file(o.svg, "--svg", tune_inputs(o));
        file.stream() << charts::render_svg(chart);
        file.commit();
    }
}

void run_tune(const TuneOptions& o) {
    check_distinct_outputs({{o.csv, "--csv"}, {o.svg, "--svg"}});
    const hw::GpuSpec gpu = resolve_gpu_what_if(o.gpu, o.what_if);
    const auto [key, values] = parse_param(o.param);
    std::string spec = o.kernel;
    for (const auto& calibration : calibrate::load_calibrations(o.calibrations))
        spec = calibrate::apply_calibration(spec, calibration);
    if (o.total_threads && *o.total_threads < 1)
        throw InputError("--total-threads " + std::to_string(*o.total_threads) + ": expected a thread count in [1, " +
                         std::to_string(calibrate::kMaxTotalThreads) + "]");
    std::optional<std::uint64_t> total_threads;
    if (o.total_threads) total_threads = static_cast<std::uint64_t>(*o.total_threads);
    const scheduler::RunSetup setup = scheduler::resolve_run_setup(gpu, {.policy = o.policy, .execution = o.exec_flag});
    const std::string& execution = setup.execution;
    const std::string& policy = setup.policy_name;
    calibrate::TuneRequest request{spec, "--kernel", key, values, policy, execution, total_threads};
    const calibrate::TuneResult r = calibrate::tune(gpu, request);
    const Guideline g = guideline(gpu, spec, key, r);
    write_outputs(o, key, r);
    const auto gap = [&](std::size_t i) {
        return 100.0 * (*r.candidates[i].makespan_us / *r.candidates[*r.best].makespan_us - 1);
    };
    if (o.json) {
        nlohmann::ordered_json j{{"gpu", gpu.name}, {"kernel", spec}, {"param", key}, {"policy", policy}};
        for (const auto& c : r.candidates) {
            nlohmann::ordered_json e{{"value", c.value}, {"spec", c.spec}};
            if (c.makespan_us) e["makespan_us"] = *c.makespan_us;
            else e["error"] = c.error;
            e["blocks_per_sm"] = c.blocks_per_sm;
            e["warps_per_sm"] = c.warps_per_sm;
            e["occupancy"] = c.occupancy;
            j["candidates"].push_back(e);
        }
        if (r.best) j["best"] = r.candidates[*r.best].value;
        if (g.pick) j["guideline"] = r.candidates[*g.pick].value;
        j["guideline_text"] = g.lines;
        std::cout << j.dump(2) << "\n";
        return;
    }
    std::cout << "tune " << key << " of " << spec << " on " << gpu.name << " (" << policy << ", exec " << execution
              << ")\n";
    TextTable t({key, "makespan_us", "vs_best_%", "blocks/SM", "warps/SM", "occupancy_%", ""},
                {true, true, true, true, true, true, false});
    for (std::size_t i = 0; i < r.candidates.size(); ++i) {
        const auto& c = r.candidates[i];
        if (!c.makespan_us) {
            t.add_row({c.value, "-", "-", "-", "-", "-", "cannot run: " + c.error});
            continue;
        }
        std::string mark = r.best == i ? "<- best" : "";
        if (g.pick == i) mark += mark.empty() ? "<- guideline" : ", guideline";
        t.add_row({c.value, fixed(*c.makespan_us, 3), fixed(gap(i), 1), std::to_string(c.blocks_per_sm),
                   std::to_string(c.warps_per_sm), fixed(100 * c.occupancy, 1), mark});
    }
    t.print(std::cout);
    if (!r.best) throw InputError("--param: no candidate could run");
    std::cout << "best: " << key << "=" << r.candidates[*r.best].value << " (" << fixed(*r.candidates[*r.best].makespan_us, 3)
              << " us simulated)\n";
    for (const auto& line : g.lines) std::cout << line << "\n";
    if (g.pick)
        std::cout << "guideline vs simulated best: " << key << "=" << r.candidates[*g.pick].value << " is "
                  << fixed(gap(*g.pick), 1) << "% slower than the best in the simulation\n";
}

}  // namespace

void add_tune_command(CLI::App& app) {
    auto o = std::make_shared<TuneOptions>();
    auto* cmd = app.add_subcommand("tune", "Pick a block size, rake, concurrency degree or carveout by simulated search");
    cmd->footer("Guidelines and the H100 check: docs/calibration.md\n"
                "Examples:\n"
                "  gpusched tune --kernel binomial-series:blocks=264 --param threads=64,128,256,512\n"
                "  gpusched tune --kernel streamcluster:points=65536,dims=256,regs=40,dim_latency_cycles=174 \\\n"
                "                --param rake=1,2,4,8,16,32 --csv rake.csv --svg rake.svg");
    cmd->add_option("--kernel", o->kernel, "Kernel spec to tune, e.g. sssp:graph=g.txt,sources=32")->required();
    cmd->add_option("--param", o->param, "KEY=V1,V2,...: the spec key to search and its candidates, e.g. "
                                         "threads=64,128,256 or rake=1,2,4 or streams=1,2,4,8")
        ->required();
    cmd->add_option("--gpu", o->gpu, "Preset name or GPU YAML file")->capture_default_str();
    add_gpu_what_if_options(cmd, o->what_if);
    cmd->add_option("--policy", o->policy, policy_flag_help());
    cmd->add_option("--exec", o->exec_flag, exec_flag_help());
    cmd->add_option("--calibration", o->calibrations, "Calibration YAML whose keys become defaults of the spec");
    cmd->add_option("--total-threads", o->total_threads,
                    "Block-size search at a fixed problem size: blocks = ceil(N / threads) for each candidate");
    cmd->add_option("--csv", o->csv, "Write the searched curve as CSV");
    cmd->add_option("--svg", o->svg, "Write the searched curve as an SVG line chart");
    cmd->add_flag("--json", o->json, "Print one JSON object");
    cmd->callback([o] {
        naming_keys({{"gpu", "--gpu"},
                     {"policy", "--policy"},
                     {"exec", "--exec"},
                     {"kernel", "--kernel"},
                     {"values", "--param"},
                     {"calibration", "--calibration"},
                     {"total_threads", "--total-threads"}},
                    [&] { run_tune(*o); });
    });
}

}  // namespace gpusched::cli

// `gpusched validate DATA_DIR`: replay measured timelines and compare kernel span and per-SM placement.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/hw/input_error.h"
#include "gpusched/validation/placement_validation.h"
#include "gpusched/validation/validation_report.h"
#include "table.h"

namespace gpusched::cli {

namespace {

struct ValidateOptions {
    std::string dir;
    std::string gpu = "h100";
    std::string policy = scheduler::default_policy();
    bool json = false;
    std::string report;
};

void run_validate(const ValidateOptions& o) {
    const hw::GpuSpec gpu = hw::resolve_gpu(o.gpu);
    const std::string placement = (std::filesystem::path(o.dir) / "placement").string();
    const std::string dir = std::filesystem::is_directory(placement) ? placement : o.dir;
    const auto results = validation::validate_placement(dir, gpu, o.policy, !o.report.empty());
    if (!o.report.empty()) {
        std::ofstream out(o.report, std::ios::binary);
        if (!out) throw InputError("--report: cannot write '" + o.report + "'");
        out << validation::render_validation_report(results, {dir, o.gpu, o.policy});
        if (!out.flush()) throw InputError("--report: cannot write '" + o.report + "'");
    }
    int within_1 = 0, exact = 0;
    double worst = 0;
    for (const auto& r : results) {
        within_1 += std::abs(r.error_percent) <= 1.0 ? 1 : 0;
        exact += r.misplaced == 0 ? 1 : 0;
        worst = std::max(worst, std::abs(r.error_percent));
    }
    if (o.json) {
        nlohmann::ordered_json j;
        j["data"] = dir;
        j["gpu"] = gpu.name;
        j["policy"] = o.policy;
        for (const auto& r : results)
            j["cases"].push_back({{"case", r.name}, {"blocks", r.blocks}, {"measured_us", r.measured_us},
                                  {"simulated_us", r.simulated_us}, {"error_percent", r.error_percent},
                                  {"misplaced_blocks", r.misplaced}, {"measured_waves", r.measured_waves},
                                  {"simulated_waves", r.simulated_waves}, {"start_ks_distance", r.start_distance}});
        j["within_1_percent"] = within_1;
        j["exact_placements"] = exact;
        j["worst_error_percent"] = worst;
        std::cout << j.dump(2) << "\n";
        return;
    }
    std::cout << "placement replay of " << dir << " on " << gpu.name << " with " << o.policy << "\n";
    TextTable table({"case", "blocks", "measured_us", "simulated_us", "error_%", "misplaced", "waves", "start_ks"},
                    {false, true, true, true, true, true, true, true});
    for (const auto& r : results)
        table.add_row({r.name, std::to_string(r.blocks), fixed(r.measured_us, 3), fixed(r.simulated_us, 3),
                       fixed(r.error_percent, 2), std::to_string(r.misplaced),
                       std::to_string(r.measured_waves) + "/" + std::to_string(r.simulated_waves),
                       fixed(r.start_distance, 3)});
    table.print(std::cout);
    std::cout << results.size() << " cases: " << within_1 << " within 1% of the measured span (worst "
              << fixed(worst, 2) << "%), " << exact << " with every block on its measured SM\n";
}

}  // namespace

void add_validate_command(CLI::App& app) {
    auto o = std::make_shared<ValidateOptions>();
    auto* cmd = app.add_subcommand("validate", "Compare simulations with measured timelines (validation/data/<gpu>)");
    cmd->add_option("DATA_DIR", o->dir, "Measurement directory, e.g. validation/data/h100 (uses its placement/)")
        ->required();
    cmd->add_option("--gpu", o->gpu, "Preset name or GPU YAML file to simulate with")->capture_default_str();
    cmd->add_option("--policy", o->policy, "Dispatch policy")->capture_default_str();
    cmd->add_flag("--json", o->json, "Print one JSON object");
    cmd->add_option("--report", o->report,
                    "Also write a self-contained HTML report (tables, measured vs simulated per-SM Gantt charts)");
    cmd->callback([o] { run_validate(*o); });
}

}  // namespace gpusched::cli

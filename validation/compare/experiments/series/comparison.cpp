// The binomial-series table against the simulation after one-point calibration.
#include "experiments/series/comparison.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <tuple>

#include "gpusched/support/input_error.h"
#include "gpusched/support/text_file.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/workloads/kernel_spec.h"
#include "numeric_csv.h"

namespace gpusched::validation {

namespace {

int whole(double v, double lo, double hi, const std::string& where, const char* name) {
    if (v != std::floor(v) || v < lo || v > hi)
        throw InputError(where + ": " + name + " must be an integer " + std::to_string(static_cast<long long>(lo)) +
                         ".." + std::to_string(static_cast<long long>(hi)));
    return static_cast<int>(v);
}

/// The work file's one line of keys, as written (blanks trimmed) and parsed as binomial-series keys.
struct WorkKeys {
    std::string text;
    std::optional<workloads::KernelSpec> spec;
};

WorkKeys read_work_keys(const std::string& path) {
    WorkKeys out;
    if (!std::filesystem::exists(path)) return out;
    TextLineReader in(path, "series work file");
    std::string line;
    while (in.next(line)) {
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line[first] == '#') continue;
        const auto last = line.find_last_not_of(" \t\r");
        const std::string where = in.where();
        if (out.spec) throw InputError(where + ": only one line of binomial-series keys is allowed");
        out.text = line.substr(first, last - first + 1);
        out.spec = workloads::KernelSpec::parse("binomial-series:" + out.text, where);
        for (const auto& entry : out.spec->entries())
            if (entry.key == "blocks" || entry.key == "threads" || entry.key == "terms")
                throw InputError(where + ": '" + entry.key + "' comes from the measurements, not from the work file");
    }
    if (!out.spec) throw InputError(path + ": no line of binomial-series keys (e.g. instr_per_term=15.25)");
    return out;
}

}  // namespace

std::string read_series_work_keys(const std::string& path) { return read_work_keys(path).text; }

SeriesComparison validate_series(const std::string& csv_path, const hw::GpuSpec& gpu, const std::string& policy_name,
                                 const std::string& work_file_given) {
    const auto policy = scheduler::make_policy(policy_name);
    SeriesComparison out;
    const std::string work_file = !work_file_given.empty()
                                      ? work_file_given
                                      : (std::filesystem::path(csv_path).parent_path() / "binomial_work.txt").string();
    const WorkKeys work = read_work_keys(work_file);
    out.work_keys = work.text;
    if (work.spec) out.work_file = work_file;
    for (const auto& r : read_numeric_csv(csv_path, "series CSV", {"blocks", "threads", "terms", "median_ms"})) {
        SeriesPoint p;
        p.blocks = whole(r.values[0], 1, 1e7, r.where, "blocks");
        p.threads = whole(r.values[1], 1, 1024, r.where, "threads");
        p.terms = whole(r.values[2], 1, 1e7, r.where, "terms");
        if (!(r.values[3] > 0)) throw InputError(r.where + ": median_ms must be a positive number");
        p.measured_us = r.values[3] * 1000.0;
        workloads::KernelSpec spec("binomial-series", "kernel spec");
        spec.set("blocks", std::to_string(p.blocks)).set("threads", std::to_string(p.threads));
        spec.set("terms", std::to_string(p.terms));
        if (work.spec)
            for (const auto& entry : work.spec->entries()) spec.set(entry.key, entry.value);
        workloads::Application app;  // the engine keeps a reference
        try {
            app = workloads::build_application({spec});
        } catch (const InputError& e) {
            if (out.work_file.empty()) throw;
            throw InputError(out.work_file + ": " + e.what());
        }
        sim::Simulation simulation(gpu, app, *policy, "shared");
        p.simulated_us = static_cast<double>(simulation.run().makespan) / 1e6;
        out.points.push_back(p);
    }
    std::sort(out.points.begin(), out.points.end(), [](const SeriesPoint& a, const SeriesPoint& b) {
        return std::tie(a.threads, a.blocks) < std::tie(b.threads, b.blocks);
    });
    std::vector<const SeriesPoint*> by_time;
    for (const auto& p : out.points) by_time.push_back(&p);
    std::sort(by_time.begin(), by_time.end(), [](const SeriesPoint* a, const SeriesPoint* b) {
        return std::tie(a->measured_us, a->blocks, a->threads) < std::tie(b->measured_us, b->blocks, b->threads);
    });
    const SeriesPoint& ref = *by_time[(by_time.size() - 1) / 2];
    out.reference_blocks = ref.blocks;
    out.reference_threads = ref.threads;
    out.factor = ref.measured_us / ref.simulated_us;
    std::vector<double> errors;
    for (auto& p : out.points) {
        p.calibrated_us = p.simulated_us * out.factor;
        p.error_percent = 100.0 * (p.calibrated_us - p.measured_us) / p.measured_us;
        errors.push_back(std::abs(p.error_percent));
    }
    const ErrorSummary summary = summarise_errors(errors);
    out.median_abs_error_percent = summary.median;
    out.max_abs_error_percent = summary.max;
    return out;
}

}  // namespace gpusched::validation

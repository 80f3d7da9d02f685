// Replay-based placement validation against measured block timelines.
#include "gpusched/validation/placement_validation.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>

#include "gpusched/hw/input_error.h"
#include "gpusched/hw/yaml_fields.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/engine.h"
#include "gpusched/validation/measured_timeline.h"
#include "gpusched/workloads/replay_timeline.h"

namespace gpusched::validation {

namespace {

/// First start, last end and blocks per SM.
struct Span {
    Time first = ~Time{0};
    Time last = 0;
    std::map<int, int> per_sm;
    void add(int sm, Time start, Time end) {
        first = std::min(first, start);
        last = std::max(last, end);
        ++per_sm[sm];
    }
    [[nodiscard]] double us() const { return static_cast<double>(last - first) / 1e6; }
};

class SpanRecorder final : public sim::SimObserver {
public:
    Span span;
    void on_block_completed(const sim::BlockRecord& b) override { span.add(b.sm, b.start, b.end); }
};

int misplaced(const Span& a, const Span& b) {
    std::map<int, int> diff = a.per_sm;
    for (const auto& [sm, n] : b.per_sm) diff[sm] -= n;
    int distance = 0;
    for (const auto& [sm, d] : diff) distance += std::abs(d);
    return distance / 2;
}

std::int64_t meta_integer(const MeasuredTimeline& t, const std::string& key) {
    const auto v = parse_integer(t.meta(key));
    if (!v || *v < 0) throw InputError(t.path + ": metadata '" + key + "' is not a non-negative integer");
    return *v;
}

}  // namespace

std::vector<PlacementComparison> validate_placement(const std::string& dir, const hw::GpuSpec& gpu,
                                                    const std::string& policy_name) {
    namespace fs = std::filesystem;
    if (!fs::is_directory(dir)) throw InputError(dir + ": not a directory of measured timelines");
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".csv" && e.path().stem() != "runs" && e.path().stem() != "nvidia-smi")
            files.push_back(e.path());
    std::sort(files.begin(), files.end());
    if (files.empty()) throw InputError(dir + ": no timeline CSV files");
    const auto policy = scheduler::make_policy(policy_name);
    std::vector<PlacementComparison> out;
    for (const auto& file : files) {
        const MeasuredTimeline measured = read_measured_timeline(file.string());
        Span m;
        for (const auto& b : measured.blocks) m.add(b.sm, b.start, b.end);
        const auto app = workloads::load_replay_timeline(file.string(), static_cast<int>(meta_integer(measured, "threads")),
                                                         0, meta_integer(measured, "smem"));
        sim::Engine engine(gpu, app, *policy);
        SpanRecorder recorder;
        engine.add_observer(recorder);
        engine.run();
        PlacementComparison c;
        c.name = file.stem().string();
        c.blocks = measured.blocks.size();
        c.measured_us = m.us();
        c.simulated_us = recorder.span.us();
        c.error_percent = 100.0 * (c.simulated_us - c.measured_us) / c.measured_us;
        c.misplaced = misplaced(recorder.span, m);
        out.push_back(c);
    }
    return out;
}

}  // namespace gpusched::validation

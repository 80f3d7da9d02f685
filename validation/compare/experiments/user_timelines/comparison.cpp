// Replay of a user's directory of timeline CSVs: find them, read their block shape, replay each with the GPU's dispatch rules.
#include "experiments/user_timelines/comparison.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>

#include "gpusched/hw/occupancy.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/metadata_csv.h"
#include "gpusched/support/yaml_fields.h"
#include "gpusched/validation/measured_timeline.h"
#include "gpusched/workloads/replay_timeline.h"
#include "gpusched/workloads/timeline_csv.h"

namespace gpusched::validation {

namespace {

constexpr std::size_t kMaxCsvFiles = 10000;

/// A metadata integer in [lo, hi]; `fallback` when absent (nullopt: required).
std::int64_t meta_integer(const MeasuredTimeline& t, const std::string& key, const std::string& what, std::int64_t lo,
                          std::int64_t hi, std::optional<std::int64_t> fallback) {
    const auto it = t.metadata.find(key);
    if (it == t.metadata.end()) {
        if (fallback) return *fallback;
        throw InputError(t.path + ": metadata line '# " + key + "=' is missing (" + what + ")");
    }
    const auto v = parse_integer(it->second);
    if (!v || *v < lo || *v > hi)
        throw InputError(t.path + ": metadata '" + key + "': expected an integer in [" + std::to_string(lo) + ", " +
                         std::to_string(hi) + "], got '" + it->second.substr(0, 40) + "'");
    return *v;
}

std::string meta_text(const MeasuredTimeline& t, const std::string& key, const std::string& other) {
    for (const auto& k : {key, other})
        if (const auto it = t.metadata.find(k); it != t.metadata.end() && !it->second.empty()) return it->second;
    return "-";
}

/// The metadata lines before a CSV's header, and whether the header is a timeline's.
struct CsvHead {
    bool timeline = false;
    std::map<std::string, std::string> metadata;
};

CsvHead read_csv_head(const std::string& path) {
    MetadataCsvOptions options;
    options.what = "CSV file";
    MetadataCsvReader in(path, options);
    CsvHead head;
    head.timeline = in.read_header_cells() && workloads::is_timeline_header(in.header());
    for (const MetadataLine& m : in.metadata())
        if (!m.key.empty()) head.metadata[m.key] = m.value;
    return head;
}

/// The kernel's name: `# kernel=`, else the NAME of `# launch.0=NAME blocks=...`, else "-".
std::string kernel_of(const MeasuredTimeline& t) {
    if (const auto it = t.metadata.find("kernel"); it != t.metadata.end() && !it->second.empty()) return it->second;
    if (const auto it = t.metadata.find("launch.0"); it != t.metadata.end() && !it->second.empty())
        return it->second.substr(0, it->second.find(' '));
    return "-";
}

}  // namespace

bool is_timeline_csv(const std::string& path) { return read_csv_head(path).timeline; }

UserTimelines validate_user_timelines(const std::string& dir, const hw::GpuSpec& gpu, const std::string& policy_name,
                                      bool keep_blocks, BlockDurations durations) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw InputError(dir + ": not a directory of timeline CSV files");
    std::vector<std::pair<std::string, fs::path>> csvs;  // (relative name, path)
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (!it->is_regular_file(ec) || it->path().extension() != ".csv") continue;
        if (csvs.size() == kMaxCsvFiles)
            throw InputError(dir + ": more than " + std::to_string(kMaxCsvFiles) + " CSV files; give a directory of timelines");
        csvs.emplace_back(fs::relative(it->path(), dir, ec).generic_string(), it->path());
    }
    if (ec) throw InputError(dir + ": cannot list the directory: " + ec.message());
    std::sort(csvs.begin(), csvs.end());
    UserTimelines out;
    const auto policy = scheduler::make_policy(policy_name);
    for (const auto& [name, path] : csvs) {
        const CsvHead head = read_csv_head(path.string());
        if (!head.timeline) {
            out.skipped.push_back(name);
            continue;
        }
        const auto sm_count = head.metadata.find("sm_count");
        if (sm_count != head.metadata.end() && parse_integer(sm_count->second) != gpu.sm_count)
            throw InputError(path.string() + ": recorded on a GPU with " + sm_count->second +
                             " SMs ('# sm_count='), but the simulated GPU '" + gpu.name + "' has " +
                             std::to_string(gpu.sm_count) + " SMs");
        const MeasuredTimeline measured = read_measured_timeline(path.string());
        UserTimelineComparison c;
        c.file = name;
        c.kernel = kernel_of(measured);
        c.device = meta_text(measured, "device", "device_name");
        c.threads = static_cast<int>(meta_integer(measured, "threads", "threads per block", 1, 1 << 20, std::nullopt));
        c.regs = static_cast<int>(meta_integer(measured, "regs", "registers per thread", 0, 65536, 0));
        c.smem = meta_integer(measured, "smem", "shared memory bytes per block", 0, std::int64_t{1} << 40, 0);
        auto app = workloads::load_replay_timeline(path.string(), c.threads, c.regs, c.smem);
        c.launches = app.launches.size();
        c.out_of_order_stamps = out_of_order_stamps(measured);
        c.durations = durations != BlockDurations::automatic ? durations
                      : c.out_of_order_stamps > 0            ? BlockDurations::slot
                                                             : BlockDurations::stamps;
        c.slots_per_sm = hw::compute_occupancy(gpu, {c.threads, c.regs, 0, c.smem}).blocks_per_sm;
        if (c.durations == BlockDurations::slot) {
            // The simulator's refill: D + a + b x warps after the freed slot's block ended (docs/scheduling.md).
            const double warps = std::ceil(c.threads / static_cast<double>(gpu.warp_size));
            c.refill_delay = ns_to_ps(gpu.block_dispatch_latency_ns.value_or(0) + gpu.sm_block_launch_ns.value_or(0) +
                                      warps * gpu.sm_warp_launch_ns.value_or(0));
            app = with_slot_durations(measured, app, c.slots_per_sm, c.refill_delay, &c.inference);
        }
        c.replay = replay_measured(measured, app, gpu, *policy, policy_name, keep_blocks);
        c.replay.name = name;
        out.files.push_back(std::move(c));
    }
    if (out.files.empty())
        throw InputError(dir + ": no timeline CSV files (a timeline's header names block, sm, start_ns and end_ns; " +
                         std::to_string(out.skipped.size()) + " other CSV files)");
    return out;
}

}  // namespace gpusched::validation

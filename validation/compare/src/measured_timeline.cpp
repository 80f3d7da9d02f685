// Measured timeline CSVs written by gpusched-runner: read by the timeline reader, checked against their metadata.
#include "gpusched/validation/measured_timeline.h"

#include <optional>
#include <set>
#include <utility>

#include "gpusched/support/input_error.h"
#include "gpusched/support/metadata_csv.h"
#include "gpusched/support/yaml_fields.h"
#include "gpusched/workloads/timeline_csv.h"

namespace gpusched::validation {

const std::string& MeasuredTimeline::meta(const std::string& key) const {
    const auto it = metadata.find(key);
    if (it == metadata.end()) throw InputError(path + ": metadata line '# " + key + "=' is missing");
    return it->second;
}

namespace {

/// The metadata of a timeline (written before its rows) against its rows: per launch, the
/// blocks that `# launch.K=NAME blocks=B ...` or `# blocks_per_launch` x `# launches` promise
/// (each block once, none beyond), launches below `# launches`, SMs below `# sm_count`.
class TimelineRowCheck {
public:
    TimelineRowCheck(const MeasuredTimeline& t, const std::map<std::string, std::uint64_t>& lines) : path_(t.path) {
        const auto integer = [&](const std::string& key, const std::string& text) {
            const auto v = parse_integer(text);
            if (!v || *v < 0)
                throw InputError(t.path + ":" + std::to_string(lines.at(key)) + ": metadata '" + key +
                                 "': expected a non-negative integer, got '" + text.substr(0, 40) + "'");
            return static_cast<std::uint64_t>(*v);
        };
        for (const auto& [key, value] : t.metadata) {
            if (!key.starts_with("launch.")) continue;
            const auto launch = parse_integer(key.substr(7));
            const std::size_t at = value.find(" blocks=");
            if (!launch || *launch < 0 || at == std::string::npos) continue;
            const std::size_t end = value.find(' ', at + 8);
            expected_[static_cast<std::uint64_t>(*launch)] = {
                integer(key, value.substr(at + 8, end == std::string::npos ? end : end - at - 8)),
                "line " + std::to_string(lines.at(key)) + " ('# " + key + "=... blocks=...')"};
        }
        const auto meta = [&](const std::string& key) -> std::optional<std::uint64_t> {
            const auto it = t.metadata.find(key);
            if (it == t.metadata.end()) return std::nullopt;
            return integer(key, it->second);
        };
        launches_ = meta("launches");
        if (launches_) launches_where_ = "line " + std::to_string(lines.at("launches")) + " ('# launches=')";
        sm_count_ = meta("sm_count");
        if (sm_count_) sm_where_ = "line " + std::to_string(lines.at("sm_count")) + " ('# sm_count=')";
        const auto per_launch = meta("blocks_per_launch");
        if (expected_.empty() && per_launch && launches_)
            for (std::uint64_t k = 0; k < *launches_ && k < kMaxListedLaunches; ++k)
                expected_[k] = {*per_launch, "line " + std::to_string(lines.at("blocks_per_launch")) +
                                                 " ('# blocks_per_launch=') with " + launches_where_};
    }

    void check(const MeasuredBlock& b, const std::string& where) {
        if (sm_count_ && static_cast<std::uint64_t>(b.sm) >= *sm_count_)
            throw InputError(where + ": SM " + std::to_string(b.sm) + " does not exist: " + sm_where_ + " says " +
                             std::to_string(*sm_count_) + " SMs");
        if (launches_ && b.launch >= *launches_)
            throw InputError(where + ": launch " + std::to_string(b.launch) + " is beyond the " +
                             std::to_string(*launches_) + " launches of " + launches_where_);
        if (expected_.empty()) return;
        const auto it = expected_.find(b.launch);
        if (it == expected_.end())
            throw InputError(where + ": launch " + std::to_string(b.launch) + " is not in the metadata (no '# launch." +
                             std::to_string(b.launch) + "=' line)");
        const Expected& e = it->second;
        if (b.block >= e.blocks)
            throw InputError(where + ": block " + std::to_string(b.block) + " of launch " + std::to_string(b.launch) +
                             " is beyond the " + std::to_string(e.blocks) + " blocks of " + e.where);
        if (!seen_.emplace(b.launch, b.block).second)
            throw InputError(where + ": block " + std::to_string(b.block) + " of launch " + std::to_string(b.launch) +
                             " is listed twice");
        ++rows_[b.launch];
    }

    /// After the last row (at `where`): every launch has the blocks its metadata promises.
    void check_counts(const std::string& where) const {
        for (const auto& [launch, e] : expected_) {
            const auto it = rows_.find(launch);
            const std::uint64_t got = it == rows_.end() ? 0 : it->second;
            if (got != e.blocks)
                throw InputError(where + ": the rows end with " + std::to_string(got) + " blocks of launch " +
                                 std::to_string(launch) + ", but " + e.where + " says " + std::to_string(e.blocks) +
                                 ": the file is cut short or its metadata is wrong");
        }
    }

private:
    static constexpr std::uint64_t kMaxListedLaunches = 1'000'000;
    struct Expected {
        std::uint64_t blocks = 0;
        std::string where;
    };
    std::string path_;
    std::map<std::uint64_t, Expected> expected_;
    std::set<std::pair<std::uint64_t, std::uint64_t>> seen_;  ///< (launch, block) rows so far
    std::map<std::uint64_t, std::uint64_t> rows_;
    std::optional<std::uint64_t> launches_, sm_count_;
    std::string launches_where_, sm_where_;
};

}  // namespace

MeasuredTimeline read_measured_timeline(const std::string& path) {
    workloads::TimelineReadOptions options;
    options.what = "measured timeline";
    options.refuse_cut_line = true;
    workloads::TimelineCsvReader in(path, options);
    MeasuredTimeline t;
    t.path = path;
    std::map<std::string, std::uint64_t> metadata_line;
    for (const MetadataLine& m : in.csv().metadata()) {
        if (m.key.empty()) continue;
        t.metadata[m.key] = m.value;
        metadata_line[m.key] = m.line;
    }
    TimelineRowCheck rows(t, metadata_line);
    workloads::TimelineRow row;
    while (in.next(row)) {
        const MeasuredBlock b{in.launch_number(), row.block, row.sm, row.start, row.end};
        t.blocks.push_back(b);
        rows.check(b, in.csv().where());
    }
    for (const MetadataLine& m : in.csv().metadata())
        if (!m.key.empty()) t.metadata[m.key] = m.value;
    if (t.blocks.empty()) throw InputError(path + ": no blocks in measured timeline");
    rows.check_counts(in.csv().where());
    return t;
}

}  // namespace gpusched::validation

// Reading measured timeline CSVs written by gpusched-runner.
#include "gpusched/validation/measured_timeline.h"

#include <algorithm>
#include <fstream>
#include <optional>
#include <set>
#include <utility>
#include <sstream>

#include "cut_line.h"
#include "gpusched/support/checked_time.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/text_file.h"
#include "gpusched/support/yaml_fields.h"

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
    TimelineRowCheck() = default;
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
        if (path_.empty()) return;
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
    TextLineReader in(path, "measured timeline");
    MeasuredTimeline t;
    t.path = path;
    std::vector<std::string> columns;
    std::string line;
    const auto split = [](const std::string& text) {
        std::vector<std::string> cells;
        std::stringstream ss(text);
        std::string cell;
        while (std::getline(ss, cell, ',')) cells.push_back(cell);
        return cells;
    };
    std::size_t c_launch = 0, c_block = 0, c_sm = 0, c_start = 0, c_end = 0;
    std::map<std::string, std::uint64_t> metadata_line;
    TimelineRowCheck rows;
    while (in.next(line)) {
        refuse_cut_line(in);
        if (line.empty()) continue;
        if (line[0] == '#') {
            const auto eq = line.find('=');
            if (eq != std::string::npos) {
                t.metadata[line.substr(2, eq - 2)] = line.substr(eq + 1);
                metadata_line[line.substr(2, eq - 2)] = in.line_number();
            }
            continue;
        }
        const auto cells = split(line);
        const std::string where = in.where();
        if (columns.empty()) {
            rows = TimelineRowCheck(t, metadata_line);
            columns = cells;
            const auto find = [&](const std::string& name) {
                for (std::size_t i = 0; i < columns.size(); ++i)
                    if (columns[i] == name) return i;
                throw InputError(where + ": column '" + name + "' is missing (need block, sm, start_ns, end_ns)");
            };
            const bool has_launch = std::find(columns.begin(), columns.end(), "launch") != columns.end();
            c_launch = has_launch ? find("launch") : columns.size();  // absent: every block is launch 0
            c_block = find("block"), c_sm = find("sm"), c_start = find("start_ns"), c_end = find("end_ns");
            continue;
        }
        if (cells.size() != columns.size())
            throw InputError(where + ": expected " + std::to_string(columns.size()) + " columns, got " +
                             std::to_string(cells.size()));
        const auto integer = [&](std::size_t c) {
            const auto v = parse_integer(cells[c]);
            if (!v || *v < 0) throw InputError(where + ": column '" + columns[c] + "': expected a non-negative integer");
            return *v;
        };
        const auto ns = [&](std::size_t c) {
            const auto v = parse_number(cells[c]);
            if (!v || *v < 0) throw InputError(where + ": column '" + columns[c] + "': expected a non-negative number");
            const std::optional<Time> ps = time_from_ps(*v * 1000.0);
            if (!ps) throw InputError(where + ": column '" + columns[c] + "': " + cells[c] + " ns passes " + time_limit_text());
            return *ps;
        };
        MeasuredBlock b{c_launch < columns.size() ? static_cast<std::uint64_t>(integer(c_launch)) : 0, static_cast<std::uint64_t>(integer(c_block)),
                        static_cast<int>(integer(c_sm)), ns(c_start), ns(c_end)};
        if (b.end < b.start) throw InputError(where + ": end_ns is before start_ns");
        t.blocks.push_back(b);
        rows.check(b, where);
    }
    if (t.blocks.empty()) throw InputError(path + ": no blocks in measured timeline");
    rows.check_counts(in.where());
    return t;
}

}  // namespace gpusched::validation

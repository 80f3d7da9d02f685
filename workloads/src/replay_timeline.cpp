// Replay of a timeline CSV: one launch per (kernel, launch) pair, each block's duration from its row.
#include "gpusched/workloads/replay_timeline.h"

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <utility>

#include "gpusched/support/input_error.h"
#include "gpusched/support/key_error.h"
#include "gpusched/support/text.h"
#include "gpusched/support/yaml_fields.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/support/text_file.h"

namespace gpusched::workloads {

namespace {

constexpr const char* kWhat = "timeline CSV";
constexpr const char* kRequired = "block,sm,start_ns,end_ns";
constexpr std::size_t kMaxLaunches = 1'000'000;
constexpr std::uint64_t kMaxNs = 9'000'000'000'000'000;  // ~104 days; keeps picoseconds within 2^63
constexpr Time kUnset = std::numeric_limits<Time>::max();
const std::string kNone;

/// Splits one CSV line; fields may be double-quoted ("" inside quotes is a quote). Fields are trimmed.
void split_csv(const std::string& line, const TextLineReader& at, std::vector<std::string>& fields) {
    if (line.find('"') == std::string::npos) {  // fast path: no quoting; reuses the fields' storage
        std::size_t count = 0, start = 0;
        while (true) {
            const std::size_t comma = std::min(line.find(',', start), line.size());
            std::size_t b = start, e = comma;
            while (b < e && (line[b] == ' ' || line[b] == '\t')) ++b;
            while (e > b && (line[e - 1] == ' ' || line[e - 1] == '\t')) --e;
            if (fields.size() <= count) fields.emplace_back();
            fields[count++].assign(line, b, e - b);
            if (comma == line.size()) break;
            start = comma + 1;
        }
        fields.resize(count);
        return;
    }
    fields.clear();
    std::string field;
    bool quoted = false, was_quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c != '"') field += c;
            else if (i + 1 < line.size() && line[i + 1] == '"') field += line[++i];
            else quoted = false;
        } else if (c == '"' && trim(field).empty() && !was_quoted) {
            quoted = was_quoted = true;
            field.clear();
        } else if (c == ',') {
            fields.push_back(was_quoted ? field : trim(field));
            field.clear();
            was_quoted = false;
        } else if (was_quoted && c != ' ' && c != '\t') {
            throw InputError(at.where() + ": text after a closing quote in a CSV field");
        } else if (!was_quoted) {
            field += c;
        }
    }
    if (quoted) throw InputError(at.where() + ": unterminated quote in a CSV field");
    fields.push_back(was_quoted ? field : trim(field));
}

/// Decimal nanoseconds to picoseconds: exact for digits[.digits] (rounded half up past three
/// decimals), otherwise through parse_number and ns_to_ps (e.g. 1.5e3).
Time parse_ns(const std::string& text, const TextLineReader& at, const std::string& column) {
    const auto fail = [&](const std::string& what) -> Time {
        throw InputError(at.where() + ": column '" + column + "': " + what + ", got '" + text.substr(0, 40) + "'");
    };
    if (!text.empty() && text[0] == '-') fail("negative time");
    std::size_t i = text.size() > 0 && text[0] == '+' ? 1 : 0;
    std::uint64_t whole = 0;
    std::size_t digits = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits) {
        if (whole > kMaxNs) break;
        whole = whole * 10 + static_cast<std::uint64_t>(text[i] - '0');
    }
    std::uint64_t fraction = 0;
    int fraction_digits = 0;
    bool round_up = false;
    if (i < text.size() && text[i] == '.') {
        for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits, ++fraction_digits) {
            if (fraction_digits < 3) fraction = fraction * 10 + static_cast<std::uint64_t>(text[i] - '0');
            else if (fraction_digits == 3) round_up = text[i] >= '5';
        }
    }
    if (digits > 0 && i == text.size() && whole <= kMaxNs) {
        for (int k = fraction_digits; k < 3; ++k) fraction *= 10;
        return whole * kPicosecondsPerNanosecond + fraction + (round_up ? 1 : 0);
    }
    const auto number = parse_number(text);
    if (!number) fail("expected a number of nanoseconds");
    if (*number > static_cast<double>(kMaxNs)) fail("time too large (at most " + std::to_string(kMaxNs) + " ns)");
    return ns_to_ps(*number);
}

std::int64_t parse_id(const std::string& text, const TextLineReader& at, const std::string& column) {
    const auto value = parse_integer(text);
    if (!value) throw InputError(at.where() + ": column '" + column + "': expected a non-negative integer, got '" +
                                 text.substr(0, 40) + "'");
    if (*value < 0)
        throw InputError(at.where() + ": column '" + column + "': negative value " + std::to_string(*value));
    return *value;
}

struct Row {
    Time duration;
    std::uint32_t block;
    std::uint32_t line;
    std::uint32_t launch;  ///< index of its (kernel, launch) pair, in order of first appearance
};

struct LaunchKey {
    std::string kernel;
    std::string launch;
};

/// What the launches of one file share: the durations and each launch's work (aliased by the
/// launches' shared pointers, so a million launches make one allocation, not a million).
struct ReplayTimeline {
    ReplayDurations all;
    std::vector<ReplayWork> works;
};

struct Columns {
    std::size_t count = 0;
    std::size_t block = 0, sm = 0, start = 0, end = 0;
    std::optional<std::size_t> kernel, launch;
};

Columns parse_header(const std::vector<std::string>& header, const std::string& where) {
    Columns c;
    c.count = header.size();
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < header.size(); ++i) {
        if (header[i].empty()) continue;
        if (!index.emplace(header[i], i).second)
            throw InputError(where + ": column '" + header[i] + "' appears twice in the header");
    }
    const auto required = [&](const char* name) {
        const auto it = index.find(name);
        if (it == index.end())
            throw InputError(where + ": missing column '" + std::string(name) + "' in the header (required: " +
                             kRequired + "; optional: kernel,launch)");
        return it->second;
    };
    c.block = required("block");
    c.sm = required("sm");
    c.start = required("start_ns");
    c.end = required("end_ns");
    if (index.count("kernel")) c.kernel = index["kernel"];
    if (index.count("launch")) c.launch = index["launch"];
    return c;
}

std::string launch_label(const Columns& c, const std::string& kernel, const std::string& launch) {
    if (c.kernel && c.launch) return "kernel '" + kernel + "' launch '" + launch + "'";
    if (c.kernel) return "kernel '" + kernel + "'";
    if (c.launch) return "launch '" + launch + "'";
    return "the timeline";
}

/// Writes one launch's durations by block id into `out` (its n entries, kUnset on entry),
/// checking the ids are exactly 0..n-1. `rows` are the launch's rows in file order.
void durations_by_block(const std::vector<Row>& all_rows, std::span<const std::uint32_t> rows, const std::string& label,
                        const std::string& path, std::span<Time> out) {
    const std::size_t n = rows.size();
    const Row* out_of_range = nullptr;
    for (const std::uint32_t at : rows) {
        const Row& row = all_rows[at];
        if (row.block >= n) {
            if (out_of_range == nullptr) out_of_range = &row;
            continue;
        }
        if (out[row.block] != kUnset) {
            std::uint32_t first = 0;
            for (const std::uint32_t other : rows)
                if (all_rows[other].block == row.block) {
                    first = all_rows[other].line;
                    break;
                }
            throw InputError(path + ":" + std::to_string(row.line) + ": duplicate block " + std::to_string(row.block) +
                             " in " + label + " (first at line " + std::to_string(first) + ")");
        }
        out[row.block] = row.duration;
    }
    if (out_of_range != nullptr) {
        std::size_t missing = 0;
        while (missing < n && out[missing] != kUnset) ++missing;
        throw InputError(path + ":" + std::to_string(out_of_range->line) + ": block " +
                         std::to_string(out_of_range->block) + " but block " + std::to_string(missing) +
                         " is missing in " + label + " (its " + std::to_string(n) +
                         " rows must have block ids 0.." + std::to_string(n - 1) + " once each)");
    }
}

/// KeyError about `key` (replay_threads, replay_regs, replay_smem: the caller names them).
void check_parameter(const char* key, const char* what, std::int64_t value, std::int64_t min, std::int64_t max) {
    if (value < min || value > max)
        throw KeyError(key, std::to_string(value),
                       std::string(what) + " of the replayed kernel: expected an integer in [" + std::to_string(min) +
                           ", " + std::to_string(max) + "]");
}

}  // namespace

ReplayWork::ReplayWork(const ReplayDurations& all, std::size_t first, std::size_t count)
    : all_(&all), first_(first), count_(count) {}

Time ReplayWork::duration(std::uint64_t block) const {
    if (block >= count_)
        throw std::out_of_range("replay: block " + std::to_string(block) + " is beyond the " + std::to_string(count_) +
                                " blocks of " + all_->source);
    return all_->durations[first_ + block];
}

std::string ReplayWork::describe() const {
    return "replay of " + std::to_string(count_) + " blocks from " + all_->source;
}

Application load_replay_timeline(const std::string& path, int threads, int regs, std::int64_t dynamic_smem,
                                 std::uint64_t max_rows) {
    max_rows = std::min(max_rows, kMaxReplayRows);
    check_parameter("replay_threads", "threads per block", threads, 1, kMaxSpecThreads);
    check_parameter("replay_regs", "registers per thread", regs, 0, kMaxSpecRegisters);
    check_parameter("replay_smem", "dynamic shared memory bytes", dynamic_smem, 0, kMaxSpecSharedBytes);

    TextLineReader reader(path, kWhat);
    std::string line;
    std::optional<Columns> columns;
    std::vector<LaunchKey> launches;
    std::vector<Row> rows;
    std::map<std::pair<std::string, std::string>, std::size_t> launch_index;
    std::uint64_t row_count = 0;
    std::vector<std::string> fields;
    std::size_t current = 0;  // index of the previous row's launch: consecutive rows usually share it
    while (reader.next(line)) {
        if (line.empty() || line[0] == '#' || trim(line).empty()) continue;
        if (reader.line_number() > std::numeric_limits<std::uint32_t>::max())
            throw InputError(reader.where() + ": too many lines in " + kWhat);
        split_csv(line, reader, fields);
        if (!columns) {
            columns = parse_header(fields, reader.where());
            continue;
        }
        if (fields.size() != columns->count)
            throw InputError(reader.where() + ": ragged row: " + std::to_string(fields.size()) +
                             " fields, but the header has " + std::to_string(columns->count));
        if (++row_count > max_rows)
            throw InputError(reader.where() + ": more than " + std::to_string(max_rows) + " block rows in " + kWhat);
        const std::int64_t block = parse_id(fields[columns->block], reader, "block");
        parse_id(fields[columns->sm], reader, "sm");
        if (block >= static_cast<std::int64_t>(kMaxReplayRows))
            throw InputError(reader.where() + ": column 'block': block id " + std::to_string(block) +
                             " is too large (at most " + std::to_string(kMaxReplayRows - 1) + ")");
        const Time start = parse_ns(fields[columns->start], reader, "start_ns");
        const Time end = parse_ns(fields[columns->end], reader, "end_ns");
        if (end < start)
            throw InputError(reader.where() + ": end_ns " + fields[columns->end] + " is before start_ns " +
                             fields[columns->start]);

        const std::string& kernel = columns->kernel ? fields[*columns->kernel] : kNone;
        const std::string& launch = columns->launch ? fields[*columns->launch] : kNone;
        if (launches.empty() || launches[current].kernel != kernel || launches[current].launch != launch) {
            auto [it, inserted] = launch_index.emplace(std::make_pair(kernel, launch), launches.size());
            if (inserted) {
                if (launches.size() >= kMaxLaunches)
                    throw InputError(reader.where() + ": more than " + std::to_string(kMaxLaunches) +
                                     " distinct launches in " + kWhat);
                launches.push_back({kernel, launch});
            }
            current = it->second;
        }
        rows.push_back({end - start, static_cast<std::uint32_t>(block), static_cast<std::uint32_t>(reader.line_number()),
                        static_cast<std::uint32_t>(current)});
    }
    if (!columns)
        throw InputError(path + ": empty " + kWhat + " (expected a header line with columns " + kRequired + ")");
    if (launches.empty()) throw InputError(path + ": " + kWhat + " has a header but no block rows");

    launch_index.clear();

    // Each launch's rows in file order (a counting sort by launch), then its durations by block.
    std::vector<std::size_t> begin(launches.size() + 1, 0);
    for (const Row& row : rows) ++begin[row.launch + 1];
    for (std::size_t l = 0; l < launches.size(); ++l) begin[l + 1] += begin[l];
    std::vector<std::uint32_t> order(rows.size());
    {
        std::vector<std::size_t> fill(begin.begin(), begin.end() - 1);
        for (std::size_t at = 0; at < rows.size(); ++at) order[fill[rows[at].launch]++] = static_cast<std::uint32_t>(at);
    }
    const auto timeline = std::make_shared<ReplayTimeline>();
    timeline->all.source = path;
    timeline->all.durations.assign(rows.size(), kUnset);
    for (std::size_t l = 0; l < launches.size(); ++l) {
        const std::span<const std::uint32_t> of_launch(order.data() + begin[l], begin[l + 1] - begin[l]);
        durations_by_block(rows, of_launch, launch_label(*columns, launches[l].kernel, launches[l].launch), path,
                           std::span<Time>(timeline->all.durations.data() + begin[l], of_launch.size()));
    }
    std::vector<Row>().swap(rows);
    std::vector<std::uint32_t>().swap(order);

    timeline->works.reserve(launches.size());
    for (std::size_t l = 0; l < launches.size(); ++l)
        timeline->works.emplace_back(timeline->all, begin[l], begin[l + 1] - begin[l]);
    Application app;
    app.description = "replay of " + path;
    app.launches.reserve(launches.size());
    for (std::size_t l = 0; l < launches.size(); ++l) {
        KernelLaunch& launch = app.launches.emplace_back();
        launch.name = launches[l].kernel.empty() ? "replay" : launches[l].kernel;
        launch.grid = Dim3{static_cast<std::uint32_t>(begin[l + 1] - begin[l]), 1, 1};
        launch.block = Dim3{static_cast<std::uint32_t>(threads), 1, 1};
        launch.registers_per_thread = regs;
        launch.dynamic_shared_bytes = dynamic_smem;
        launch.work = std::shared_ptr<const BlockWork>(timeline, &timeline->works[l]);
    }
    return app;
}

}  // namespace gpusched::workloads

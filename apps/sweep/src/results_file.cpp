// Results files: metadata lines, and a checked merge of shard parts in point order.
#include "gpusched/sweep/results_file.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <sstream>

#include "gpusched/support/input_error.h"
#include "gpusched/support/yaml_fields.h"
#include "gpusched/support/csv_records.h"
#include "gpusched/sweep/point_runner.h"
#include "gpusched/sweep/results_reader.h"

namespace gpusched::sweep {

namespace {

const char* const kMagic = "# gpusched sweep results";

std::string hex16(std::uint64_t v) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

struct ParsedPart {
    std::string study_line;
    std::string columns_line;
    std::uint64_t points = 0;
    Shard shard;
    std::vector<std::pair<std::uint64_t, std::string>> rows;  ///< (point, raw row)
};

/// Reads one part record by record, keeping its rows within `budget`.
ParsedPart parse_part(const std::string& name, const ResultsRecordSource& next, ResultsRowBudget& budget) {
    ParsedPart out;
    const auto fail = [&](std::size_t line, const std::string& what) -> ParsedPart {
        throw InputError(name + ":" + std::to_string(line) + ": " + what);
    };
    CsvRecord r;
    if (!next(r) || r.raw != kMagic)
        return fail(1, "not a gpusched sweep results file (expected first line '" + std::string(kMagic) + "')");
    std::size_t last_line = r.line;
    if (!next(r) || !r.raw.starts_with("# study ")) return fail(2, "expected the '# study' line");
    last_line = r.line;
    out.study_line = r.raw;
    const auto at = out.study_line.rfind(" points ");
    const auto points = at == std::string::npos ? std::nullopt : parse_integer(out.study_line.substr(at + 8));
    if (!points || *points < 0) return fail(r.line, "expected '... points N' at the end of the study line");
    out.points = static_cast<std::uint64_t>(*points);
    bool more = next(r);
    if (more && r.raw.starts_with("# shard ")) {
        out.shard = parse_shard(r.raw.substr(8), name + ":" + std::to_string(r.line) + ": shard");
        last_line = r.line;
        more = next(r);
    }
    if (!more || r.cells.empty() || r.cells[0] != "point")
        return fail(more ? r.line : last_line + 1, "expected the column line 'point,...'");
    out.columns_line = r.raw;
    const std::size_t columns = r.cells.size();
    while (next(r)) {
        if (r.cells.empty()) return fail(r.line, "unexpected metadata line among the rows");
        if (r.cells.size() != columns)
            return fail(r.line, std::to_string(r.cells.size()) + " cells; the column line has " + std::to_string(columns));
        const auto point = parse_integer(r.cells[0]);
        if (!point || *point < 0 || static_cast<std::uint64_t>(*point) >= out.points)
            return fail(r.line, "point '" + r.cells[0] + "' is not in 0.." + std::to_string(out.points - 1));
        if (!out.shard.contains(static_cast<std::uint64_t>(*point)))
            return fail(r.line, "point " + r.cells[0] + " does not belong to shard " + out.shard.text());
        // The row, and its entries in merge_parsed's index by point (pair, part, order: 32 bytes).
        budget.keep(sizeof(out.rows.front()) + ResultsRowBudget::cost(r.raw) + 32, name + ":" + std::to_string(r.line));
        out.rows.emplace_back(static_cast<std::uint64_t>(*point), std::move(r.raw));
    }
    return out;
}

/// Checks that the parts make one whole sweep and writes it in point order.
void merge_parsed(const std::vector<ParsedPart>& parsed, const std::vector<std::string>& names, std::ostream& out) {
    const ParsedPart& first = parsed.front();
    std::map<std::uint64_t, std::size_t> shard_part;
    for (std::size_t i = 0; i < parsed.size(); ++i) {
        const auto& p = parsed[i];
        if (p.study_line != first.study_line)
            throw InputError(names[i] + ": from another study or version of it ('" + p.study_line + "'; " +
                             names[0] + " has '" + first.study_line + "')");
        if (p.columns_line != first.columns_line)
            throw InputError(names[i] + ": its columns differ from " + names[0] + "'s");
        if (p.shard.count != first.shard.count)
            throw InputError(names[i] + ": shard " + p.shard.text() + " of a sweep split " +
                             std::to_string(p.shard.count) + " ways; " + names[0] + " is shard " +
                             first.shard.text());
        const auto [it, inserted] = shard_part.emplace(p.shard.index, i);
        if (!inserted)
            throw InputError(names[i] + ": shard " + p.shard.text() + " is also " + names[it->second]);
    }
    for (std::uint64_t s = 0; s < first.shard.count; ++s)
        if (!shard_part.count(s))
            throw InputError("merge: shard " + Shard{s, first.shard.count}.text() + " is missing (give all " +
                             std::to_string(first.shard.count) + " parts)");
    // The rows by point (sorted, never an array of `points` entries: the study line may claim any number).
    std::vector<std::pair<std::uint64_t, const std::string*>> rows;  // (point, row) in reading order
    std::vector<std::size_t> part_of;                                  // the part of each row
    for (std::size_t i = 0; i < parsed.size(); ++i)
        for (const auto& [point, raw] : parsed[i].rows) {
            rows.emplace_back(point, &raw);
            part_of.push_back(i);
        }
    std::vector<std::size_t> order(rows.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rows[a].first < rows[b].first; });
    // The first row, in reading order, whose point an earlier row has.
    std::optional<std::size_t> twice;
    for (std::size_t k = 1; k < order.size(); ++k)
        if (rows[order[k]].first == rows[order[k - 1]].first && (!twice || order[k] < *twice) &&
            (k < 2 || rows[order[k - 2]].first != rows[order[k]].first))
            twice = order[k];
    if (twice) {
        const std::uint64_t point = rows[*twice].first;
        const std::size_t i = part_of[*twice];
        const auto first_row = *std::find_if(order.begin(), order.end(), [&](std::size_t k) { return rows[k].first == point; });
        const std::size_t from = part_of[first_row];
        throw InputError(names[i] + ": point " + std::to_string(point) + " appears twice" +
                         (from != i ? " (also in " + names[from] + ")" : ""));
    }
    for (std::uint64_t p = 0; p < first.points; ++p)
        if (p >= order.size() || rows[order[static_cast<std::size_t>(p)]].first != p)
            throw InputError(names[shard_part[p % first.shard.count]] + ": point " +
                             std::to_string(p) + " is missing (an unfinished shard?)");
    out << kMagic << '\n' << first.study_line << '\n' << first.columns_line << '\n';
    for (const std::size_t k : order) out << *rows[k].second << '\n';
}

}  // namespace

std::vector<std::string> results_columns(const Study& study) {
    std::vector<std::string> columns{"point"};
    for (const auto& p : study.params) columns.push_back(p.name);
    for (const auto& m : metric_names()) columns.push_back(m);
    return columns;
}

std::string results_header(const Study& study, const Shard& shard) {
    std::string out = std::string(kMagic) + "\n# study " + study.name + " digest " + hex16(study.digest) + " points " +
                      std::to_string(study.total_points) + "\n";
    if (!shard.whole()) out += "# shard " + shard.text() + "\n";
    return out + csv_row(results_columns(study));
}

std::string merge_results(const std::vector<ResultsPart>& parts) {
    if (parts.empty()) throw InputError("merge: no results files given");
    ResultsRowBudget budget;
    std::vector<ParsedPart> parsed;
    std::vector<std::string> names;
    for (const auto& part : parts) {
        parsed.push_back(parse_part(part.name, results_records(part.text, part.name), budget));
        names.push_back(part.name);
    }
    std::ostringstream out;
    merge_parsed(parsed, names, out);
    return out.str();
}

void merge_results_files(const std::vector<std::string>& paths, const std::function<std::ostream&()>& open_output) {
    if (paths.empty()) throw InputError("merge: no results files given");
    ResultsRowBudget budget;
    std::vector<ParsedPart> parsed;
    for (const auto& path : paths) {
        ResultsReader reader(path);
        parsed.push_back(parse_part(path, reader.source(), budget));
    }
    merge_parsed(parsed, paths, open_output());
}

}  // namespace gpusched::sweep

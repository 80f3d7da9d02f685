// Results files: metadata lines, and a checked merge of shard parts in point order.
#include "gpusched/sweep/results_file.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "gpusched/support/input_error.h"
#include "gpusched/support/yaml_fields.h"
#include "gpusched/sweep/csv.h"
#include "gpusched/sweep/point_runner.h"

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

ParsedPart parse_part(const ResultsPart& part) {
    ParsedPart out;
    const auto records = read_csv_records(part.text, part.name);
    const auto fail = [&](std::size_t line, const std::string& what) -> ParsedPart {
        throw InputError(part.name + ":" + std::to_string(line) + ": " + what);
    };
    if (records.empty() || records[0].raw != kMagic)
        return fail(1, "not a gpusched sweep results file (expected first line '" + std::string(kMagic) + "')");
    std::size_t i = 1;
    if (i >= records.size() || !records[i].raw.starts_with("# study ")) return fail(2, "expected the '# study' line");
    out.study_line = records[i].raw;
    const auto at = out.study_line.rfind(" points ");
    const auto points = at == std::string::npos ? std::nullopt : parse_integer(out.study_line.substr(at + 8));
    if (!points || *points < 0) return fail(records[i].line, "expected '... points N' at the end of the study line");
    out.points = static_cast<std::uint64_t>(*points);
    ++i;
    if (i < records.size() && records[i].raw.starts_with("# shard ")) {
        out.shard = parse_shard(records[i].raw.substr(8), part.name + ":" + std::to_string(records[i].line) + ": shard");
        ++i;
    }
    if (i >= records.size() || records[i].cells.empty() || records[i].cells[0] != "point")
        return fail(i < records.size() ? records[i].line : records.back().line + 1, "expected the column line 'point,...'");
    out.columns_line = records[i].raw;
    const std::size_t columns = records[i].cells.size();
    for (++i; i < records.size(); ++i) {
        const auto& r = records[i];
        if (r.cells.empty()) return fail(r.line, "unexpected metadata line among the rows");
        if (r.cells.size() != columns)
            return fail(r.line, std::to_string(r.cells.size()) + " cells; the column line has " + std::to_string(columns));
        const auto point = parse_integer(r.cells[0]);
        if (!point || *point < 0 || static_cast<std::uint64_t>(*point) >= out.points)
            return fail(r.line, "point '" + r.cells[0] + "' is not in 0.." + std::to_string(out.points - 1));
        if (!out.shard.contains(static_cast<std::uint64_t>(*point)))
            return fail(r.line, "point " + r.cells[0] + " does not belong to shard " + out.shard.text());
        out.rows.emplace_back(static_cast<std::uint64_t>(*point), r.raw);
    }
    return out;
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
    std::vector<ParsedPart> parsed;
    for (const auto& part : parts) parsed.push_back(parse_part(part));
    const ParsedPart& first = parsed.front();
    std::map<std::uint64_t, std::size_t> shard_part;
    for (std::size_t i = 0; i < parsed.size(); ++i) {
        const auto& p = parsed[i];
        if (p.study_line != first.study_line)
            throw InputError(parts[i].name + ": from another study or version of it ('" + p.study_line + "'; " +
                             parts[0].name + " has '" + first.study_line + "')");
        if (p.columns_line != first.columns_line)
            throw InputError(parts[i].name + ": its columns differ from " + parts[0].name + "'s");
        if (p.shard.count != first.shard.count)
            throw InputError(parts[i].name + ": shard " + p.shard.text() + " of a sweep split " +
                             std::to_string(p.shard.count) + " ways; " + parts[0].name + " is shard " +
                             first.shard.text());
        const auto [it, inserted] = shard_part.emplace(p.shard.index, i);
        if (!inserted)
            throw InputError(parts[i].name + ": shard " + p.shard.text() + " is also " + parts[it->second].name);
    }
    for (std::uint64_t s = 0; s < first.shard.count; ++s)
        if (!shard_part.count(s))
            throw InputError("merge: shard " + Shard{s, first.shard.count}.text() + " is missing (give all " +
                             std::to_string(first.shard.count) + " parts)");
    std::vector<const std::string*> rows(first.points, nullptr);
    std::vector<std::size_t> from(first.points, 0);
    for (std::size_t i = 0; i < parsed.size(); ++i)
        for (const auto& [point, raw] : parsed[i].rows) {
            if (rows[point] != nullptr)
                throw InputError(parts[i].name + ": point " + std::to_string(point) + " appears twice" +
                                 (from[point] != i ? " (also in " + parts[from[point]].name + ")" : ""));
            rows[point] = &raw;
            from[point] = i;
        }
    for (std::uint64_t p = 0; p < first.points; ++p)
        if (rows[p] == nullptr)
            throw InputError(parts[static_cast<std::size_t>(shard_part[p % first.shard.count])].name + ": point " +
                             std::to_string(p) + " is missing (an unfinished shard?)");
    std::string out = std::string(kMagic) + "\n" + first.study_line + "\n" + first.columns_line + "\n";
    for (const auto* row : rows) out += *row + "\n";
    return out;
}

}  // namespace gpusched::sweep

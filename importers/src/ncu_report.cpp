// Reading Nsight Compute's CSV: header and units rows, thousands separators, SI-prefixed units converted exactly.
#include "gpusched/importers/ncu_report.h"

#include <map>

#include "gpusched/importers/decimal_number.h"
#include "gpusched/importers/gzip_stream.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/metadata_csv.h"
#include "gpusched/support/text.h"
#include "gpusched/support/text_file.h"

namespace gpusched::importers {

namespace {

constexpr std::size_t kMaxRows = 1'000'000;

constexpr std::uint64_t kMaxCsvBytes = std::uint64_t{256} << 20;

/// Power of ten that turns a value in `unit` into the column's base unit (ps for times), or nullopt.
/// Both spellings ncu versions print are taken: "nsecond" and "ns", "Mbyte" and "MB".
std::optional<int> unit_scale(const std::string& unit, const std::string& base) {
    static const std::map<std::string, int> prefix = {{"", 0}, {"K", 3}, {"M", 6}, {"G", 9}, {"T", 12}};
    if (base == "nsecond") {
        static const std::map<std::string, int> times = {{"nsecond", 3}, {"usecond", 6}, {"msecond", 9}, {"second", 12},
                                                         {"ns", 3},      {"us", 6},      {"ms", 9},      {"s", 12}};
        const auto it = times.find(unit.empty() ? "nsecond" : unit);
        return it == times.end() ? std::nullopt : std::optional<int>(it->second);
    }
    if (unit.empty()) return 0;
    for (const std::string& spelling : {base, base == "byte" ? std::string("B") : base}) {
        if (unit.size() < spelling.size() || unit.compare(unit.size() - spelling.size(), spelling.size(), spelling) != 0) continue;
        const auto it = prefix.find(unit.substr(0, unit.size() - spelling.size()));
        if (it != prefix.end()) return it->second;
    }
    return std::nullopt;
}

/// The CSV's lines (plain or gzip), each checked as text; "\r\n" endings and a byte order mark accepted.
std::vector<std::string> csv_lines(const std::string& path) {
    StreamLimits limits;
    limits.max_text_bytes = kMaxCsvBytes;
    GzipStream in(path, limits);
    std::string text, chunk(std::size_t{1} << 20, '\0');
    for (std::size_t got; (got = in.read(chunk.data(), chunk.size())) > 0;) text.append(chunk.data(), got);
    if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);
    std::vector<std::string> lines = split(text, '\n');
    if (!lines.empty() && lines.back().empty()) lines.pop_back();
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (!lines[i].empty() && lines[i].back() == '\r') lines[i].pop_back();
        const std::string where = path + ":" + std::to_string(i + 1);
        if (lines[i].size() > kMaxTextLineBytes) throw InputError(where + ": a line longer than 1 MiB (not an Nsight Compute CSV)");
        const std::string problem = text_line_problem(lines[i]);
        if (!problem.empty()) throw InputError(where + ": not a text Nsight Compute CSV (" + problem + ")");
    }
    return lines;
}

std::optional<std::array<std::uint32_t, 3>> parse_dims(const std::string& cell) {
    std::string inner = trim(cell);
    if (inner.size() < 2 || inner.front() != '(' || inner.back() != ')') return std::nullopt;
    const auto parts = split(inner.substr(1, inner.size() - 2), ',');
    if (parts.size() != 3) return std::nullopt;
    std::array<std::uint32_t, 3> out{};
    for (int d = 0; d < 3; ++d) {
        const auto v = scaled_decimal(trim(parts[d]), 0);
        if (!v || *v < 1 || *v > 2147483647 || trim(parts[d]).find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
        out[d] = static_cast<std::uint32_t>(*v);
    }
    return out;
}

}  // namespace

std::vector<NcuRow> read_ncu_csv(const std::string& path) {
    const std::vector<std::string> lines = csv_lines(path);
    std::vector<NcuRow> rows;
    std::map<std::string, std::size_t> column;
    std::vector<std::string> units;
    std::size_t header_size = 0;
    bool have_header = false, units_checked = false;
    std::vector<std::string> cells;
    const auto col = [&](const std::string& name) -> std::optional<std::size_t> {
        const auto it = column.find(name);
        return it == column.end() ? std::nullopt : std::optional<std::size_t>(it->second);
    };
    for (std::size_t number = 1; number <= lines.size(); ++number) {
        const std::string& line = lines[number - 1];
        const std::string where = path + ":" + std::to_string(number);
        if (trim(line).empty()) continue;
        if (!have_header) {
            if (line.rfind("==", 0) == 0) continue;
            split_csv_cells(line, true, 0, where, cells);
            for (std::size_t i = 0; i < cells.size(); ++i) column.emplace(cells[i], i);
            if (!col("Kernel Name"))
                throw InputError(where + ": not an Nsight Compute CSV: the header has no 'Kernel Name' column "
                                                  "(expected the output of ncu --csv --page raw --metrics ...)");
            for (const char* metric : {kNcuInstructions, kNcuDramBytes, kNcuL2Bytes})
                if (!col(metric))
                    throw InputError(where + ": missing column '" + metric + "' (collect it with --metrics; docs/importing.md)");
            header_size = cells.size();
            units.assign(header_size, "");
            have_header = true;
            continue;
        }
        split_csv_cells(line, true, 0, where, cells);
        if (cells.size() != header_size)
            throw InputError(where + ": ragged row: " + std::to_string(cells.size()) + " cells, but the header has " +
                             std::to_string(header_size));
        const std::size_t id_col = col("ID").value_or(*col("Kernel Name"));
        if (!units_checked) {
            units_checked = true;
            if (cells[id_col].empty()) {
                units = cells;
                for (const auto& [metric, base] : std::map<std::string, std::string>{
                         {kNcuInstructions, "inst"}, {kNcuDramBytes, "byte"}, {kNcuL2Bytes, "byte"}, {kNcuCycles, "cycle"}, {kNcuDuration, "nsecond"}})
                    if (const auto c = col(metric); c && !unit_scale(units[*c], base))
                        throw InputError(where + ": column '" + metric + "': unknown unit '" + units[*c] + "' (expected " + base +
                                         (base == "nsecond" ? " (or ns), usecond, msecond or second)" : " with an optional K, M, G or T prefix)"));
                continue;
            }
        }
        if (rows.size() >= kMaxRows) throw InputError(where + ": more than " + std::to_string(kMaxRows) + " kernel rows");
        NcuRow row;
        row.line = number;
        row.id = col("ID") ? cells[*col("ID")] : "";
        row.kernel_name = cells[*col("Kernel Name")];
        if (row.kernel_name.empty()) throw InputError(where + ": empty 'Kernel Name'");
        for (const auto& [name, target] : {std::pair<const char*, std::optional<std::array<std::uint32_t, 3>>*>{"Grid Size", &row.grid},
                                           {"Block Size", &row.block}}) {
            if (!col(name)) continue;
            *target = parse_dims(cells[*col(name)]);
            if (!*target) throw InputError(where + ": column '" + name + "': expected (x, y, z), got '" + cells[*col(name)] + "'");
        }
        const auto value = [&](const char* metric, const std::string& base, bool required) -> std::optional<std::int64_t> {
            const auto c = col(metric);
            if (!c) return std::nullopt;
            std::string text;
            for (const char ch : cells[*c])
                if (ch != ',') text.push_back(ch);
            if (!required && (text.empty() || text == "n/a")) return std::nullopt;
            const auto scaled = scaled_decimal(text, *unit_scale(units[*c], base));
            if (!scaled || *scaled < 0)
                throw InputError(where + ": column '" + metric + "': expected a non-negative number, got '" + cells[*c] + "'");
            return scaled;
        };
        row.instructions = static_cast<std::uint64_t>(*value(kNcuInstructions, "inst", true));
        row.dram_bytes = static_cast<std::uint64_t>(*value(kNcuDramBytes, "byte", true));
        row.l2_bytes = static_cast<std::uint64_t>(*value(kNcuL2Bytes, "byte", true));
        if (const auto c = value(kNcuCycles, "cycle", false)) row.cycles = static_cast<std::uint64_t>(*c);
        if (const auto d = value(kNcuDuration, "nsecond", false)) row.duration = *d;
        if (const auto c = col(kNcuOccupancy); c && !cells[*c].empty() && cells[*c] != "n/a") {
            const auto milli = scaled_decimal(cells[*c], 3);
            if (!milli || *milli < 0 || *milli > 100'000)
                throw InputError(where + ": column '" + kNcuOccupancy + "': expected a percentage, got '" + cells[*c] + "'");
            row.occupancy_pct = static_cast<double>(*milli) / 1000.0;
        }
        rows.push_back(std::move(row));
    }
    if (!have_header) throw InputError(path + ": not an Nsight Compute CSV: no header row with a 'Kernel Name' column");
    if (rows.empty()) throw InputError(path + ": no kernel rows after the header");
    return rows;
}

}  // namespace gpusched::importers

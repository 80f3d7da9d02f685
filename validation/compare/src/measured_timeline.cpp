// Reading measured timeline CSVs written by gpusched-runner.
#include "gpusched/validation/measured_timeline.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "gpusched/support/input_error.h"
#include "gpusched/support/text_file.h"
#include "gpusched/support/yaml_fields.h"

namespace gpusched::validation {

const std::string& MeasuredTimeline::meta(const std::string& key) const {
    const auto it = metadata.find(key);
    if (it == metadata.end()) throw InputError(path + ": metadata line '# " + key + "=' is missing");
    return it->second;
}

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
    while (in.next(line)) {
        if (line.empty()) continue;
        if (line[0] == '#') {
            const auto eq = line.find('=');
            if (eq != std::string::npos) t.metadata[line.substr(2, eq - 2)] = line.substr(eq + 1);
            continue;
        }
        const auto cells = split(line);
        const std::string where = in.where();
        if (columns.empty()) {
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
            return ns_to_ps(*v);
        };
        MeasuredBlock b{c_launch < columns.size() ? static_cast<std::uint64_t>(integer(c_launch)) : 0, static_cast<std::uint64_t>(integer(c_block)),
                        static_cast<int>(integer(c_sm)), ns(c_start), ns(c_end)};
        if (b.end < b.start) throw InputError(where + ": end_ns is before start_ns");
        t.blocks.push_back(b);
    }
    if (t.blocks.empty()) throw InputError(path + ": no blocks in measured timeline");
    return t;
}

}  // namespace gpusched::validation

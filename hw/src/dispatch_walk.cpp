// DispatchWalk checks and the --walk-start value parser.
#include "gpusched/hw/dispatch_walk.h"

#include <algorithm>

#include "gpusched/hw/yaml_fields.h"

namespace gpusched::hw {

std::string dispatch_walk_problem(const DispatchWalk& walk, int sm_count, const std::string& path) {
    std::vector<int> seen(static_cast<std::size_t>(sm_count), 0);
    std::string problem;
    const auto count = [&](int sm, const std::string& key) {
        if (!problem.empty()) return;
        if (sm < 0 || sm >= sm_count)
            problem = path + "." + key + ": SM id " + std::to_string(sm) + " outside 0.." + std::to_string(sm_count - 1);
        else if (seen[static_cast<std::size_t>(sm)]++ != 0)
            problem = path + "." + key + ": SM " + std::to_string(sm) + " listed twice (each SM once over lead and rows)";
    };
    for (int sm : walk.lead) count(sm, "lead");
    for (const auto& row : walk.rows) {
        if (row.empty() && problem.empty()) problem = path + ".rows: a row is empty";
        for (int sm : row) count(sm, "rows");
    }
    if (!problem.empty()) return problem;
    for (int sm = 0; sm < sm_count; ++sm)
        if (seen[static_cast<std::size_t>(sm)] == 0)
            return path + ": SM " + std::to_string(sm) + " is in neither lead nor rows (each SM once)";
    if (walk.rows.empty()) return path + ".rows: expected at least one row";
    if (walk.lead_first_gap < 1 || walk.lead_gap < 1)
        return path + ": lead_first_gap and lead_gap must be at least 1 row";
    if (walk.lead_step < 1 || (!walk.lead.empty() && walk.lead_step > static_cast<int>(walk.lead.size())))
        return path + ".lead_step: expected 1.." + std::to_string(std::max<std::size_t>(1, walk.lead.size())) + ", got " +
               std::to_string(walk.lead_step);
    if (walk.start_row < 0 || walk.start_row >= static_cast<int>(walk.rows.size()))
        return path + ".start_row: expected 0.." + std::to_string(walk.rows.size() - 1) + ", got " +
               std::to_string(walk.start_row);
    if (walk.lead_start < 0 || walk.lead_start >= static_cast<int>(walk.lead.size()))
        return path + ".lead_start: expected 0.." + std::to_string(walk.lead.size() - 1) + ", got " +
               std::to_string(walk.lead_start);
    return {};
}

std::string set_walk_start(DispatchWalk& walk, const std::string& text, const std::string& flag) {
    const auto colon = text.find(':');
    const auto row = parse_integer(text.substr(0, colon));
    const auto lead = colon == std::string::npos ? std::optional<std::int64_t>{0} : parse_integer(text.substr(colon + 1));
    const auto rows = static_cast<std::int64_t>(walk.rows.size());
    const auto leads = static_cast<std::int64_t>(walk.lead.size());
    if (!row || !lead || *row < 0 || *row >= rows || *lead < 0 || *lead >= leads)
        return flag + ": expected ROW or ROW:LEAD with ROW in 0.." + std::to_string(rows - 1) + " and LEAD in 0.." +
               std::to_string(leads - 1) + " (the GPU's topology.dispatch_walk), got '" + text + "'";
    walk.start_row = static_cast<int>(*row);
    walk.lead_start = static_cast<int>(*lead);
    return {};
}

}  // namespace gpusched::hw

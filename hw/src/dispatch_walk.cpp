// DispatchWalk checks and the --walk-start value parser.
#include "gpusched/hw/dispatch_walk.h"

#include <algorithm>

#include "gpusched/support/yaml_fields.h"

namespace gpusched::hw {

namespace {

/// Empty when lead + lists hold every SM 0..sm_count-1 exactly once; else what is wrong.
std::string cover_problem(const std::vector<int>& lead, const std::vector<std::vector<int>>& lists, int sm_count,
                          const std::string& path, const std::string& key) {
    std::vector<int> seen(static_cast<std::size_t>(sm_count), 0);
    const auto count = [&](int sm, const std::string& where) -> std::string {
        if (sm < 0 || sm >= sm_count)
            return path + "." + where + ": SM id " + std::to_string(sm) + " outside 0.." + std::to_string(sm_count - 1);
        if (seen[static_cast<std::size_t>(sm)]++ != 0)
            return path + "." + where + ": SM " + std::to_string(sm) + " listed twice (each SM once over lead and " +
                   key + ")";
        return {};
    };
    for (int sm : lead)
        if (auto p = count(sm, "lead"); !p.empty()) return p;
    for (const auto& list : lists) {
        if (list.empty()) return path + "." + key + ": a list is empty";
        for (int sm : list)
            if (auto p = count(sm, key); !p.empty()) return p;
    }
    for (int sm = 0; sm < sm_count; ++sm)
        if (seen[static_cast<std::size_t>(sm)] == 0)
            return path + ": SM " + std::to_string(sm) + " is in neither lead nor " + key + " (each SM once)";
    return {};
}

}  // namespace

std::string dispatch_walk_problem(const DispatchWalk& walk, int sm_count, const std::string& path) {
    if (walk.rows.empty()) return path + ".rows: expected at least one row";
    if (auto p = cover_problem(walk.lead, walk.rows, sm_count, path, "rows"); !p.empty()) return p;
    if (!walk.groups.empty())
        if (auto p = cover_problem(walk.lead, walk.groups, sm_count, path, "groups"); !p.empty()) return p;
    if (walk.lead_first_gap < 1 || walk.lead_gap < 1)
        return path + ": lead_first_gap and lead_gap must be at least 1 row";
    if (walk.lead_step < 1 || (!walk.lead.empty() && walk.lead_step > static_cast<int>(walk.lead.size())))
        return path + ".lead_step: expected 1.." + std::to_string(std::max<std::size_t>(1, walk.lead.size())) + ", got " +
               std::to_string(walk.lead_step);
    if (walk.start_row < 0 || walk.start_row >= static_cast<int>(walk.rows.size()))
        return path + ".start_row: expected 0.." + std::to_string(walk.rows.size() - 1) + ", got " +
               std::to_string(walk.start_row);
    if (walk.lead_start < 0 || walk.lead_start >= static_cast<int>(std::max<std::size_t>(1, walk.lead.size())))
        return path + ".lead_start: expected 0.." + std::to_string(std::max<std::size_t>(1, walk.lead.size()) - 1) + ", got " +
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

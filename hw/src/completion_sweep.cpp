// CompletionSweep checks.
#include "gpusched/hw/completion_sweep.h"

namespace gpusched::hw {

std::string completion_sweep_problem(const CompletionSweep& sweep, int sm_count, const std::string& path) {
    if (sweep.visits.empty()) return path + ": expected at least one visit ({sms: [...], releases: N})";
    std::vector<int> seen(static_cast<std::size_t>(sm_count), 0);
    for (std::size_t v = 0; v < sweep.visits.size(); ++v) {
        const CompletionSweepVisit& visit = sweep.visits[v];
        const std::string where = path + "[" + std::to_string(v) + "]";
        if (visit.sms.empty()) return where + ".sms: expected at least one SM id";
        if (!(visit.releases >= 0.01 && visit.releases <= 1e6))
            return where + ".releases: expected a number in [0.01, 1000000], got " + std::to_string(visit.releases);
        for (int sm : visit.sms) {
            if (sm < 0 || sm >= sm_count)
                return where + ".sms: SM id " + std::to_string(sm) + " outside 0.." + std::to_string(sm_count - 1);
            if (seen[static_cast<std::size_t>(sm)]++ != 0)
                return where + ".sms: SM " + std::to_string(sm) + " listed twice (each SM in exactly one visit)";
        }
    }
    for (int sm = 0; sm < sm_count; ++sm)
        if (seen[static_cast<std::size_t>(sm)] == 0)
            return path + ": SM " + std::to_string(sm) + " is in no visit (each SM in exactly one visit)";
    return {};
}

}  // namespace gpusched::hw

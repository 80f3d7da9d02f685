// Collecting the rule notes of an application's work models, once each.
#include "gpusched/workloads/work_notes.h"

#include <map>

namespace gpusched::workloads {

std::vector<std::string> application_notes(const Application& app, const hw::GpuSpec& gpu, const std::string& execution) {
    struct Seen {
        std::size_t first = 0;
        std::size_t count = 0;
    };
    std::vector<std::string> order;
    std::map<std::string, Seen> seen;
    std::map<const BlockWork*, std::vector<std::string>> by_work;  // launches share works: ask each once
    for (std::size_t i = 0; i < app.launches.size(); ++i) {
        const auto* noted = dynamic_cast<const WorkNotes*>(app.launches[i].work.get());
        if (noted == nullptr) continue;
        auto [it, fresh] = by_work.try_emplace(app.launches[i].work.get());
        if (fresh) it->second = noted->notes(gpu, execution);
        for (const auto& note : it->second) {
            auto [at, first] = seen.try_emplace(note, Seen{i, 0});
            if (first) order.push_back(note);
            ++at->second.count;
        }
    }
    std::vector<std::string> out;
    for (const auto& note : order) {
        const Seen& s = seen[note];
        std::string where = "launch " + std::to_string(s.first) + " (" + app.launches[s.first].name + ")";
        if (s.count > 1) where += " and " + std::to_string(s.count - 1) + " more";
        out.push_back(where + ": " + note);
    }
    return out;
}

}  // namespace gpusched::workloads

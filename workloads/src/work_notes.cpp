// Collecting the rule notes of an application's work models, once each.
#include "gpusched/workloads/work_notes.h"

#include <map>

namespace gpusched::workloads {

namespace {

/// "0-16, 18, 20-29": the indices (ascending) as ranges, at most `shown` of them, then "...".
std::string index_ranges(const std::vector<std::size_t>& indices, std::size_t shown) {
    std::string out;
    std::size_t ranges = 0;
    for (std::size_t i = 0; i < indices.size();) {
        std::size_t j = i;
        while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1) ++j;
        if (ranges == shown) return out + ", ...";
        out += (ranges++ == 0 ? "" : ", ") + std::to_string(indices[i]) +
               (j > i ? "-" + std::to_string(indices[j]) : std::string());
        i = j + 1;
    }
    return out;
}

}  // namespace

std::vector<std::string> application_notes(const Application& app, const hw::GpuSpec& gpu, const std::string& execution,
                                           NoteDetail detail) {
    std::vector<std::string> order;
    std::map<std::string, std::vector<std::size_t>> seen;  // rule -> the launches that gave it, ascending
    std::map<std::string, std::string> whole;              // rule -> the first launch's whole note (with its detail)
    std::map<const BlockWork*, std::vector<std::string>> by_work;  // launches share works: ask each once
    std::vector<std::string> out;
    for (std::size_t i = 0; i < app.launches.size(); ++i) {
        const auto* noted = dynamic_cast<const WorkNotes*>(app.launches[i].work.get());
        if (noted == nullptr) continue;
        auto [it, fresh] = by_work.try_emplace(app.launches[i].work.get());
        if (fresh) it->second = noted->notes(gpu, execution);
        for (const auto& note : it->second) {
            if (detail == NoteDetail::every_launch) {
                out.push_back("launch " + std::to_string(i) + " (" + app.launches[i].name + "): " + note);
                continue;
            }
            const std::string rule = note.substr(0, note.find(kNoteDetail));
            auto [at, first] = seen.try_emplace(rule);
            if (first) {
                order.push_back(rule);
                whole[rule] = note;
            }
            at->second.push_back(i);
        }
    }
    for (const auto& rule : order) {
        const std::vector<std::size_t>& launches = seen[rule];
        const std::size_t first = launches.front();
        if (launches.size() == 1)
            out.push_back("launch " + std::to_string(first) + " (" + app.launches[first].name + "): " + whole[rule]);
        else
            out.push_back(std::to_string(launches.size()) + " launches (" + index_ranges(launches, 6) + "): " + rule);
    }
    return out;
}

}  // namespace gpusched::workloads

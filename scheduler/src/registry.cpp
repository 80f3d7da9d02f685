// Name -> factory table of the built-in dispatch policies.
#include "gpusched/scheduler/registry.h"

#include <functional>

#include "gpusched/support/key_error.h"
#include "policies.h"

namespace gpusched::scheduler {

namespace {

struct Entry {
    PolicyInfo info;
    std::function<std::unique_ptr<sim::DispatchPolicy>()> make;
};

const std::vector<Entry>& entries() {
    static const std::vector<Entry> table = {
        {{"most-room", "hardware-like default: blocks in order, each to the SM with room for the most more "
                       "blocks (ties by the GPU's SM order); work-conserving"},
         make_most_room},
        {{"round-robin", "blocks in order, each to the next SM in cyclic order that has room; work-conserving"},
         make_round_robin},
        {{"static-rr", "block i pre-assigned to SM i mod S, each SM runs its own list (interval paper: Full)"},
         make_static_rr},
        {{"buckets", "runs of blocks-per-SM consecutive blocks pre-assigned round-robin (interval paper: Buckets)"},
         make_buckets},
        {{"sorted", "list scheduling: blocks by decreasing active warps, each to the SM with the fewest "
                    "accumulated warps (interval paper: Sorted)"},
         make_sorted},
        {{"min", "fluid lower bound: active warps spread evenly over SMs ignoring block boundaries "
                 "(interval paper: Min); outputs list warps, not blocks"},
         make_min_fluid},
        {{"walk", "measured H100 distributor: blocks in order along the GPU's topology.dispatch_walk (a lead "
                  "group of SMs, then rows of SMs in a cycle; first wave exact on the H100); work-conserving"},
         make_walk},
    };
    return table;
}

}  // namespace

const std::vector<PolicyInfo>& policies() {
    static const std::vector<PolicyInfo> infos = [] {
        std::vector<PolicyInfo> out;
        for (const auto& e : entries()) out.push_back(e.info);
        return out;
    }();
    return infos;
}

const std::string& default_policy() { return policies().front().name; }

std::unique_ptr<sim::DispatchPolicy> make_policy(const std::string& name) {
    for (const auto& e : entries())
        if (e.info.name == name) return e.make();
    std::string known;
    for (const auto& e : entries()) known += (known.empty() ? "" : ", ") + e.info.name;
    throw KeyError("policy", "unknown policy '" + name + "' (known: " + known + ")");
}

}  // namespace gpusched::scheduler

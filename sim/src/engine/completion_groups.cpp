// CompletionGroups: reuse of group ids.
#include "gpusched/sim/engine/completion_groups.h"

namespace gpusched::sim {

std::uint32_t CompletionGroups::open() {
    if (free_.empty()) {
        groups_.emplace_back();
        return static_cast<std::uint32_t>(groups_.size() - 1);
    }
    const std::uint32_t group = free_.back();
    free_.pop_back();
    return group;
}

}  // namespace gpusched::sim

// SweptCompletionQueue: the completion channel's queue served visit by visit (hw::CompletionSweep).
#include "gpusched/sim/engine/swept_completion_queue.h"

#include <cmath>

namespace gpusched::sim {

SweptCompletionQueue::SweptCompletionQueue(const hw::CompletionSweep& sweep, int sm_count)
    : visit_of_(static_cast<std::size_t>(sm_count), 0), queued_(static_cast<std::size_t>(sm_count)) {
    for (const auto& visit : sweep.visits) {
        for (int sm : visit.sms) visit_of_[static_cast<std::size_t>(sm)] = visits_.size();
        visits_.push_back(Visit{visit.sms, visit.releases});
    }
}

void SweptCompletionQueue::restart() {
    for (Visit& visit : visits_) {
        visit.credit = 0;
        visit.next = 0;
    }
    current_ = 0;
    entered_ = false;
    left_ = 0;
}

void SweptCompletionQueue::push(int sm, std::uint32_t at) {
    queued_[static_cast<std::size_t>(sm)].push_back(at);
    ++visits_[visit_of_[static_cast<std::size_t>(sm)]].waiting;
    ++waiting_;
}

std::uint32_t SweptCompletionQueue::pop() {
    for (;;) {
        Visit& visit = visits_[current_];
        if (!entered_) {
            entered_ = true;
            visit.credit += visit.releases;
            const double whole = std::floor(visit.credit);
            visit.credit -= whole;
            left_ = static_cast<int>(whole);
        }
        if (left_ > 0 && visit.waiting > 0) {
            const std::size_t n = visit.sms.size();
            for (std::size_t k = 0; k < n; ++k) {
                const std::size_t i = (visit.next + k) % n;
                auto& queue = queued_[static_cast<std::size_t>(visit.sms[i])];
                if (queue.empty()) continue;
                const std::uint32_t at = queue.front();
                queue.pop_front();
                visit.next = (i + 1) % n;
                --visit.waiting;
                --waiting_;
                --left_;
                return at;
            }
        }
        current_ = (current_ + 1) % visits_.size();
        entered_ = false;
    }
}

}  // namespace gpusched::sim

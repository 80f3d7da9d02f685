// Slot durations of a measured timeline: each block's dispatch inferred from in-order dispatch and prompt refills.
#include "experiments/user_timelines/slot_durations.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <queue>
#include <span>
#include <string>

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/replay_timeline.h"

namespace gpusched::validation {

namespace {

constexpr Time kLateStart = 1'000'000;  // 1 us in ps: what counts as a late first stamp

/// The replay's storage, shared by the launches' works (as load_replay_timeline keeps it).
struct SlotTimeline {
    workloads::ReplayDurations all;
    std::vector<workloads::ReplayWork> works;
};

/// One launch's slot durations by block id; `blocks` are its measured blocks.
void infer_launch(std::vector<const MeasuredBlock*> blocks, int slots_per_sm, Time refill_delay, std::span<Time> out,
                  SlotInference& found) {
    Time origin = blocks.front()->start;
    for (const MeasuredBlock* b : blocks) origin = std::min(origin, b->start);
    std::sort(blocks.begin(), blocks.end(), [](const MeasuredBlock* a, const MeasuredBlock* b) {
        return a->sm != b->sm ? a->sm < b->sm : a->block < b->block;
    });
    std::priority_queue<Time, std::vector<Time>, std::greater<>> held;  // ends of the blocks in the SM's slots
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        const MeasuredBlock& b = *blocks[i];
        if (i == 0 || blocks[i - 1]->sm != b.sm) held = {};
        Time dispatch = origin;
        if (held.size() >= static_cast<std::size_t>(slots_per_sm)) {
            dispatch = held.top() + refill_delay;
            held.pop();
            ++found.refills;
        }
        if (b.start < dispatch) {
            ++found.stamp_before_slot;
            dispatch = b.start;
        }
        const Time wait = b.start - dispatch;
        if (wait > kLateStart) ++found.late_starts;
        found.longest_wait = std::max(found.longest_wait, wait);
        held.push(b.end);
        out[b.block] = b.end - dispatch;
    }
}

}  // namespace

const char* to_string(BlockDurations d) {
    switch (d) {
        case BlockDurations::slot: return "slot";
        case BlockDurations::stamps: return "stamps";
        case BlockDurations::automatic: break;
    }
    return "auto";
}

BlockDurations parse_block_durations(const std::string& text, const std::string& key) {
    if (text == "slot") return BlockDurations::slot;
    if (text == "stamps") return BlockDurations::stamps;
    if (text == "auto") return BlockDurations::automatic;
    throw InputError(key + ": expected 'auto', 'slot' or 'stamps', got '" + text.substr(0, 40) + "'");
}

std::uint64_t out_of_order_stamps(const MeasuredTimeline& measured) {
    std::map<std::uint64_t, std::vector<const MeasuredBlock*>> launches;
    for (const MeasuredBlock& b : measured.blocks) launches[b.launch].push_back(&b);
    std::uint64_t count = 0;
    for (auto& [launch, blocks] : launches) {
        std::sort(blocks.begin(), blocks.end(), [](const MeasuredBlock* a, const MeasuredBlock* b) { return a->block > b->block; });
        Time earliest_later = std::numeric_limits<Time>::max();  // earliest stamp among higher block ids
        for (const MeasuredBlock* b : blocks) {
            if (earliest_later != std::numeric_limits<Time>::max() && b->start > earliest_later + kLateStart) ++count;
            earliest_later = std::min(earliest_later, b->start);
        }
    }
    return count;
}

workloads::Application with_slot_durations(const MeasuredTimeline& measured, const workloads::Application& app,
                                           int slots_per_sm, Time refill_delay, SlotInference* found) {
    if (slots_per_sm < 1) throw InputError(measured.path + ": slot durations need at least one block per SM");
    // The launches in order of first appearance, as load_replay_timeline numbers them.
    std::map<std::uint64_t, std::size_t> index;
    std::vector<std::vector<const MeasuredBlock*>> launches;
    for (const MeasuredBlock& b : measured.blocks) {
        const auto [it, inserted] = index.emplace(b.launch, launches.size());
        if (inserted) launches.emplace_back();
        launches[it->second].push_back(&b);
    }
    if (launches.size() != app.launches.size())
        throw InputError(measured.path + ": " + std::to_string(launches.size()) + " launches by the 'launch' column but " +
                         std::to_string(app.launches.size()) + " replayed (slot durations need one kernel per launch)");
    auto timeline = std::make_shared<SlotTimeline>();
    timeline->all.source = measured.path;
    std::vector<std::size_t> first(launches.size() + 1, 0);
    for (std::size_t l = 0; l < launches.size(); ++l) first[l + 1] = first[l] + launches[l].size();
    timeline->all.durations.assign(first.back(), 0);
    SlotInference local;
    for (std::size_t l = 0; l < launches.size(); ++l) {
        if (launches[l].size() != app.launches[l].grid.count())
            throw InputError(measured.path + ": launch " + std::to_string(launches[l].front()->launch) + " has " +
                             std::to_string(launches[l].size()) + " blocks but its replay " +
                             std::to_string(app.launches[l].grid.count()));
        infer_launch(launches[l], slots_per_sm, refill_delay,
                     std::span<Time>(timeline->all.durations.data() + first[l], launches[l].size()), local);
    }
    timeline->works.reserve(launches.size());
    for (std::size_t l = 0; l < launches.size(); ++l)
        timeline->works.emplace_back(timeline->all, first[l], launches[l].size());
    std::vector<workloads::KernelLaunch> with_slots(app.launches.begin(), app.launches.end());
    for (std::size_t l = 0; l < launches.size(); ++l)
        with_slots[l].work = std::shared_ptr<const workloads::BlockWork>(timeline, &timeline->works[l]);
    workloads::Application out = app;
    out.launches = workloads::LaunchList(std::move(with_slots));
    if (found) *found = local;
    return out;
}

}  // namespace gpusched::validation

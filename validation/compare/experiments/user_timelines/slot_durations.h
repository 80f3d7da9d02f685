// Slot durations: a measured block's time in its SM slot, from dispatch (inferred) to end, not from its first stamp.
#pragma once

#include <cstdint>

#include "gpusched/validation/measured_timeline.h"
#include "gpusched/workloads/application.h"

namespace gpusched::validation {

/// How a replay takes each block's duration from a measured timeline.
enum class BlockDurations {
    stamps,     ///< end - start: the block's own first and last stamp
    slot,       ///< end - inferred dispatch (below): the time the block held its SM slot
    automatic,  ///< slot where the file shows stamps that are not dispatch times (out_of_order_stamps > 0)
};

/// "stamps" / "slot" / "auto"; parse: InputError naming `key` and the allowed values for anything else.
const char* to_string(BlockDurations d);
BlockDurations parse_block_durations(const std::string& text, const std::string& key);

/// What the inference found in one timeline.
struct SlotInference {
    std::uint64_t refills = 0;      ///< blocks that took a slot another block of their launch freed
    std::uint64_t late_starts = 0;  ///< blocks whose first stamp is > 1 us after their inferred dispatch
    Time longest_wait = 0;          ///< the largest first stamp - inferred dispatch
    std::uint64_t stamp_before_slot = 0;  ///< blocks stamped before their inferred slot was free (kept at the stamp)
};

/// Blocks first stamped more than 1 us after a block of the same launch with a higher id was
/// (in-order dispatch put that one later): their stamp is not their dispatch (their warps waited
/// for issue slots). Spin kernels, whose first instruction runs at once, have none.
std::uint64_t out_of_order_stamps(const MeasuredTimeline& measured);

/// Infers when each block was dispatched, launch by launch and SM by SM, from two measured rules:
/// the GPU hands out a launch's blocks in block order (docs/scheduling.md, the dispatch walk), and
/// it refills a freed slot within ~0.2 us (validation/data/h100/refill_latency). So on each SM the
/// `slots_per_sm` lowest block ids of a launch started at the launch's first stamp, and each later
/// block (in id order) `refill_delay` after the earliest end among the blocks then holding that
/// SM's slots (the simulator's own refill delay for the block's shape, so that the replay does not
/// count it twice). A block's slot duration is its end minus that start; a block stamped earlier
/// keeps its stamp. Why: a block's first stamp can come long after its dispatch
/// (a new block's warps wait for issue slots behind older issue-bound warps: up to 33 us in
/// varying_work), and a replay that starts it at dispatch with the stamp-to-end duration ends early.
/// Returns the durations in the order of load_replay_timeline (launches in order of first
/// appearance, blocks by id) as an application like `app` (same launches, `slot` durations).
workloads::Application with_slot_durations(const MeasuredTimeline& measured, const workloads::Application& app,
                                           int slots_per_sm, Time refill_delay, SlotInference* found = nullptr);

}  // namespace gpusched::validation

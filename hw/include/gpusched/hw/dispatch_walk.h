// DispatchWalk: plain data for the order in which a GPU's block distributor visits its SMs.
#pragma once

#include <string>
#include <vector>

namespace gpusched::hw {

/// The measured first-wave walk of a block distributor (H100: docs/scheduling.md, "The
/// dispatch walk"). A launch visits the `lead` SMs first (starting at index `lead_start`),
/// then the `rows` cyclically from row `start_row`, one SM after another; the lead is due
/// again `lead_first_gap` rows after its first visit and every `lead_gap` rows after that.
/// `start_row` and `lead_start` are hardware state that moves between launches. The lead
/// may be empty (a plain cyclic walk over the rows).
///
/// When a round of the initial fill has fewer blocks left than SMs that could take one
/// (a grid under one block per SM, or the last partial round), only a quota of SMs takes
/// them: the lead's SMs first, then the `groups` (GPC-like SM ranges, in order) one SM per
/// TPC (`sms_per_tpc` consecutive ids) before any TPC's second SM; the walk order stays.
/// Without `groups` the quota is simply the next SMs of the walk.
///
/// Sample (h100 preset, 265 blocks of 1024 threads, start_row 2): SMs 124..131, rows
/// C D E F G, the lead again (the SMs' second slots), rows H A B C D E F G H A B, then
/// the 265th block to whichever slot frees first.
struct DispatchWalk {
    std::vector<int> lead;
    std::vector<std::vector<int>> rows;
    /// Every SM outside the lead exactly once, in quota order; empty = no quota rule.
    std::vector<std::vector<int>> groups;
    int lead_first_gap = 1;
    int lead_gap = 1;
    int start_row = 0;
    int lead_start = 0;
    /// The next launch's lead_start is a multiple of this (see scheduler/src/walk.cpp).
    int lead_step = 1;

    bool operator==(const DispatchWalk&) const = default;
};

/// Empty when `walk` lists every SM 0..sm_count-1 exactly once over lead and rows (and over
/// lead and groups, if any) and its integers are in range; otherwise what is wrong, naming
/// the key under `path`.
std::string dispatch_walk_problem(const DispatchWalk& walk, int sm_count, const std::string& path);

/// Parses "ROW" or "ROW:LEAD" (the --walk-start value) into walk.start_row/lead_start;
/// an error message naming `flag` and the allowed ranges, or empty on success.
std::string set_walk_start(DispatchWalk& walk, const std::string& text, const std::string& flag);

}  // namespace gpusched::hw

// CompletionSweep: plain data for the order in which a GPU's completion channel takes queued completions.
#pragma once

#include <string>
#include <vector>

namespace gpusched::hw {

/// When block completions queue at the completion channel (overheads.block_completion_interval_ns),
/// the channel does not take them in the order the blocks ended: it visits groups of SMs in turn
/// and takes up to `releases` queued completions per visit, the SMs of a group round-robin.
/// A fractional `releases` carries over to the group's next visit (1.5: one, then two). A visit
/// to a group with nothing queued is skipped. Without a sweep the channel is first-come first-served.
///
/// H100 (h100 preset, validation/data/h100/placement/tiny32.csv, docs/scheduling.md "The
/// completion sweep"): the dispatch walk's row 0, the lead, then rows 1..7; 3 completions per
/// visit of a 16- or 18-SM row and 1.5 per visit of an 8-SM group, so with every SM waiting the
/// SMs of the two 18-SM rows get 3/18 of a visit's share where all others get 3/16.
struct CompletionSweepVisit {
    std::vector<int> sms;
    double releases = 1;

    bool operator==(const CompletionSweepVisit&) const = default;
};

struct CompletionSweep {
    std::vector<CompletionSweepVisit> visits;

    bool operator==(const CompletionSweep&) const = default;
};

/// Empty when the visits list every SM 0..sm_count-1 exactly once and every `releases` is in
/// [0.01, 10^6]; otherwise what is wrong, naming the key under `path`.
std::string completion_sweep_problem(const CompletionSweep& sweep, int sm_count, const std::string& path);

}  // namespace gpusched::hw

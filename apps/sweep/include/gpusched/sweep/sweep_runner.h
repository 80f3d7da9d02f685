// Sweep runner: a study's points (one shard of them) on N threads, rows in point order.
#pragma once

#include <cstdint>
#include <ostream>

#include "gpusched/sweep/shard.h"
#include "gpusched/sweep/study.h"

namespace gpusched::sweep {

struct SweepOptions {
    unsigned threads = 1;          ///< worker threads (>= 1)
    Shard shard;
    std::ostream* progress = nullptr;  ///< where progress goes (nullptr: none)
    bool progress_terminal = false;    ///< draw a bar in place (stderr is a terminal)
};

/// What a sweep did.
struct SweepStats {
    std::uint64_t points = 0;  ///< rows written
    std::uint64_t errors = 0;  ///< rows with an error
};

/// Runs the shard's points and writes results_header() and one row per point, in point
/// order, to `out`, each row as soon as every earlier one is done (memory stays bounded by
/// a window of rows per thread, whatever the number of points). The output depends only on
/// the study and the shard, never on the number of threads or their timing.
SweepStats run_sweep(const Study& study, const SweepOptions& options, std::ostream& out);

}  // namespace gpusched::sweep

// Sweep runner: a study's points (one shard of them) on N threads, rows in point order.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <stdexcept>
#include <string>

#include "gpusched/sweep/shard.h"
#include "gpusched/sweep/study.h"

namespace gpusched::sweep {

struct SweepOptions {
    unsigned threads = 1;          ///< worker threads (>= 1)
    Shard shard;
    std::ostream* progress = nullptr;  ///< a terminal for the progress bar (nullptr: none)
    /// Polled about every 0.1 s by the thread that writes rows; when it returns true the sweep
    /// stops after the rows written so far and run_sweep throws SweepStopped.
    std::function<bool()> stop_requested;
};

/// A sweep stopped by SweepOptions::stop_requested: `written` of `total` rows were written.
class SweepStopped : public std::runtime_error {
public:
    SweepStopped(std::uint64_t written, std::uint64_t total);
    std::uint64_t written;
    std::uint64_t total;
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

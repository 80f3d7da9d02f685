// Results files: the sweep CSV's metadata and header lines, and merging shard parts into one file.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "gpusched/sweep/shard.h"
#include "gpusched/sweep/study.h"

namespace gpusched::sweep {

/// The largest results file read by merge and plot (a million points is about 200 MiB); the rows they
/// keep have a lower limit, kMaxResultsHeldBytes (results_reader.h).
constexpr std::size_t kMaxResultsFileBytes = std::size_t{1} << 30;

/// The lines before the rows:
///
///     # gpusched sweep results
///     # study NAME digest 0123456789abcdef points 120
///     # shard 1/4                                  (parts of a sharded sweep only)
///     point,gpu,policy,exec,workload,n,...,makespan_ns,...,error
///
/// `point` is the index in the study (docs/sweep.md); rows follow in point order.
std::string results_header(const Study& study, const Shard& shard);

/// The column names of a study's results (the last header line, as cells).
std::vector<std::string> results_columns(const Study& study);

/// One results file to merge: its text and its name for messages.
struct ResultsPart {
    std::string name;
    std::string text;
};

/// Joins the parts of a sharded sweep into the file a one-process sweep writes (byte for
/// byte). Throws InputError naming the part when parts come from different studies (study
/// line or columns differ), a shard is missing or given twice, shard counts differ, a row's
/// point does not belong to its shard, a point is missing or repeated, or a part is not a
/// sweep results file.
std::string merge_results(const std::vector<ResultsPart>& parts);

/// merge_results over files, each read record by record (ResultsReader) with the rows of all of them
/// kept within kMaxResultsHeldBytes. Once every part is read, `open_output` gives the stream the
/// merged file goes to (after the checks, it is written row by row, never held whole).
void merge_results_files(const std::vector<std::string>& paths, const std::function<std::ostream&()>& open_output);

}  // namespace gpusched::sweep

// ResultsReader: a results CSV read record by record within byte caps, and the budget of the rows kept from it.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "gpusched/support/text_file.h"
#include "gpusched/support/csv_records.h"

namespace gpusched::sweep {

/// The memory the rows that one merge or plot keeps may take (ResultsRowBudget): far below what an
/// endless pipe would fill, and room for about half a million rows of a 20-column sweep.
constexpr std::size_t kMaxResultsHeldBytes = std::size_t{128} << 20;

/// The next record of a results file into `record`; false at its end.
using ResultsRecordSource = std::function<bool(CsvRecord& record)>;

/// The records of results text already in memory (read_csv_records), one at a time.
ResultsRecordSource results_records(std::string_view text, const std::string& source);

/// Reads a results file (a sweep's or merge's CSV) one record at a time, by read_csv_records' rules
/// (quoted cells may span lines; '#' lines are records without cells; empty lines are skipped),
/// holding only the record at hand. Each line is checked as read_text_file checks it; a file over
/// kMaxResultsFileBytes, an endless pipe or device stops with InputError "PATH: results file is
/// larger than N bytes" once that many bytes came.
class ResultsReader {
public:
    /// Opens the file (InputError "PATH: cannot read results file: ..." when it cannot be).
    explicit ResultsReader(std::string path);

    /// The next record; false at the end of the file.
    bool next(CsvRecord& record);
    /// next() as a ResultsRecordSource (the reader must outlive it).
    [[nodiscard]] ResultsRecordSource source() {
        return [this](CsvRecord& record) { return next(record); };
    }
    [[nodiscard]] const std::string& path() const { return path_; }

private:
    std::string path_;
    TextLineReader lines_;
    std::size_t bytes_ = 0;
    std::vector<CsvRecord> ready_;  ///< records parsed, not yet returned (at most one)
};

/// What the rows one command keeps from results files may take, estimated from their strings:
/// InputError "WHERE: ..." once past kMaxResultsHeldBytes.
class ResultsRowBudget {
public:
    /// The memory a kept string takes: its object, and its characters when they do not fit inside it.
    [[nodiscard]] static std::size_t cost(const std::string& text);
    /// Counts `bytes` more; `where` ("PATH:LINE") names the row that went past the budget.
    void keep(std::size_t bytes, const std::string& where);
    [[nodiscard]] std::size_t held() const { return held_; }

private:
    std::size_t held_ = 0;
};

}  // namespace gpusched::sweep

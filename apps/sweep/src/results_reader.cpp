// ResultsReader: results CSV records from a bounded line reader; ResultsRowBudget: the memory kept rows take.
#include "gpusched/sweep/results_reader.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "gpusched/support/input_error.h"
#include "gpusched/sweep/results_file.h"

namespace gpusched::sweep {

ResultsRecordSource results_records(std::string_view text, const std::string& source) {
    auto records = std::make_shared<std::vector<CsvRecord>>(read_csv_records(text, source));
    auto at = std::make_shared<std::size_t>(0);
    return [records, at](CsvRecord& record) {
        if (*at == records->size()) return false;
        record = std::move((*records)[(*at)++]);
        return true;
    };
}

ResultsReader::ResultsReader(std::string path)
    : path_(std::move(path)), lines_(path_, "results file", std::min(kMaxResultsFileBytes, kMaxTextLineBytes)) {}

bool ResultsReader::next(CsvRecord& record) {
    std::string text;  // the lines of one record (several when a quoted cell holds line breaks)
    std::size_t first_line = 0;
    bool open = false;
    std::string line;
    while (ready_.empty()) {
        const bool got = lines_.next(line);
        if (got) {
            if (line.size() + 1 > kMaxResultsFileBytes - bytes_)
                throw InputError(path_ + ": results file is larger than " + std::to_string(kMaxResultsFileBytes) + " bytes");
            bytes_ += line.size() + 1;
            if (text.empty() && !open && line.empty()) continue;  // an empty line between records
            if (text.empty()) first_line = lines_.line_number();
            text += line;
            text += '\n';
            open = csv_quote_open_at_end(line, open);
            if (open) continue;
        } else if (text.empty()) {
            return false;
        }
        ready_ = read_csv_records(text, path_, first_line);  // at the end of the file, an open quote is an error
        text.clear();
        if (!got && ready_.empty()) return false;
    }
    record = std::move(ready_.front());
    ready_.erase(ready_.begin());
    return true;
}

std::size_t ResultsRowBudget::cost(const std::string& text) {
    constexpr std::size_t kInline = 15;       // characters a std::string holds without an allocation (libstdc++)
    constexpr std::size_t kAllocation = 16;   // malloc's header and rounding, per allocation
    return sizeof(std::string) + (text.size() > kInline ? text.size() + 1 + kAllocation : 0);
}

void ResultsRowBudget::keep(std::size_t bytes, const std::string& where) {
    held_ += bytes;
    if (held_ > kMaxResultsHeldBytes)
        throw InputError(where + ": the rows read so far take more than " + std::to_string(kMaxResultsHeldBytes >> 20) +
                         " MiB of memory; results files this large are not read (an endless pipe?)");
}

}  // namespace gpusched::sweep

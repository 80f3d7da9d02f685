// The block timeline CSV (kernel,launch,block,sm,dispatch_ns,start_ns,end_ns and '#' metadata): its one writer and reader.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/support/metadata_csv.h"
#include "gpusched/support/time.h"

namespace gpusched::workloads {

/// At most this many block rows in one timeline file.
constexpr std::uint64_t kMaxTimelineRows = 100'000'000;

/// The columns simulate --timeline writes, in order: kernel,launch,block,sm,dispatch_ns,start_ns,end_ns.
const std::vector<std::string>& timeline_columns();
/// The columns every timeline has (the others are optional): block,sm,start_ns,end_ns.
const std::vector<std::string>& timeline_required_columns();

/// Writes the head of a timeline: the comment `# TITLE`, one `# key=value` line per entry (line
/// breaks in values become spaces), and the header of timeline_columns().
void write_timeline_head(std::ostream& out, const std::string& title,
                         const std::vector<std::pair<std::string, std::string>>& metadata);

/// One block of a timeline as written: times in nanoseconds to three decimals.
struct TimelineBlock {
    const std::string& kernel;
    std::uint64_t launch;
    std::uint64_t block;
    std::int64_t sm;
    Time dispatch;
    Time start;
    Time end;
};

/// Writes one row (a kernel name with a comma, a quote or blanks at either end is quoted).
void write_timeline_row(std::ostream& out, const TimelineBlock& block);

/// How a timeline is read: the kind of file in messages, whether a last line without a line
/// break is refused (files the runner wrote), at most how many rows, and which optional columns
/// the reader needs.
struct TimelineReadOptions {
    std::string what = "timeline CSV";
    bool refuse_cut_line = false;
    std::uint64_t max_rows = kMaxTimelineRows;
    bool need_kernel = false;
};

/// One block row as read. `kernel` and `launch` are the cells as written ("" when the file has no
/// such column); times are exact for decimal nanoseconds of up to three decimals (rounded half up
/// past them), else rounded to the nearest picosecond.
struct TimelineRow {
    const std::string* kernel = nullptr;
    const std::string* launch = nullptr;
    std::uint64_t block = 0;
    int sm = 0;
    Time start = 0;
    Time end = 0;
};

/// Streams a timeline CSV (a '#'-metadata CSV with quoted cells): `#` lines are metadata, the
/// first other non-blank line the header with the columns block, sm, start_ns, end_ns (kernel
/// and launch optional, others ignored), then one row per block. Errors are InputError
/// "PATH:LINE: ..." naming the column; "PATH: empty timeline CSV (...)" without a header.
class TimelineCsvReader {
public:
    explicit TimelineCsvReader(std::string path, TimelineReadOptions options = {});

    /// The next row; false at the end of the file. The row's strings live until the next call.
    bool next(TimelineRow& row);

    [[nodiscard]] bool has_kernel() const { return kernel_ < csv_.header().size(); }
    [[nodiscard]] bool has_launch() const { return launch_ < csv_.header().size(); }
    /// The launch of the row last read as a non-negative integer (0 when the file has no launch
    /// column): InputError "PATH:LINE: column 'launch': ..." otherwise.
    [[nodiscard]] std::uint64_t launch_number() const;
    /// Rows read so far.
    [[nodiscard]] std::uint64_t rows() const { return rows_; }
    /// The metadata, header and position of the underlying CSV.
    [[nodiscard]] const MetadataCsvReader& csv() const { return csv_; }
    [[nodiscard]] const std::string& what() const { return options_.what; }

private:
    TimelineReadOptions options_;
    MetadataCsvReader csv_;
    std::size_t block_ = 0, sm_ = 0, start_ = 0, end_ = 0;
    std::size_t kernel_ = 0, launch_ = 0;
    std::uint64_t rows_ = 0;
};

/// Whether `header` names every column of timeline_required_columns().
bool is_timeline_header(const std::vector<std::string>& header);

}  // namespace gpusched::workloads

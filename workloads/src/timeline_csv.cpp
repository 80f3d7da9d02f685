// The block timeline CSV: the column list, the writer of its head and rows, and the reader of its rows.
#include "gpusched/workloads/timeline_csv.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "gpusched/support/checked_time.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/yaml_fields.h"

namespace gpusched::workloads {

namespace {

constexpr std::uint64_t kMaxWholeNs = kTimeLimit / kPicosecondsPerNanosecond;  // whole ns below 2^63 ps
const std::string kNone;

/// Decimal nanoseconds to picoseconds: exact for digits[.digits] (rounded half up past three
/// decimals), otherwise through parse_number, rounded to nearest (e.g. 1.5e3); below 2^63 ps.
Time parse_ns(const std::string& text, const MetadataCsvReader& at, const std::string& column) {
    const auto fail = [&](const std::string& what) -> Time {
        throw InputError(at.where() + ": column '" + column + "': " + what + ", got '" + text.substr(0, 40) + "'");
    };
    const auto too_large = [&]() -> Time {
        throw InputError(at.where() + ": column '" + column + "': " + text.substr(0, 40) + " ns passes " +
                         time_limit_text());
    };
    if (!text.empty() && text[0] == '-') fail("negative time");
    std::size_t i = text.size() > 0 && text[0] == '+' ? 1 : 0;
    std::uint64_t whole = 0;
    std::size_t digits = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits) {
        if (whole > kMaxWholeNs) break;
        whole = whole * 10 + static_cast<std::uint64_t>(text[i] - '0');
    }
    std::uint64_t fraction = 0;
    int fraction_digits = 0;
    bool round_up = false;
    if (i < text.size() && text[i] == '.') {
        for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits, ++fraction_digits) {
            if (fraction_digits < 3) fraction = fraction * 10 + static_cast<std::uint64_t>(text[i] - '0');
            else if (fraction_digits == 3) round_up = text[i] >= '5';
        }
    }
    if (digits > 0 && i == text.size() && whole <= kMaxWholeNs) {
        for (int k = fraction_digits; k < 3; ++k) fraction *= 10;
        const Time ps = whole * kPicosecondsPerNanosecond + fraction + (round_up ? 1 : 0);
        return ps < kTimeLimit ? ps : too_large();
    }
    const auto number = parse_number(text);
    if (!number) fail("expected a number of nanoseconds");
    const std::optional<Time> ps = time_from_ps(*number * 1000.0);
    return ps ? *ps : too_large();
}

std::uint64_t parse_id(const std::string& text, const MetadataCsvReader& at, const std::string& column) {
    const auto value = parse_integer(text);
    if (!value)
        throw InputError(at.where() + ": column '" + column + "': expected a non-negative integer, got '" +
                         text.substr(0, 40) + "'");
    if (*value < 0) throw InputError(at.where() + ": column '" + column + "': negative value " + std::to_string(*value));
    return static_cast<std::uint64_t>(*value);
}

MetadataCsvOptions csv_options(const TimelineReadOptions& options) {
    MetadataCsvOptions csv;
    csv.what = options.what;
    csv.quotes = true;
    csv.refuse_cut_line = options.refuse_cut_line;
    return csv;
}

}  // namespace

const std::vector<std::string>& timeline_columns() {
    static const std::vector<std::string> columns = {"kernel", "launch", "block", "sm", "dispatch_ns", "start_ns", "end_ns"};
    return columns;
}

const std::vector<std::string>& timeline_required_columns() {
    static const std::vector<std::string> columns = {"block", "sm", "start_ns", "end_ns"};
    return columns;
}

bool is_timeline_header(const std::vector<std::string>& header) {
    return std::all_of(timeline_required_columns().begin(), timeline_required_columns().end(), [&](const std::string& c) {
        return std::find(header.begin(), header.end(), c) != header.end();
    });
}

void write_timeline_head(std::ostream& out, const std::string& title,
                         const std::vector<std::pair<std::string, std::string>>& metadata) {
    out << "# " << title << '\n';
    for (const auto& [key, value] : metadata) write_metadata_line(out, key, value);
    std::string header;
    for (const auto& column : timeline_columns()) header += (header.empty() ? "" : ",") + column;
    out << header << '\n';
}

void write_timeline_row(std::ostream& out, const TimelineBlock& b) {
    out << csv_quoted_cell(b.kernel) << ',' << b.launch << ',' << b.block << ',' << b.sm << ',' << format_ns(b.dispatch)
        << ',' << format_ns(b.start) << ',' << format_ns(b.end) << '\n';
}

TimelineCsvReader::TimelineCsvReader(std::string path, TimelineReadOptions options)
    : options_(std::move(options)), csv_(std::move(path), csv_options(options_)) {
    std::vector<std::string> required = timeline_required_columns();
    if (options_.need_kernel) required.insert(required.begin(), "kernel");
    const std::vector<std::string> optional =
        options_.need_kernel ? std::vector<std::string>{"launch"} : std::vector<std::string>{"kernel", "launch"};
    if (!csv_.read_header(required, optional)) {
        std::string columns;
        for (const auto& c : required) columns += (columns.empty() ? "" : ",") + c;
        throw InputError(csv_.path() + ": empty " + options_.what + " (expected a header line with columns " + columns +
                         ")");
    }
    const std::size_t none = csv_.header().size();
    block_ = *csv_.column("block");
    sm_ = *csv_.column("sm");
    start_ = *csv_.column("start_ns");
    end_ = *csv_.column("end_ns");
    kernel_ = csv_.column("kernel").value_or(none);
    launch_ = csv_.column("launch").value_or(none);
}

bool TimelineCsvReader::next(TimelineRow& row) {
    if (!csv_.next_row()) return false;
    if (++rows_ > options_.max_rows)
        throw InputError(csv_.where() + ": more than " + std::to_string(options_.max_rows) + " block rows in " +
                         options_.what);
    const std::vector<std::string>& cells = csv_.cells();
    row.block = parse_id(cells[block_], csv_, "block");
    const std::uint64_t sm = parse_id(cells[sm_], csv_, "sm");
    if (row.block >= kMaxTimelineRows)
        throw InputError(csv_.where() + ": column 'block': block id " + std::to_string(row.block) +
                         " is too large (at most " + std::to_string(kMaxTimelineRows - 1) + ")");
    if (sm > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
        throw InputError(csv_.where() + ": column 'sm': SM id " + std::to_string(sm) + " is too large (at most " +
                         std::to_string(std::numeric_limits<int>::max()) + ")");
    row.sm = static_cast<int>(sm);
    row.start = parse_ns(cells[start_], csv_, "start_ns");
    row.end = parse_ns(cells[end_], csv_, "end_ns");
    if (row.end < row.start)
        throw InputError(csv_.where() + ": end_ns " + cells[end_] + " is before start_ns " + cells[start_]);
    row.kernel = has_kernel() ? &cells[kernel_] : &kNone;
    row.launch = has_launch() ? &cells[launch_] : &kNone;
    return true;
}

std::uint64_t TimelineCsvReader::launch_number() const {
    return has_launch() ? parse_id(csv_.cells()[launch_], csv_, "launch") : 0;
}

}  // namespace gpusched::workloads

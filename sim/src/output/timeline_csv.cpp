// TimelineCsvWriter: metadata, header, and a row per completed block.
#include "gpusched/sim/output/timeline_csv.h"

#include <stdexcept>

namespace gpusched::sim {

namespace {

/// A metadata value on one line: CR and LF become spaces.
std::string one_line(std::string text) {
    for (char& c : text)
        if (c == '\n' || c == '\r') c = ' ';
    return text;
}

/// A CSV cell on one line, quoted (RFC 4180) only where a reader would otherwise split or
/// trim it: a comma, a quote, or leading or trailing blanks.
std::string csv_cell(const std::string& text) {
    const std::string line = one_line(text);
    const bool blank_edge = !line.empty() && (line.front() == ' ' || line.front() == '\t' || line.back() == ' ' ||
                                              line.back() == '\t');
    if (!blank_edge && line.find_first_of(",\"") == std::string::npos) return line;
    std::string quoted = "\"";
    for (const char c : line) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    return quoted + '"';
}

}  // namespace

TimelineCsvWriter::TimelineCsvWriter(std::ostream& out, std::string tool_version)
    : out_(out), tool_version_(std::move(tool_version)) {}

void TimelineCsvWriter::on_begin(const RunInfo& info) {
    app_ = info.app;
    rows_ = 0;
    out_ << "# gpusched timeline\n";
    if (info.gpu) {
        out_ << "# gpu=" << one_line(info.gpu->name) << " (" << one_line(info.gpu->full_name) << ")\n";
        out_ << "# sm_count=" << info.gpu->sm_count << '\n';
    }
    out_ << "# policy=" << one_line(info.policy) << '\n';
    out_ << "# execution=" << one_line(info.execution) << '\n';
    out_ << "# tool_version=" << one_line(tool_version_) << '\n';
    if (app_) {
        out_ << "# workload=" << one_line(app_->description) << '\n';
        for (std::size_t i = 0; i < app_->launches.size(); ++i) {
            const auto& l = app_->launches[i];
            out_ << "# launch." << i << '=' << one_line(l.name) << " blocks=" << l.blocks()
                 << " threads=" << l.threads_per_block() << " stream=" << l.stream << '\n';
        }
    }
    out_ << "kernel,launch,block,sm,dispatch_ns,start_ns,end_ns\n";
}

void TimelineCsvWriter::on_block_completed(const BlockRecord& b) {
    if (!app_ || b.launch >= app_->launches.size())
        throw std::out_of_range("TimelineCsvWriter: block of an unknown launch");
    out_ << csv_cell(app_->launches[b.launch].name) << ',' << b.launch << ',' << b.block << ',' << b.sm << ','
         << format_ns(b.dispatch) << ',' << format_ns(b.start) << ',' << format_ns(b.end) << '\n';
    ++rows_;
}

void TimelineCsvWriter::on_end(Time makespan) {
    (void)makespan;
    out_.flush();
}

}  // namespace gpusched::sim

// ChromeTraceWriter: block slices per SM slot, kernel spans per stream, a size cap.
#include "gpusched/sim/output/chrome_trace.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace gpusched::sim {

namespace {

/// A JSON string literal, invalid UTF-8 replaced (never throws on odd names).
std::string json_string(const std::string& text) {
    return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

/// Picoseconds as microseconds with exactly six decimals: 1234567 -> "1.234567".
std::string us6(Time ps) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%llu.%06llu", static_cast<unsigned long long>(ps / 1000000),
                  static_cast<unsigned long long>(ps % 1000000));
    return buf;
}

std::string metadata(const char* what, std::int64_t pid, std::int64_t tid, const std::string& arg_json) {
    return std::string("{\"name\":\"") + what + "\",\"ph\":\"M\",\"pid\":" + std::to_string(pid) +
           ",\"tid\":" + std::to_string(tid) + ",\"args\":{" + arg_json + "}}";
}

}  // namespace

ChromeTraceWriter::ChromeTraceWriter(std::ostream& out, std::uint64_t max_block_events, std::string tool_version)
    : out_(out), max_block_events_(max_block_events), tool_version_(std::move(tool_version)) {}

void ChromeTraceWriter::begin_event() {
    out_ << (first_event_ ? "\n" : ",\n");
    first_event_ = false;
}

std::int64_t ChromeTraceWriter::slot_tid(int sm, int slot) const {
    return std::int64_t{sm} * slots_per_sm_ + slot + 1;
}

void ChromeTraceWriter::on_begin(const RunInfo& info) {
    sm_count_ = info.gpu ? std::max(info.gpu->sm_count, 0) : 0;
    slots_per_sm_ = info.gpu ? std::max(info.gpu->max_blocks_per_sm, 1) : 1;
    named_slots_.assign(static_cast<std::size_t>(sm_count_), {});
    kernel_names_.clear();
    launch_tid_.clear();
    launch_blocks_.clear();
    launch_ready_.clear();
    first_event_ = true;
    blocks_written_ = 0;
    blocks_total_ = 0;

    nlohmann::ordered_json other;
    other["tool"] = "gpusched";
    other["tool_version"] = tool_version_;
    other["gpu"] = info.gpu ? info.gpu->name : "";
    other["gpu_name"] = info.gpu ? info.gpu->full_name : "";
    other["sm_count"] = sm_count_;
    other["policy"] = info.policy;
    other["execution"] = info.execution;
    other["workload"] = info.app ? info.app->description : "";
    other_data_ = other.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    other_data_.pop_back();  // the closing brace; on_end appends the run's totals

    out_ << "{\"traceEvents\":[";
    app_ = info.app;
    if (info.app && !info.app->host.empty()) {
        const std::int64_t host_pid = std::int64_t{sm_count_} + 3;
        begin_event();
        out_ << metadata("process_name", host_pid, 1, "\"name\":\"Host\"");
        begin_event();
        out_ << metadata("process_sort_index", host_pid, 1, "\"sort_index\":-3");
        for (std::size_t t = 0; t < info.app->host.size(); ++t) {
            const auto tid = static_cast<std::int64_t>(t) + 1;
            begin_event();
            out_ << metadata("thread_name", host_pid, tid, "\"name\":" + json_string("host " + info.app->host[t].name));
            begin_event();
            out_ << metadata("thread_sort_index", host_pid, tid, "\"sort_index\":" + std::to_string(t));
        }
    }
    if (!info.app || info.app->launches.empty()) return;
    const auto& launches = info.app->launches;
    std::vector<int> streams;
    for (const auto& l : launches) streams.push_back(l.stream);
    std::sort(streams.begin(), streams.end());
    streams.erase(std::unique(streams.begin(), streams.end()), streams.end());
    const std::int64_t kernels_pid = std::int64_t{sm_count_} + 1;
    const std::int64_t first_stream_tid = std::int64_t{sm_count_} * slots_per_sm_ + 1;
    for (const auto& l : launches) {
        const std::string quoted = json_string(l.name);
        kernel_names_.push_back(quoted.substr(1, quoted.size() - 2));
        const auto rank = std::lower_bound(streams.begin(), streams.end(), l.stream) - streams.begin();
        launch_tid_.push_back(first_stream_tid + rank);
        launch_blocks_.push_back(l.blocks());
    }
    launch_ready_.assign(launches.size(), 0);
    begin_event();
    out_ << metadata("process_name", kernels_pid, first_stream_tid, "\"name\":\"Kernels\"");
    begin_event();
    out_ << metadata("process_sort_index", kernels_pid, first_stream_tid, "\"sort_index\":-1");
    for (std::size_t rank = 0; rank < streams.size(); ++rank) {
        const std::int64_t tid = first_stream_tid + static_cast<std::int64_t>(rank);
        begin_event();
        out_ << metadata("thread_name", kernels_pid, tid,
                         "\"name\":\"stream " + std::to_string(streams[rank]) + "\"");
        begin_event();
        out_ << metadata("thread_sort_index", kernels_pid, tid, "\"sort_index\":" + std::to_string(rank));
    }
}

void ChromeTraceWriter::name_sm_slot(int sm, int slot, std::int64_t tid) {
    auto& named = named_slots_[static_cast<std::size_t>(sm)];
    if (named.empty()) {
        named.assign(static_cast<std::size_t>(slots_per_sm_), false);
        begin_event();
        out_ << metadata("process_name", sm + 1, tid, "\"name\":\"SM " + std::to_string(sm) + "\"");
        begin_event();
        out_ << metadata("process_sort_index", sm + 1, tid, "\"sort_index\":" + std::to_string(sm));
    }
    if (named[static_cast<std::size_t>(slot)]) return;
    named[static_cast<std::size_t>(slot)] = true;
    begin_event();
    out_ << metadata("thread_name", sm + 1, tid, "\"name\":\"slot " + std::to_string(slot) + "\"");
    begin_event();
    out_ << metadata("thread_sort_index", sm + 1, tid, "\"sort_index\":" + std::to_string(slot));
}

void ChromeTraceWriter::on_kernel_ready(std::size_t launch, Time when) { launch_ready_.at(launch) = when; }

void ChromeTraceWriter::on_block_completed(const BlockRecord& b) {
    if (b.launch >= kernel_names_.size()) throw std::out_of_range("ChromeTraceWriter: block of an unknown launch");
    if (b.sm < 0 || b.sm >= sm_count_) throw std::out_of_range("ChromeTraceWriter: block on an unknown SM");
    if (b.slot < 0 || b.slot >= slots_per_sm_) throw std::out_of_range("ChromeTraceWriter: block in an unknown slot");
    if (b.end < b.start || b.start < b.dispatch) throw std::logic_error("ChromeTraceWriter: block times out of order");
    ++blocks_total_;
    if (blocks_written_ >= max_block_events_) return;
    ++blocks_written_;
    const std::int64_t tid = slot_tid(b.sm, b.slot);
    name_sm_slot(b.sm, b.slot, tid);
    begin_event();
    out_ << "{\"name\":\"" << kernel_names_[b.launch] << " #" << b.block << "\",\"cat\":\"block\",\"ph\":\"X\",\"pid\":"
         << b.sm + 1 << ",\"tid\":" << tid << ",\"ts\":" << us6(b.start) << ",\"dur\":" << us6(b.end - b.start)
         << ",\"args\":{\"launch\":" << b.launch << ",\"block\":" << b.block
         << ",\"dispatch_ns\":" << format_ns(b.dispatch) << "}}";
}

void ChromeTraceWriter::on_kernel_completed(std::size_t launch, Time first_start, Time end) {
    if (launch >= kernel_names_.size()) throw std::out_of_range("ChromeTraceWriter: unknown launch");
    if (end < first_start) throw std::logic_error("ChromeTraceWriter: kernel ends before it starts");
    begin_event();
    out_ << "{\"name\":\"" << kernel_names_[launch] << " (launch " << launch
         << ")\",\"cat\":\"kernel\",\"ph\":\"X\",\"pid\":" << std::int64_t{sm_count_} + 1
         << ",\"tid\":" << launch_tid_[launch] << ",\"ts\":" << us6(first_start)
         << ",\"dur\":" << us6(end - first_start)
         << ",\"args\":{\"launch\":" << launch << ",\"blocks\":" << launch_blocks_[launch]
         << ",\"ready_ns\":" << format_ns(launch_ready_[launch]) << "}}";
}

void ChromeTraceWriter::on_copy(const CopyRecord& c) {
    // "Copy engines": its own process after the SMs and "Kernels", one track per engine.
    const std::int64_t pid = std::int64_t{sm_count_} + 2;
    const auto engine = static_cast<std::size_t>(c.engine);
    if (named_copy_engines_.empty()) {
        begin_event();
        out_ << metadata("process_name", pid, 0, "\"name\":\"Copy engines\"");
        begin_event();
        out_ << metadata("process_sort_index", pid, 0, "\"sort_index\":-2");
    }
    if (named_copy_engines_.size() <= engine) named_copy_engines_.resize(engine + 1, false);
    if (!named_copy_engines_[engine]) {
        named_copy_engines_[engine] = true;
        begin_event();
        out_ << metadata("thread_name", pid, c.engine, "\"name\":\"copy engine " + std::to_string(c.engine) + "\"");
    }
    const bool h2d = c.direction == workloads::CopyDirection::host_to_device;
    begin_event();
    out_ << "{\"name\":\"" << (h2d ? "H2D " : "D2H ") << c.bytes << " B\",\"cat\":\"copy\",\"ph\":\"X\",\"pid\":" << pid
         << ",\"tid\":" << c.engine << ",\"ts\":" << us6(c.start) << ",\"dur\":" << us6(c.end - c.start)
         << ",\"args\":{\"operation\":" << c.operation << ",\"stream\":" << c.stream << ",\"memory\":\""
         << (c.pinned ? "pinned" : "pageable") << "\",\"ready_ns\":" << format_ns(c.ready) << "}}";
}

void ChromeTraceWriter::on_host_call(const HostCallRecord& c) {
    const workloads::HostCall& call = app_->host.at(c.thread).calls.at(c.call);
    std::string name;
    if (call.kind == workloads::HostCall::Kind::sync) {
        name = call.stream < 0 ? "device sync" : "sync stream " + std::to_string(call.stream);
    } else {
        const workloads::Operation& op = app_->operations.at(call.ops.front());
        name = op.kind == workloads::Operation::Kind::kernel ? "launch " + app_->launches.at(op.launch).name : "launch (copy or memset)";
    }
    begin_event();
    out_ << "{\"name\":" << json_string(name) << ",\"cat\":\"host\",\"ph\":\"X\",\"pid\":" << std::int64_t{sm_count_} + 3
         << ",\"tid\":" << c.thread + 1 << ",\"ts\":" << us6(c.start) << ",\"dur\":" << us6(c.end - c.start)
         << ",\"args\":{\"thread_call\":" << c.call << ",\"blocked_ns\":" << format_ns(c.blocked) << "}}";
}

void ChromeTraceWriter::on_end(Time makespan) {
    if (truncated()) {
        begin_event();
        out_ << "{\"name\":\"TRACE TRUNCATED: " << blocks_written_ << " of " << blocks_total_
             << " blocks shown\",\"ph\":\"i\",\"s\":\"g\",\"pid\":" << std::int64_t{sm_count_} + 1
             << ",\"tid\":" << std::int64_t{sm_count_} * slots_per_sm_ + 1 << ",\"ts\":0.000000}";
    }
    out_ << "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":" << other_data_ << ",\"makespan_ns\":"
         << format_ns(makespan) << ",\"truncated\":" << (truncated() ? "true" : "false")
         << ",\"blocks_written\":" << blocks_written_ << ",\"blocks_total\":" << blocks_total_ << "}}\n";
    out_.flush();
}

}  // namespace gpusched::sim

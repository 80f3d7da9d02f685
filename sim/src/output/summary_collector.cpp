// SummaryCollector and the summary's text and JSON views.
#include "gpusched/sim/output/summary_collector.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <unordered_map>

#include "gpusched/support/checked_time.h"
#include "summary_format.h"
#include "gpusched/workloads/work_notes.h"

namespace gpusched::sim {

namespace {

nlohmann::ordered_json ns_json(const std::optional<Time>& ps) {
    if (!ps) return nullptr;
    return static_cast<double>(*ps) / 1000.0;
}

std::uint64_t waves_of(std::uint64_t blocks, int blocks_per_sm, int sm_count) {
    if (blocks_per_sm <= 0 || sm_count <= 0) return 0;
    const std::uint64_t per_wave = static_cast<std::uint64_t>(blocks_per_sm) * static_cast<std::uint64_t>(sm_count);
    return (blocks + per_wave - 1) / per_wave;
}

/// The compact dump of one JSON value, as the whole document's dump writes it.
std::string dump(const nlohmann::ordered_json& value) {
    return value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

/// Writes one JSON object's members in order, each value dumped as it comes (so arrays of a
/// million launches are written element by element, never built as one document).
class JsonObjectWriter {
public:
    explicit JsonObjectWriter(std::ostream& out) : out_(out) { out_ << '{'; }
    void member(const char* key, const nlohmann::ordered_json& value) { open(key) << dump(value); }
    /// An array member whose `count` elements are made by `element(i)`.
    template <class Element>
    void array(const char* key, std::size_t count, const Element& element) {
        open(key) << '[';
        for (std::size_t i = 0; i < count; ++i) out_ << (i ? "," : "") << dump(element(i));
        out_ << ']';
    }
    void close() { out_ << '}'; }

private:
    std::ostream& open(const char* key) {
        out_ << (first_ ? "" : ",") << dump(key) << ':';
        first_ = false;
        return out_;
    }
    std::ostream& out_;
    bool first_ = true;
};

/// Index of `shape` in `shapes`: one of the last few (launches and copies alike in their shape come in
/// runs or short cycles, such as a kernel and its two copies per call), else appended.
template <class Shape>
std::uint32_t shape_index(std::vector<Shape>& shapes, const Shape& shape) {
    constexpr std::size_t kRecent = 8;
    const std::size_t count = shapes.size();
    for (std::size_t back = 1; back <= std::min(count, kRecent); ++back)
        if (shapes[count - back] == shape) return static_cast<std::uint32_t>(count - back);
    shapes.push_back(shape);
    return static_cast<std::uint32_t>(count);
}

std::optional<Time> reached(Time t) { return t == kUnreachedTime ? std::nullopt : std::optional<Time>(t); }

}  // namespace

KernelSummary RunSummary::kernel(std::size_t i) const {
    const KernelTimes& t = kernel_times.at(i);
    const KernelShape& shape = kernel_shapes.at(t.shape);
    KernelSummary k;
    k.launch = i;
    k.blocks = shape.blocks;
    k.waves = shape.waves;
    k.name_index = shape.name_index;
    k.stream = shape.stream;
    k.threads_per_block = shape.threads_per_block;
    k.blocks_per_sm = shape.blocks_per_sm;
    k.sms = shape.sms;
    k.ready = reached(t.ready);
    k.start = reached(t.start);
    k.end = reached(t.end);
    k.binds = t.binds;
    k.terms = shape.terms;
    return k;
}

CopySummary RunSummary::copy(std::size_t i) const {
    const CopyTimes& t = copy_times.at(i);
    const CopyShape& shape = copy_shapes.at(t.shape);
    return {t.operation, shape.stream, shape.engine, shape.direction, shape.pinned, shape.bytes, t.ready, t.start, t.end};
}

void SummaryCollector::on_begin(const RunInfo& info) {
    summary_ = RunSummary{};
    if (info.gpu) {
        summary_.gpu = info.gpu->name;
        summary_.gpu_name = info.gpu->full_name;
        summary_.compute_capability = info.gpu->compute_capability();
        summary_.sm_count = info.gpu->sm_count;
    }
    summary_.policy = info.policy;
    summary_.execution = info.execution;
    const auto sms = static_cast<std::size_t>(std::max(summary_.sm_count, 0));
    summary_.per_sm_blocks.assign(sms, 0);
    summary_.per_sm_busy.assign(sms, 0);
    app_ = info.app;
    if (!info.app) return;
    summary_.application = info.app->description;
    for (const workloads::HostThread& thread : info.app->host) summary_.host_threads.push_back({.name = thread.name});
    if (info.gpu) summary_.notes = workloads::application_notes(*info.app, *info.gpu, info.execution, note_detail_);
    const auto copies = std::count_if(info.app->operations.begin(), info.app->operations.end(),
                                      [](const workloads::Operation& op) { return op.kind == workloads::Operation::Kind::copy; });
    summary_.copy_times.reserve(static_cast<std::size_t>(copies));  // one record each, no growth slack
    const workloads::HostIssue issue = info.app->host_issue;
    summary_.issue = !info.app->host.empty()                  ? "host-timeline"
                     : issue == workloads::HostIssue::calls ? "host-calls"
                     : issue == workloads::HostIssue::graph ? "graph"
                                                            : "queued";
    const auto& launches = info.app->launches;
    bindings_.emplace(info);
    summary_.launch_terms = bindings_->distinct();
    summary_.kernel_times.reserve(launches.size());
    std::unordered_map<std::string, std::uint32_t> name_index;  // a million launches share a few names
    for (std::size_t i = 0; i < launches.size(); ++i) {
        KernelShape k;
        const auto [name, added] =
            name_index.emplace(launches[i].name, static_cast<std::uint32_t>(summary_.kernel_names.size()));
        if (added) summary_.kernel_names.push_back(launches[i].name);
        k.name_index = name->second;
        k.stream = launches[i].stream;
        k.blocks = launches[i].blocks();
        k.threads_per_block = launches[i].threads_per_block();
        k.blocks_per_sm = i < info.occupancy.size() ? info.occupancy[i].blocks_per_sm : 0;
        k.sms = i < info.launch_sm_counts.size() ? info.launch_sm_counts[i] : summary_.sm_count;
        k.waves = waves_of(k.blocks, k.blocks_per_sm, k.sms);
        k.terms = bindings_->index_of(i);
        KernelTimes& times = summary_.kernel_times.emplace_back();
        times.shape = shape_index(summary_.kernel_shapes, k);
    }
}

std::string SummaryCollector::busy_name(std::size_t sm) {
    return "SM " + std::to_string(sm) + ": its busy time (the sum of its blocks' run times)";
}

void SummaryCollector::on_kernel_ready(std::size_t launch, Time when) { summary_.kernel_times.at(launch).ready = when; }

void SummaryCollector::on_block_completed(const BlockRecord& block) {
    if (block.sm < 0) throw std::out_of_range("SummaryCollector: negative SM id");
    if (block.end < block.start) throw std::logic_error("SummaryCollector: block ends before it starts");
    const auto sm = static_cast<std::size_t>(block.sm);
    summary_.per_sm_blocks.at(sm) += 1;
    Time& busy = summary_.per_sm_busy.at(sm);
    busy = checked_time_sum(busy, block.end - block.start, [&] { return busy_name(sm); });
    summary_.total_blocks += 1;
}

void SummaryCollector::on_kernel_completed(std::size_t launch, Time first_start, Time end) {
    KernelTimes& k = summary_.kernel_times.at(launch);
    k.start = first_start;
    k.end = end;
    if (bindings_) k.binds = bindings_->after_run(launch, first_start, end);
}

void SummaryCollector::on_launch_repeated(const RepeatedLaunch& repeated) {
    for (std::size_t sm = 0; sm < repeated.per_sm_units.size(); ++sm) {
        summary_.per_sm_blocks.at(sm) += repeated.per_sm_units[sm];
        Time& busy = summary_.per_sm_busy.at(sm);
        busy = checked_time_sum(busy, repeated.per_sm_busy[sm], [&] { return busy_name(sm); });
    }
    summary_.total_blocks += repeated.units;
}

void SummaryCollector::on_copy(const CopyRecord& c) {
    const CopyShape shape{c.bytes, c.stream, c.engine, c.direction, c.pinned};
    summary_.copy_times.push_back(
        {c.ready, c.start, c.end, static_cast<std::uint32_t>(c.operation), shape_index(summary_.copy_shapes, shape)});
}

const char* copy_direction_name(workloads::CopyDirection direction) {
    return direction == workloads::CopyDirection::host_to_device ? "h2d" : "d2h";
}

void SummaryCollector::on_host_call(const HostCallRecord& call) {
    HostThreadSummary& t = summary_.host_threads.at(call.thread);
    const workloads::HostCall& c = app_->host.at(call.thread).calls.at(call.call);
    const Time own = call.blocked - call.iteration_wait;  // a sync's wait for its work, a launch's for queue room
    if (c.kind == workloads::HostCall::Kind::sync) {
        ++t.syncs;
        t.sync_wait += own;
    } else {
        ++t.launches;
        t.queue_wait += own;
    }
    t.iteration_wait += call.iteration_wait;
    t.cpu += call.end - call.start - call.blocked;
    t.gaps += c.gap;
    if (call.call == 0) t.first_start = call.start;
    t.last_end = std::max(t.last_end, call.end);
}

void SummaryCollector::on_end(Time makespan) { summary_.makespan = makespan; }

void write_summary_json(std::ostream& out, const RunSummary& s) {
    JsonObjectWriter j(out);
    j.member("gpu", s.gpu);
    j.member("gpu_name", s.gpu_name);
    j.member("compute_capability", s.compute_capability);
    j.member("sm_count", s.sm_count);
    j.member("policy", s.policy);
    j.member("execution", s.execution);
    j.member("application", s.application);
    j.member("issue", s.issue);
    if (!s.notes.empty()) j.member("notes", s.notes);
    j.member("makespan_ns", ns_json(s.makespan));
    j.member("total_blocks", s.total_blocks);
    j.array("kernels", s.kernel_count(), [&s](std::size_t i) {
        const KernelSummary k = s.kernel(i);
        nlohmann::ordered_json e;
        e["launch"] = k.launch;
        e["name"] = s.kernel_name(k);
        e["stream"] = k.stream;
        e["blocks"] = k.blocks;
        e["threads_per_block"] = k.threads_per_block;
        e["blocks_per_sm"] = k.blocks_per_sm;
        e["waves"] = k.waves;
        e["ready_ns"] = ns_json(k.ready);
        e["start_ns"] = ns_json(k.start);
        e["end_ns"] = ns_json(k.end);
        e["binds"] = k.end ? nlohmann::ordered_json(binding_name(k.binds)) : nlohmann::ordered_json(nullptr);
        if (k.terms < s.launch_terms.size() && s.launch_terms[k.terms].terms) {
            const ExecutionTerms& t = *s.launch_terms[k.terms].terms;
            e["terms_ns"] = {{"issue", ns_json(t.issue)}, {"latency", ns_json(t.latency)}, {"l1", ns_json(t.l1)},
                             {"l2", ns_json(t.l2)}, {"dram", ns_json(t.dram)}};
        }
        return e;
    });
    if (s.copy_count() > 0) {
        j.array("copies", s.copy_count(), [&s](std::size_t i) {
            const CopySummary c = s.copy(i);
            nlohmann::ordered_json e;
            e["operation"] = c.operation;
            e["direction"] = copy_direction_name(c.direction);
            e["stream"] = c.stream;
            e["bytes"] = c.bytes;
            e["memory"] = c.pinned ? "pinned" : "pageable";
            e["engine"] = c.engine;
            e["ready_ns"] = ns_json(c.ready);
            e["start_ns"] = ns_json(c.start);
            e["end_ns"] = ns_json(c.end);
            return e;
        });
    }
    if (!s.host_threads.empty()) {
        j.array("host_threads", s.host_threads.size(), [&s](std::size_t i) {
            const HostThreadSummary& t = s.host_threads[i];
            nlohmann::ordered_json e;
            e["thread"] = t.name;
            e["launches"] = t.launches;
            e["syncs"] = t.syncs;
            e["first_start_ns"] = ns_json(t.first_start);
            e["last_end_ns"] = ns_json(t.last_end);
            e["cpu_ns"] = ns_json(t.cpu);
            e["gap_ns"] = ns_json(t.gaps);
            e["sync_wait_ns"] = ns_json(t.sync_wait);
            e["queue_wait_ns"] = ns_json(t.queue_wait);
            e["iteration_wait_ns"] = ns_json(t.iteration_wait);
            return e;
        });
    }
    j.member("per_sm_blocks", s.per_sm_blocks);
    j.array("per_sm_busy_ns", s.per_sm_busy.size(), [&s](std::size_t i) { return ns_json(s.per_sm_busy[i]); });
    if (s.account) j.member("time_account", nlohmann::ordered_json::parse(time_account_json(*s.account)));
    j.close();
    out << '\n';
}

}  // namespace gpusched::sim

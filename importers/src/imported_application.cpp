// build_application: host issue order, step selection, dense streams, records/waits for syncs, delays for host gaps.
#include "gpusched/importers/imported_application.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "gpusched/support/input_error.h"
#include "gpusched/support/key_error.h"
#include "gpusched/workloads/workload_file.h"
#include "host_threads.h"

namespace gpusched::importers {

namespace {

constexpr int kMaxStreams = 1024;

/// A point of the host's timeline: an operation issued, a host synchronisation, an event record or wait.
struct Entry {
    enum class Type : std::uint8_t { op, host_sync, record, wait };
    TraceTime ts = 0;
    TraceTime gpu_start = 0;  ///< first tie-break: operations of one call (a CUDA graph's kernels) in GPU order
    std::uint64_t index = 0;  ///< event index, the next tie-break
    int sub = 0;              ///< orders a record placed at its wait before the wait
    Type type = Type::op;
    std::uint32_t ref = 0;    ///< op index, call index or sync index
    bool operator<(const Entry& o) const {
        if (ts != o.ts) return ts < o.ts;
        if (gpu_start != o.gpu_start) return gpu_start < o.gpu_start;
        if (index != o.index) return index < o.index;
        return sub < o.sub;
    }
};

/// Which streams a host synchronisation waited for.
struct SyncScope {
    enum class Kind : std::uint8_t { all, stream, previous };
    Kind kind = Kind::previous;
    std::int64_t stream = -1;
};

std::int64_t pick_device(const ImportedTrace& trace, const ImportOptions& options) {
    std::set<std::int64_t> with_work;
    for (const GpuOp& op : trace.ops) with_work.insert(op.device);
    if (with_work.empty()) throw InputError(trace.path + ": no kernel, memcpy or memset events (nothing ran on a GPU)");
    if (options.device) {
        if (with_work.count(*options.device) == 0)
            throw KeyError("device", std::to_string(*options.device), "no GPU work on that device in " + trace.path);
        return *options.device;
    }
    if (with_work.size() > 1) {
        std::string list;
        for (const auto d : with_work) list += (list.empty() ? "" : ", ") + std::to_string(d);
        throw KeyError("device", trace.path + ": GPU work on devices " + list + "; choose one");
    }
    return *with_work.begin();
}

/// Index of each ProfilerStep span by number, spans merged when a step is marked twice (cpu_op and user_annotation).
std::map<std::int64_t, StepMarker> step_spans(const ImportedTrace& trace) {
    std::map<std::int64_t, StepMarker> spans;
    for (const StepMarker& s : trace.steps) {
        auto [it, added] = spans.try_emplace(s.number, s);
        if (!added) {
            it->second.start = std::min(it->second.start, s.start);
            it->second.end = std::max(it->second.end, s.end);
        }
    }
    return spans;
}

class Builder {
public:
    Builder(const ImportedTrace& trace, const ImportOptions& options) : trace_(trace), options_(options) {}

    ImportedApplication run() {
        app_.device = pick_device(trace_, options_);
        index_calls();
        select_ops();
        add_syncs();
        std::sort(entries_.begin(), entries_.end());
        app_.origin = entries_.front().ts;
        for (const std::uint32_t i : selected_) app_.origin = std::min(app_.origin, trace_.ops[i].start);
        if (!options_.frozen_gaps) host_.emplace(trace_.path, app_.origin);
        for (const Entry& e : entries_) walk(e);
        if (host_) {
            app_.host = host_->threads();
            for (auto& note : host_->notes()) app_.notes.push_back(std::move(note));
            note_unissued();
        }
        return std::move(app_);
    }

private:
    void index_calls() {
        for (std::uint32_t i = 0; i < trace_.calls.size(); ++i) {
            const HostCall& c = trace_.calls[i];
            if (c.correlation < 0) continue;
            auto [it, added] = call_of_.try_emplace(c.correlation, i);
            if (added) continue;
            const HostCall& o = trace_.calls[it->second];
            const bool nested = (c.start <= o.start && o.end <= c.end) || (o.start <= c.start && c.end <= o.end);
            if (!nested)
                throw InputError(trace_.path + ": traceEvents[" + std::to_string(c.event_index) + "] and traceEvents[" +
                                 std::to_string(o.event_index) + "]: two host calls that do not nest share correlation id " +
                                 std::to_string(c.correlation) + " (a correlation id names one call and its GPU work)");
            if (c.start < o.start) it->second = i;  // the outermost call of nested ones
        }
        for (std::uint32_t i = 0; i < trace_.syncs.size(); ++i)
            if (trace_.syncs[i].correlation >= 0 && trace_.syncs[i].device == app_.device) sync_of_.emplace(trace_.syncs[i].correlation, i);
    }

    std::optional<std::uint32_t> call_for(std::int64_t correlation) const {
        if (correlation < 0) return std::nullopt;
        const auto it = call_of_.find(correlation);
        if (it == call_of_.end()) return std::nullopt;
        return it->second;
    }

    TraceTime issue_time(const GpuOp& op) const {
        const auto call = call_for(op.correlation);
        return call ? trace_.calls[*call].start : op.start;
    }

    void select_ops() {
        const auto spans = step_spans(trace_);
        std::vector<StepMarker> chosen;
        if (options_.steps.all) {
            app_.steps_text = "all";
        } else {
            if (spans.empty()) throw KeyError("steps", trace_.path + ": the trace has no ProfilerStep#N markers; import all of it");
            const std::string have = "ProfilerStep#" + std::to_string(spans.begin()->first) + "..#" + std::to_string(spans.rbegin()->first);
            for (std::int64_t n = options_.steps.first; n <= options_.steps.last; ++n) {
                const auto it = spans.find(n);
                if (it == spans.end()) throw KeyError("steps", trace_.path + ": no ProfilerStep#" + std::to_string(n) + " (the trace has " + have + ")");
                chosen.push_back(it->second);
            }
            app_.steps_text = std::to_string(options_.steps.first) + "-" + std::to_string(options_.steps.last) + " of " + have;
        }
        for (std::uint32_t i = 0; i < trace_.ops.size(); ++i) {
            const GpuOp& op = trace_.ops[i];
            if (op.device != app_.device) continue;
            const TraceTime at = issue_time(op);
            if (!options_.steps.all &&
                std::none_of(chosen.begin(), chosen.end(), [&](const StepMarker& s) { return at >= s.start && at <= s.end; }))
                continue;
            selected_.push_back(i);
            entries_.push_back({at, op.start, op.event_index, 1, Entry::Type::op, i});
            if (op.kind == GpuOp::Kind::kernel) ++app_.kernels;
        }
        if (app_.kernels == 0)
            throw InputError(trace_.path + ": no kernels on device " + std::to_string(app_.device) +
                             (options_.steps.all ? std::string() : " in steps " + app_.steps_text) + " (a workload needs at least one)");
        if (app_.kernels > workloads::kMaxWorkloadLaunches)
            throw InputError(trace_.path + ": " + std::to_string(app_.kernels) + " kernels, more than the " +
                             std::to_string(workloads::kMaxWorkloadLaunches) + " a workload may have; choose fewer steps");
        first_issue_ = last_issue_ = entries_.front().ts;
        for (const Entry& e : entries_) first_issue_ = std::min(first_issue_, e.ts), last_issue_ = std::max(last_issue_, e.ts);
    }

    bool in_window(TraceTime t) const { return t >= first_issue_ && t <= last_issue_; }

    void add_syncs() {
        std::size_t unmatched_waits = 0;
        std::set<std::int64_t> waited_calls;
        for (std::uint32_t i = 0; i < trace_.syncs.size(); ++i) {
            const SyncEvent& s = trace_.syncs[i];
            if (s.device != app_.device || s.kind != SyncEvent::Kind::stream_wait_event) continue;
            const auto call = call_for(s.correlation);
            const TraceTime at = call ? trace_.calls[*call].start : s.start;
            if (!in_window(at)) continue;
            if (call) waited_calls.insert(s.correlation);
            if (s.stream < 0 || s.wait_on_stream < 0) {
                ++unmatched_waits;
                continue;
            }
            const std::uint64_t index = call ? trace_.calls[*call].event_index : s.event_index;
            const auto record = call_for(s.record_correlation);
            if (record && trace_.calls[*record].start <= at)
                entries_.push_back({trace_.calls[*record].start, trace_.calls[*record].start, trace_.calls[*record].event_index, 0, Entry::Type::record, i});
            else
                entries_.push_back({at, at, index, 0, Entry::Type::record, i});
            entries_.push_back({at, at, index, 1, Entry::Type::wait, i});
        }
        for (std::uint32_t i = 0; i < trace_.calls.size(); ++i) {
            const HostCall& c = trace_.calls[i];
            if (!in_window(c.start)) continue;
            if (c.kind == HostCall::Kind::stream_wait_event && waited_calls.count(c.correlation) == 0) ++unmatched_waits;
            if (c.kind == HostCall::Kind::device_sync || c.kind == HostCall::Kind::stream_sync || c.kind == HostCall::Kind::event_sync)
                entries_.push_back({c.start, c.start, c.event_index, 1, Entry::Type::host_sync, i});
        }
        if (unmatched_waits > 0)
            app_.notes.push_back(std::to_string(unmatched_waits) +
                                 " cudaStreamWaitEvent calls without a cuda_sync event naming both streams: those cross-stream waits "
                                 "are not imported (profile with enable_cuda_sync_events)");
    }

    int stream_id(std::int64_t handle, std::uint64_t index) {
        const auto [it, added] = stream_ids_.try_emplace(handle, static_cast<int>(app_.stream_handles.size()));
        if (added) {
            if (app_.stream_handles.size() >= kMaxStreams)
                throw InputError(trace_.path + ": traceEvents[" + std::to_string(index) + "]: more than " + std::to_string(kMaxStreams) +
                                 " streams (a workload has streams 0..1023)");
            app_.stream_handles.push_back(handle);
            app_.priority.emplace_back();
            streams_.emplace_back();
        }
        return it->second;
    }

    /// The workload event of a stream wait: "ev" and the record call's correlation (the wait's event index without one).
    static std::string event_name(const SyncEvent& s) {
        return s.record_correlation >= 0 ? "ev" + std::to_string(s.record_correlation) : "ev-at-" + std::to_string(s.event_index);
    }

    void emit(AppItem item) { app_.items.push_back(std::move(item)); }

    void walk(const Entry& e) {
        if (e.type == Entry::Type::op) return issue_op(e);
        if (e.type == Entry::Type::record) {
            const SyncEvent& s = trace_.syncs[e.ref];
            const int p = stream_id(s.wait_on_stream, s.event_index);
            emit({AppItem::Kind::record, p, 0, 0, event_name(s)});
            return;
        }
        if (e.type == Entry::Type::wait) {
            const SyncEvent& s = trace_.syncs[e.ref];
            const int t = stream_id(s.stream, s.event_index);
            emit({AppItem::Kind::wait, t, 0, 0, event_name(s)});
            ++app_.cross_stream_waits;
            return;
        }
        const HostCall& c = trace_.calls[e.ref];
        SyncScope scope;
        if (c.kind == HostCall::Kind::device_sync) scope.kind = SyncScope::Kind::all;
        if (const auto it = sync_of_.find(c.correlation); c.correlation >= 0 && it != sync_of_.end()) {
            const SyncEvent& s = trace_.syncs[it->second];
            if (s.kind == SyncEvent::Kind::context_sync) scope.kind = SyncScope::Kind::all;
            else if (s.kind == SyncEvent::Kind::stream_sync && s.stream >= 0) scope = {SyncScope::Kind::stream, s.stream};
            else if (s.kind == SyncEvent::Kind::event_sync && s.wait_on_stream >= 0) scope = {SyncScope::Kind::stream, s.wait_on_stream};
        }
        host_sync(scope, e.ref);
    }

    /// Host mode: operations without their host call, and launch calls without their operation.
    void note_unissued() {
        std::size_t without_call = 0, without_op = 0;
        TraceTime cpu = 0;
        std::set<std::int64_t> correlations;
        for (const std::uint32_t i : selected_) {
            correlations.insert(trace_.ops[i].correlation);
            if (!call_for(trace_.ops[i].correlation)) ++without_call;
        }
        for (const HostCall& c : trace_.calls)
            if ((c.kind == HostCall::Kind::launch || c.kind == HostCall::Kind::async_copy) && in_window(c.start) &&
                (c.correlation < 0 || correlations.count(c.correlation) == 0))
                ++without_op, cpu += c.end - c.start;
        std::size_t early = 0;
        TraceTime most_early = 0;
        for (const std::uint32_t i : selected_)
            if (const auto call = call_for(trace_.ops[i].correlation); call && trace_.ops[i].start < trace_.calls[*call].start) {
                ++early;
                most_early = std::max(most_early, trace_.calls[*call].start - trace_.ops[i].start);
            }
        if (early > 0)
            app_.notes.push_back(std::to_string(early) + " GPU operations start before their host call (the clocks disagree by up to " +
                                 std::to_string(most_early / 1'000'000) + "." + std::to_string(most_early % 1'000'000 / 100'000) +
                                 " us): they are issued at their call's start");
        if (without_call > 0)
            app_.notes.push_back(std::to_string(without_call) + " GPU operations without their host call (no runtime event of their "
                                 "correlation id): no call launches them, they start when their stream reaches them");
        if (without_op > 0)
            app_.notes.push_back(std::to_string(without_op) + " launch or copy calls without a GPU operation on device " +
                                 std::to_string(app_.device) + " (" + std::to_string(cpu / 1'000'000) +
                                 " us of CPU time, kept in the gaps between calls)");
    }

    void host_sync(const SyncScope& scope, std::uint32_t call_index) {
        const TraceTime returned = trace_.calls[call_index].end;
        std::vector<int> synced;
        if (scope.kind == SyncScope::Kind::all) {
            for (int s = 0; s < static_cast<int>(streams_.size()); ++s) synced.push_back(s);
        } else if (scope.kind == SyncScope::Kind::stream) {
            const auto it = stream_ids_.find(scope.stream);
            if (it != stream_ids_.end()) synced.push_back(it->second);
        } else if (last_stream_ >= 0) {
            synced.push_back(last_stream_);
        }
        if (host_) {
            if (synced.empty()) return;
            TraceTime done = 0;
            for (const int s : synced) done = std::max(done, streams_[s].last_end.value_or(0));
            const int stream = scope.kind == SyncScope::Kind::all ? -1 : synced.front();
            host_->sync(trace_.calls[call_index], call_index, stream, done);
            ++app_.host_syncs;
            return;
        }
        for (const int s : synced) {
            if (!streams_[s].dirty) continue;
            emit({AppItem::Kind::record, s, 0, 0, "hostsync-s" + std::to_string(s)});
            streams_[s].dirty = false;
            streams_[s].record_seq = ++record_counter_;
        }
        if (!synced.empty()) ++app_.host_syncs;
        last_sync_return_ = std::max(last_sync_return_.value_or(returned), returned);
    }

    void issue_op(const Entry& e) {
        const GpuOp& op = trace_.ops[e.ref];
        const int t = stream_id(op.stream, op.event_index);
        StreamState& st = streams_[t];
        if (st.last_index && op.start < st.last_start)
            throw InputError(trace_.path + ": traceEvents[" + std::to_string(op.event_index) + "] ('" + trace_.names[op.name].substr(0, 80) +
                             "') starts on the GPU before traceEvents[" + std::to_string(*st.last_index) +
                             "], which its host issued earlier on the same stream " + std::to_string(op.stream) + ": events out of order");
        st.waited.resize(streams_.size(), 0);
        for (int s = 0; s < static_cast<int>(streams_.size()) && !host_; ++s) {
            if (s == t || streams_[s].record_seq <= st.waited[s]) continue;
            emit({AppItem::Kind::wait, t, 0, 0, "hostsync-s" + std::to_string(s)});
            st.waited[s] = streams_[s].record_seq;
        }
        const TraceTime reference = std::max(st.last_end.value_or(app_.origin), last_sync_return_.value_or(app_.origin));
        if (!host_ && e.ts > reference && e.ts - reference >= std::max<TraceTime>(options_.min_delay, 1)) {
            emit({AppItem::Kind::delay, t, 0, e.ts - reference, ""});
            ++app_.delays;
        }
        AppItem::Kind kind = AppItem::Kind::kernel;
        if (op.kind == GpuOp::Kind::memset ||
            (op.kind == GpuOp::Kind::copy && ((op.copy != GpuOp::Copy::h2d && op.copy != GpuOp::Copy::d2h) || op.bytes == 0)))
            kind = AppItem::Kind::device_op, ++app_.device_ops;
        else if (op.kind == GpuOp::Kind::copy)
            kind = AppItem::Kind::copy, ++app_.copies;
        if (op.kind == GpuOp::Kind::kernel && op.has_priority && op.stream_priority != 0) {
            std::optional<int>& priority = app_.priority[static_cast<std::size_t>(t)];
            priority = std::min(priority.value_or(op.stream_priority), op.stream_priority);  // CUDA: lower is greater
        }
        emit({kind, t, e.ref, 0, ""});
        const auto call = call_for(op.correlation);
        if (host_ && call)
            host_->launch(trace_.calls[*call], *call, app_.items.size() - 1, op.start,
                          !st.last_end || *st.last_end <= trace_.calls[*call].end);
        st.last_end = std::max(st.last_end.value_or(op.start + op.duration), op.start + op.duration);
        st.last_start = op.start;
        st.last_index = op.event_index;
        st.dirty = true;
        last_stream_ = t;
        if (call && trace_.calls[*call].kind == HostCall::Kind::blocking_copy) host_sync({SyncScope::Kind::stream, op.stream}, *call);
    }

    struct StreamState {
        std::optional<TraceTime> last_end;
        TraceTime last_start = 0;
        std::optional<std::uint64_t> last_index;
        bool dirty = false;               ///< operations since its last host-sync record
        std::uint64_t record_seq = 0;     ///< its latest host-sync record
        std::vector<std::uint64_t> waited;  ///< per stream: the record this stream last waited for
    };

    const ImportedTrace& trace_;
    const ImportOptions& options_;
    ImportedApplication app_;
    std::unordered_map<std::int64_t, std::uint32_t> call_of_;
    std::unordered_map<std::int64_t, std::uint32_t> sync_of_;
    std::vector<std::uint32_t> selected_;
    std::vector<Entry> entries_;
    TraceTime first_issue_ = 0, last_issue_ = 0;
    std::unordered_map<std::int64_t, int> stream_ids_;
    std::vector<StreamState> streams_;
    std::optional<TraceTime> last_sync_return_;
    std::uint64_t record_counter_ = 0;
    int last_stream_ = -1;
    std::optional<HostThreads> host_;  ///< the host timeline (not with frozen_gaps)
};

}  // namespace

ImportedApplication build_application(const ImportedTrace& trace, const ImportOptions& options) {
    return Builder(trace, options).run();
}

}  // namespace gpusched::importers

// RunSummary and SummaryCollector: per-launch and per-SM totals of a run, and their text and JSON views.
#pragma once

#include "gpusched/workloads/work_notes.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "gpusched/support/time.h"
#include "gpusched/sim/observer.h"
#include "gpusched/sim/output/launch_binding.h"
#include "gpusched/sim/output/time_account.h"

namespace gpusched::sim {

/// What a launch's summary row prints besides its times. Launches alike in it share one record
/// (a million calls of one spec: one), so a launch costs only its KernelTimes.
struct KernelShape {
    std::uint64_t blocks = 0;
    std::uint64_t waves = 0;        ///< ceil(blocks / (blocks_per_sm * sms)); 0 if blocks_per_sm is 0
    std::uint32_t name_index = 0;   ///< its kernel's name: RunSummary::kernel_names[name_index]
    int stream = 0;
    int threads_per_block = 0;
    int blocks_per_sm = 0;          ///< from RunInfo::occupancy (0 if the engine gave none)
    int sms = 0;                    ///< the SMs its stream may use (RunInfo::launch_sm_counts)
    std::uint32_t terms = 0;        ///< its static binding: RunSummary::launch_terms[terms]
    bool operator==(const KernelShape&) const = default;
};

/// Marks a time a run never reached (simulated times stay below 2^63 ps).
constexpr Time kUnreachedTime = ~Time{0};

/// What one launch measured (32 bytes).
struct KernelTimes {
    Time ready = kUnreachedTime;  ///< entered the execution-engine queue
    Time start = kUnreachedTime;  ///< first block began executing (set when the launch completed)
    Time end = kUnreachedTime;    ///< last block finished (set when the launch completed)
    std::uint32_t shape = 0;      ///< RunSummary::kernel_shapes[shape]
    Binding binds = Binding::duration;  ///< what bound it (LaunchBindings::after_run; set when it completed)
};

/// One launch, as the summary prints it (made from its KernelTimes and KernelShape by RunSummary::kernel).
struct KernelSummary {
    std::size_t launch = 0;         ///< index into Application::launches
    std::uint64_t blocks = 0;
    std::uint64_t waves = 0;        ///< ceil(blocks / (blocks_per_sm * sms)); 0 if blocks_per_sm is 0
    std::uint32_t name_index = 0;   ///< its kernel's name: RunSummary::kernel_names[name_index]
    int stream = 0;
    int threads_per_block = 0;
    int blocks_per_sm = 0;          ///< from RunInfo::occupancy (0 if the engine gave none)
    int sms = 0;                    ///< the SMs its stream may use (RunInfo::launch_sm_counts)
    std::optional<Time> ready;      ///< entered the execution-engine queue (unset if never reached)
    std::optional<Time> start;      ///< first block began executing (unset until the launch completed)
    std::optional<Time> end;        ///< last block finished (unset until the launch completed)
    Binding binds = Binding::duration;  ///< what bound it (meaningful once it completed)
    std::uint32_t terms = 0;        ///< RunSummary::launch_terms[terms]: its model's terms
};

/// What a copy's summary row prints besides its times and operation, shared by copies alike in it.
struct CopyShape {
    std::uint64_t bytes = 0;
    int stream = 0;
    int engine = 0;
    workloads::CopyDirection direction = workloads::CopyDirection::host_to_device;  ///< printed "h2d" or "d2h"
    bool pinned = true;
    bool operator==(const CopyShape&) const = default;
};

/// What one copy measured (32 bytes).
struct CopyTimes {
    Time ready = 0;
    Time start = 0;
    Time end = 0;
    std::uint32_t operation = 0;    ///< index into Application::issue_order() (fewer than 2^26: Event::kMaxPayload)
    std::uint32_t shape = 0;        ///< RunSummary::copy_shapes[shape]
};

/// One host-device copy, as the summary prints it (made by RunSummary::copy).
struct CopySummary {
    std::uint32_t operation = 0;    ///< index into Application::issue_order()
    int stream = 0;
    int engine = 0;
    workloads::CopyDirection direction = workloads::CopyDirection::host_to_device;  ///< printed "h2d" or "d2h"
    bool pinned = true;
    std::uint64_t bytes = 0;
    Time ready = 0;
    Time start = 0;
    Time end = 0;
};

/// One host thread of a host timeline, as the run went: its calls, their CPU time and what held it back.
struct HostThreadSummary {
    std::string name;              ///< workloads::HostThread::name
    std::uint64_t launches = 0;    ///< launch calls (a graph launch counts once)
    std::uint64_t syncs = 0;       ///< synchronisation calls
    Time cpu = 0;                  ///< its calls' CPU time (without the time blocked)
    Time gaps = 0;                 ///< its CPU time between calls (their gaps): cpu + gaps is its host work
    Time sync_wait = 0;            ///< blocked in synchronisations (the GPU busy with the work they named)
    Time queue_wait = 0;           ///< blocked on full launch queues
    Time iteration_wait = 0;       ///< blocked until the other threads ended the previous iteration (`iterations`)
    Time first_start = 0;          ///< its first call's start
    Time last_end = 0;             ///< its last call's end
};

/// Everything the summary views print. Memory is O(SMs + launches), never per block: 32 bytes per
/// launch and per copy, plus the few shapes they share.
struct RunSummary {
    std::string gpu;                ///< preset or file name (GpuSpec::name)
    std::string gpu_name;           ///< GpuSpec::full_name
    std::string compute_capability; ///< "9.0"
    int sm_count = 0;
    std::string policy;
    std::string execution;
    std::string application;        ///< Application::description
    std::string issue = "queued";   ///< Application::host_issue: "queued", "host-calls" or "graph"
    std::vector<KernelTimes> kernel_times;     ///< per launch, by launch index
    std::vector<KernelShape> kernel_shapes;    ///< shared by the launches alike in them
    std::vector<std::string> kernel_names;     ///< the launches' distinct names, in order of first use
    std::vector<LaunchTerms> launch_terms;     ///< the launches' distinct static bindings (LaunchBindings)
    std::vector<CopyTimes> copy_times;         ///< in the order they were handed to a copy engine
    std::vector<CopyShape> copy_shapes;        ///< shared by the copies alike in them
    std::vector<std::uint64_t> per_sm_blocks;  ///< indexed by SM id; blocks completed there
    std::vector<Time> per_sm_busy;             ///< indexed by SM id; sum of (end - start) of its blocks
    std::uint64_t total_blocks = 0;            ///< blocks completed
    Time makespan = 0;                         ///< from on_end
    Time host_sync_wait = 0;                   ///< host timeline: its threads' time blocked in syncs
    Time host_queue_wait = 0;                  ///< host timeline: ... on full launch queues
    std::vector<HostThreadSummary> host_threads;  ///< host timeline: per thread (Application::host order)
    /// Set by the caller, not the collector: what the result depends on that is a rule rather than
    /// data (a GPU number a rule gives, a preset's ruled default, workloads::application_notes).
    /// Printed only when not empty.
    std::vector<std::string> notes;
    /// Set by the caller, not the collector (a TimeAccountCollector's account): where the time went.
    /// Written to JSON as "time_account" only when set.
    std::optional<TimeAccount> account;

    [[nodiscard]] std::size_t kernel_count() const { return kernel_times.size(); }
    /// Launch i's row; std::out_of_range past the last launch.
    [[nodiscard]] KernelSummary kernel(std::size_t i) const;
    [[nodiscard]] const std::string& kernel_name(const KernelSummary& k) const { return kernel_names.at(k.name_index); }
    [[nodiscard]] const LaunchTerms& launch_term(const KernelSummary& k) const { return launch_terms.at(k.terms); }
    [[nodiscard]] std::size_t copy_count() const { return copy_times.size(); }
    /// The i-th copy handed to a copy engine; std::out_of_range past the last.
    [[nodiscard]] CopySummary copy(std::size_t i) const;
};

/// "h2d" or "d2h", as the summary prints a copy's direction.
const char* copy_direction_name(workloads::CopyDirection direction);

/// Observer that fills a RunSummary. Throws std::out_of_range if the engine reports a
/// launch index or SM id outside what RunInfo described (an engine bug), and TimeRangeError
/// when an SM's busy time (blocks on its slots overlap) would reach 2^63 ps.
class SummaryCollector : public SimObserver {
public:
    /// `notes`: how the summary lists the work models' rule notes (workloads::application_notes).
    explicit SummaryCollector(workloads::NoteDetail notes = workloads::NoteDetail::per_rule) : note_detail_(notes) {}
    void on_begin(const RunInfo& info) override;
    void on_host_waits(Time sync_wait, Time queue_wait) override {
        summary_.host_sync_wait = sync_wait;
        summary_.host_queue_wait = queue_wait;
    }
    void on_host_call(const HostCallRecord& call) override;
    void on_kernel_ready(std::size_t launch, Time when) override;
    void on_block_completed(const BlockRecord& block) override;
    void on_kernel_completed(std::size_t launch, Time first_start, Time end) override;
    void on_copy(const CopyRecord& copy) override;
    void on_end(Time makespan) override;
    [[nodiscard]] bool needs_every_block() const override { return false; }
    void on_launch_repeated(const RepeatedLaunch& repeated) override;

    [[nodiscard]] const RunSummary& summary() const { return summary_; }

private:
    std::optional<LaunchBindings> bindings_;
    /// Names an SM whose busy time would reach 2^63 ps (a TimeRangeError).
    static std::string busy_name(std::size_t sm);

    RunSummary summary_;
    workloads::NoteDetail note_detail_;
    const workloads::Application* app_ = nullptr;  ///< the run's (it outlives the run)
};

/// Readable aligned table. Times are microseconds with three decimals (rounded to the
/// nearest nanosecond); "-" marks a time the run never reached. Sample:
///
///     gpusched summary
///       gpu        h100 (NVIDIA H100 SXM5 80GB), cc 9.0, 132 SMs
///       policy     round-robin
///       execution  fixed
///       workload   synthetic:blocks=265,threads=1024,duration=50us + tail:blocks=10,threads=256,duration=250ns
///
///     launch  kernel     stream  blocks  threads  blocks/SM  waves  ready_us  start_us   end_us  binds
///          0  synthetic       0     265     1024          2      2     0.000     0.000  100.000  duration
///          1  tail            1      10      256          8      1     0.000    50.000   50.250  launch
///
/// `binds` is what limited the launch (Binding, binding_name; "-" for one that never completed).
/// Launches alike in kernel, shape, stream and binding are grouped into one row (first launch,
/// count, min / median / max of end - start; the lower median for an even count) when any two
/// are alike, unless `options.all_launches`; a line then says how many rows stand for how many
/// launches. (A copy table follows the launch table when the application has copies.)
///
///       makespan       100.000 us
///       blocks         275 total
///       blocks per SM  min 2 / mean 2.083 / max 3
///
/// followed by one `note` line per RunSummary::notes entry, when there are any.
struct SummaryTextOptions {
    bool all_launches = false;  ///< one row per launch, never grouped
};
void write_summary_text(std::ostream& out, const RunSummary& summary, const SummaryTextOptions& options = {});

/// One JSON object on one line, keys in a fixed order, then a newline. Schema: docs/outputs.md.
/// Times are nanoseconds as numbers (exact to the picosecond); unreached times are null.
void write_summary_json(std::ostream& out, const RunSummary& summary);

}  // namespace gpusched::sim

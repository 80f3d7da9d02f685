// ChromeTraceWriter: streams a Chrome Trace Event Format JSON file (Perfetto, chrome://tracing).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "gpusched/sim/observer.h"

namespace gpusched::sim {

/// Writes {"traceEvents":[...],"displayTimeUnit":"ns","otherData":{...}} while the run
/// goes, one event per line, keeping no per-block state (memory is O(SMs x slots + launches)).
///
/// Tracks: SM `s` is process pid = s + 1 ("SM <s>", process_sort_index s); each
/// resident-block slot `n` of it is a thread ("slot <n>", thread_sort_index n) with
/// tid = s * max_blocks_per_sm + n + 1, unique across the file, so a track's slices never
/// overlap. Each block is a complete event ("ph":"X") named "<kernel> #<block>", with
/// ts/dur in microseconds (six decimals, exact) and args {launch, block, dispatch_ns}.
/// Kernel spans (first block start to end), named "<kernel> (launch <i>)" with args
/// {launch, blocks, ready_ns}, are on a "Kernels" process, pid = sm_count + 1, sorted
/// first, one thread per stream (streams never run two launches at once). Ids 0 are
/// avoided: Perfetto treats pid/tid 0 as the Linux idle task. Metadata events (no ts) are
/// written the first time a track is used. A host timeline's threads are a "Host" process,
/// pid = sm_count + 3, sorted before "Kernels", one thread per host thread (tid = its index + 1,
/// "host <name>"): each call a complete event ("launch <kernel>", "sync stream <s>", "device sync")
/// with args {thread_call, blocked_ns}.
///
/// After `max_block_events` block slices, further blocks are counted but not written; the
/// end of the file then has an instant event "TRACE TRUNCATED: N of M blocks shown" and
/// otherData says "truncated": true with blocks_written and blocks_total.
class ChromeTraceWriter : public SimObserver {
public:
    static constexpr std::uint64_t kDefaultMaxBlockEvents = 1'000'000;

    explicit ChromeTraceWriter(std::ostream& out, std::uint64_t max_block_events = kDefaultMaxBlockEvents,
                               std::string tool_version = {});

    void on_begin(const RunInfo& info) override;
    void on_kernel_ready(std::size_t launch, Time when) override;
    void on_block_completed(const BlockRecord& block) override;
    void on_kernel_completed(std::size_t launch, Time first_start, Time end) override;
    void on_copy(const CopyRecord& copy) override;
    void on_host_call(const HostCallRecord& call) override;
    void on_end(Time makespan) override;

    /// True once a block was left out because of the cap (for a warning on stderr).
    [[nodiscard]] bool truncated() const { return blocks_total_ > blocks_written_; }
    [[nodiscard]] std::uint64_t blocks_written() const { return blocks_written_; }
    [[nodiscard]] std::uint64_t blocks_total() const { return blocks_total_; }

private:
    void begin_event();
    void name_sm_slot(int sm, int slot, std::int64_t tid);
    [[nodiscard]] std::int64_t slot_tid(int sm, int slot) const;

    std::ostream& out_;
    std::uint64_t max_block_events_;
    std::string tool_version_;
    std::string other_data_;                       ///< otherData members known at on_begin, rendered
    int sm_count_ = 0;
    int slots_per_sm_ = 1;
    std::vector<std::string> kernel_names_;        ///< per launch, JSON-escaped, without quotes
    std::vector<std::int64_t> launch_tid_;         ///< per launch, its stream's track on "Kernels"
    std::vector<std::uint64_t> launch_blocks_;     ///< per launch, its grid size
    std::vector<Time> launch_ready_;               ///< per launch, when it became ready
    std::vector<std::vector<bool>> named_slots_;   ///< per SM, slots whose metadata is written
    std::vector<bool> named_copy_engines_;         ///< per copy engine: its track's metadata is written
    const workloads::Application* app_ = nullptr;  ///< the run's (it outlives the run): host calls' kinds
    bool first_event_ = true;
    std::uint64_t blocks_written_ = 0;
    std::uint64_t blocks_total_ = 0;
};

}  // namespace gpusched::sim

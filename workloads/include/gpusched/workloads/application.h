// Application: kernel launches, copies, host delays and events on streams, as the host issues them.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/support/time.h"
#include "gpusched/workloads/host_timeline.h"
#include "gpusched/workloads/kernel_launch.h"
#include "gpusched/workloads/launch_list.h"

namespace gpusched::workloads {

/// A stream's priority in CUDA's numbers (cudaStreamCreateWithPriority): 0 is the least, lower
/// numbers are higher priorities. `high` names the device's greatest priority, whatever its
/// number (resolved against the GPU's streams.priority_range when simulated); `normal` is 0.
struct StreamPriority {
    int value = 0;          ///< the CUDA number (when not `greatest`)
    bool greatest = false;  ///< `high`: the device's greatest priority

    static const StreamPriority normal;
    static const StreamPriority high;
    /// Priority `value` in CUDA's numbers.
    [[nodiscard]] static constexpr StreamPriority cuda(int value) { return StreamPriority{value, false}; }
    friend constexpr bool operator==(const StreamPriority&, const StreamPriority&) = default;
};
inline constexpr StreamPriority StreamPriority::normal{0, false};
inline constexpr StreamPriority StreamPriority::high{0, true};

/// One stream: FIFO order of its launches, a priority, and an optional SM mask
/// (spatial partitioning: its blocks run only on the listed SMs; empty = all SMs).
struct StreamConfig {
    int id = 0;
    StreamPriority priority = StreamPriority::normal;
    std::vector<int> sm_mask;
    int partition = -1;  ///< index into Application::partitions (a green context), -1 = none
};

enum class CopyDirection : std::uint8_t { host_to_device, device_to_host };

/// A host-device transfer: latency + bytes / bandwidth on a copy engine (DESIGN.md 2.3).
struct CopyOp {
    CopyDirection direction = CopyDirection::host_to_device;
    bool pinned = true;  ///< page-locked host memory (else pageable: the spec's pageable bandwidth)
    std::uint64_t bytes = 0;
};

/// The names of an operation, which most operations lack: kept out of line (see Operation).
struct OperationNames {
    std::string event;               ///< record / wait: the event's name
    std::string id;                  ///< optional name other operations' `after` may refer to
    std::vector<std::string> after;  ///< ids of operations that must finish first (any stream)
    std::string where;               ///< where it was written ("FILE:LINE"), for messages
};

/// One immutable OperationNames shared by the operations that carry it, its reference count inside
/// (8 bytes, where a std::shared_ptr takes 16); empty for operations without names.
class SharedNames {
public:
    SharedNames() = default;
    /// A new record holding `names`.
    explicit SharedNames(OperationNames names) : record_(new Record{std::move(names), {1}}) {}
    SharedNames(const SharedNames& other) noexcept : record_(other.record_) {
        if (record_ != nullptr) record_->refs.fetch_add(1, std::memory_order_relaxed);
    }
    SharedNames(SharedNames&& other) noexcept : record_(std::exchange(other.record_, nullptr)) {}
    SharedNames& operator=(SharedNames other) noexcept {
        std::swap(record_, other.record_);
        return *this;
    }
    ~SharedNames() {
        if (record_ != nullptr && record_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete record_;
    }

    /// The names, or nullptr when empty.
    [[nodiscard]] const OperationNames* get() const { return record_ != nullptr ? &record_->names : nullptr; }
    /// Replaces the record with a new one of `names`, not shared yet, and gives it to edit.
    OperationNames& reset(OperationNames names) {
        *this = SharedNames(std::move(names));
        return record_->names;
    }

private:
    struct Record {
        OperationNames names;
        std::atomic<std::uint32_t> refs;
    };
    Record* record_ = nullptr;
};

/// One operation of the application's DAG. Operations on one stream run in issue order;
/// `record`/`wait` pairs and `after` add edges across streams.
///
/// Compact, for a million launches (48 bytes): the names live in one immutable record shared
/// by every copy of the operation (none for an operation without names), copied on write.
struct Operation {
    enum class Kind : std::uint8_t { kernel, copy, delay, record, wait };
    Kind kind = Kind::kernel;
    int stream = 0;
    std::size_t launch = 0;    ///< kernel: index into Application::launches
    CopyOp copy;               ///< copy
    Time delay = 0;            ///< delay: the stream waits this long (host work between calls)

    [[nodiscard]] const std::string& event() const { return names().event; }
    [[nodiscard]] const std::string& id() const { return names().id; }
    [[nodiscard]] const std::vector<std::string>& after() const { return names().after; }
    [[nodiscard]] const std::string& where() const { return names().where; }
    /// All names (empty ones when it has none).
    [[nodiscard]] const OperationNames& names() const { return has_names() ? *names_.get() : no_names(); }
    [[nodiscard]] bool has_names() const { return names_.get() != nullptr; }

    void set_event(std::string event) { edit_names().event = std::move(event); }
    void set_id(std::string id) { edit_names().id = std::move(id); }
    void set_after(std::vector<std::string> after) { edit_names().after = std::move(after); }
    void add_after(std::string id) { edit_names().after.push_back(std::move(id)); }
    void set_where(std::string where) { edit_names().where = std::move(where); }
    /// Shares `names` (one record for many operations, e.g. the copies of one workload item).
    void share_names(SharedNames names) { names_ = std::move(names); }

private:
    static const OperationNames& no_names() {
        static const OperationNames none;
        return none;
    }
    /// This operation's own record, copied first when it has none or shares one.
    OperationNames& edit_names() { return names_.reset(names()); }

    SharedNames names_;
};

/// How the host issues an application's operations.
enum class HostIssue {
    queued,  ///< all enqueued on their streams before the GPU needs them (a host far ahead): no host cost
    calls,   ///< one host thread, one API call per operation in issue order: operation i cannot
             ///< start before i x the GPU spec's overheads.host_launch_interval_ns
    graph,   ///< one CUDA graph launch, all issued at 0 like `queued`; each kernel is ready
             ///< overheads.graph_kernel_launch_ns after it starts (kernel_launch_ns without it)
};

/// Launches (and other operations) in host issue order. Operations on the same stream run
/// in that order; on different streams they may overlap. Streams not listed in `streams` are
/// normal-priority, unmasked.
struct Application {
    std::string description;  ///< what this is, for summaries ("synthetic:blocks=265,...")
    std::vector<StreamConfig> streams;
    LaunchList launches;  ///< identical back-to-back launches of one spec share a record
    /// Every operation in issue order, each kernel one entry referring to `launches`. Empty
    /// means "the launches in order, each on its own stream": see issue_order().
    std::vector<Operation> operations;
    HostIssue host_issue = HostIssue::queued;
    /// SM counts of green contexts made by one split of the device (docs/scheduling.md "SM
    /// partitions"); streams name them by index. Empty = no partitions.
    std::vector<int> partitions;
    int partition = -1;            ///< the partition of every stream without `sms` or its own, -1 = none
    std::string partitions_where;  ///< where `partitions` was written, for messages
    /// The host threads that issue `operations` (a launch call names operation indices); empty:
    /// `host_issue` says how they are issued. An operation no call launches is issued at 0.
    std::vector<HostThread> host;

    /// `operations`, or one kernel operation per launch when it is empty.
    [[nodiscard]] std::vector<Operation> issue_order() const {
        if (!operations.empty()) return operations;
        std::vector<Operation> ops(launches.size());
        for (std::size_t i = 0; i < launches.size(); ++i) {
            ops[i].launch = i;
            ops[i].stream = launches[i].stream;
        }
        return ops;
    }

    /// The configuration of stream `id` (a default one if not listed).
    [[nodiscard]] StreamConfig stream(int id) const {
        for (const auto& s : streams)
            if (s.id == id) return s;
        StreamConfig s;
        s.id = id;
        return s;
    }
};

}  // namespace gpusched::workloads

// WorkloadDocument: a workload file as data (its keys and items as written), before kernels are built from them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/support/time.h"
#include "gpusched/workloads/application.h"
#include "gpusched/workloads/host_timeline.h"

namespace gpusched::workloads {

/// One key of a kernel item, read by its generator like a one-line spec's key=value.
struct KernelKey {
    std::string key;
    std::string value;
    bool quoted = false;  ///< written in quotes (the writer quotes it again); not compared
    std::string where;    ///< "FILE:LINE" of the value, for messages; not compared

    friend bool operator==(const KernelKey& a, const KernelKey& b) { return a.key == b.key && a.value == b.value; }
};

/// One entry of `launches`: a kernel (its generator and keys) or a copy, delay, record or wait.
struct WorkloadItem {
    Operation::Kind kind = Operation::Kind::kernel;
    std::string kernel;                 ///< kernel: the generator's name
    std::vector<KernelKey> keys;        ///< kernel: the generator's keys in file order
    std::optional<std::size_t> repeat;  ///< kernel: `repeat` (once when absent)
    int stream = 0;                     ///< copy, delay, record, wait (a kernel's stream is one of its keys)
    CopyOp copy;                        ///< copy
    Time delay = 0;                     ///< delay
    std::string event;                  ///< record, wait
    std::string id;                     ///< the name `after` of other items may refer to; "" = none
    std::vector<std::string> after;     ///< ids of operations that must finish first
    std::vector<std::string> notes;     ///< `notes`: what the simulation ignores (an import's sources)

    std::string where;         ///< "FILE:LINE" of the item, for messages; not compared
    std::string path;          ///< "launches[I]", for messages; not compared
    std::string repeat_where;  ///< "FILE:LINE" of `repeat` ("" when absent); not compared
    std::string id_where;      ///< "FILE:LINE" of `id` ("" when absent); not compared

    friend bool operator==(const WorkloadItem& a, const WorkloadItem& b);
};

/// A workload file's content (docs/workloads.md "Workload files"): what the reader reads and the writer writes.
struct WorkloadDocument {
    std::string source;                      ///< the file as named in messages; not compared
    std::vector<std::string> notes;          ///< top-level `notes`: where the workload came from
    std::optional<std::string> description;  ///< the source's name when absent
    std::optional<HostIssue> issue;
    /// `iterations`: the items and the host threads' calls that many times in a row (a step of a training
    /// loop, N steps); identical items share their work model, so the engine memoises their later runs.
    std::optional<std::uint64_t> iterations;
    std::string iterations_where;  ///< "FILE:LINE" of `iterations`; not compared
    std::vector<int> partitions;
    std::optional<int> partition;
    std::string partitions_where;  ///< "FILE:LINE" of `partitions`; not compared
    std::vector<StreamConfig> streams;
    std::vector<WorkloadItem> items;
    std::vector<HostThread> host;  ///< `host`: the host threads' calls (items by index into `items`)

    friend bool operator==(const WorkloadDocument& a, const WorkloadDocument& b);
};

/// The application of a document: each kernel item built by its generator (repeats and multi-launch
/// kernels expanded), operations in item order. Errors name the item's location and key.
Application build_application(const WorkloadDocument& document);

}  // namespace gpusched::workloads

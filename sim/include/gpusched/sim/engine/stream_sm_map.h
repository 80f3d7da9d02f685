// StreamSmMap: the SMs each stream's launches may use (its SM mask, its partition or every SM).
#pragma once

#include <deque>
#include <map>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/sim/engine/launch_state.h"
#include "gpusched/workloads/application.h"

namespace gpusched::sim {

/// Which SMs a stream may use, one StreamSms per distinct set, by the first rule that applies
/// (docs/workloads.md "Workload files"; docs/scheduling.md "SM partitions (green contexts)"):
///
///   1. a stream listed with its own partition: that partition's SMs;
///   2. the application's partition, for every stream without an SM mask of its own (listed
///      with none, or not listed);
///   3. a stream without an SM mask (listed with none, or not listed): every SM;
///   4. otherwise the stream's SM mask.
///
/// Each StreamSms holds the set by SM id and the same SMs in the GPU's dispatch order
/// (GpuSpec::dispatch_order). Life of a set:
///
///     absent --first launch on a stream that needs it (sms_of)--> made, checked --> shared
///
/// A set is made on first use: a stream no launch uses is never checked (so a bad mask on an
/// unused stream is no error, as before the engine knew it). Made sets never move (a deque):
/// LaunchState keeps their addresses. Streams of rule 3 share one set, the streams of one
/// partition share its set, and each masked stream has its own.
///
/// The partitions' SMs (hw::partition_sms) are computed at construction, which reports a bad
/// partition list as its InputError; a mask naming an SM the GPU lacks is an InputError naming
/// the stream when sms_of first meets it.
class StreamSmMap final {
public:
    StreamSmMap(const hw::GpuSpec& gpu, const workloads::Application& app);
    StreamSmMap(const StreamSmMap&) = delete;
    StreamSmMap& operator=(const StreamSmMap&) = delete;

    /// The SMs of the stream `listed` in the application, or of an unlisted one (nullptr).
    const StreamSms& sms_of(const workloads::StreamConfig* listed);
    /// Distinct SM sets made so far.
    [[nodiscard]] std::size_t size() const { return sets_.size(); }

private:
    /// The SMs of the partition a stream runs in (its own, else the application's), or nullptr.
    [[nodiscard]] const std::vector<int>* partition_of(const workloads::StreamConfig* listed) const;
    /// A new set of the SMs marked in `allowed` (by SM id), listed in dispatch order.
    const StreamSms& make_set(std::vector<std::uint8_t> allowed);

    const hw::GpuSpec& gpu_;
    std::vector<int> order_;                          ///< the GPU's dispatch order
    std::vector<std::vector<int>> partition_sets_;    ///< SMs of each of the application's partitions
    int app_partition_ = -1;                          ///< the application's partition, -1 = none
    std::deque<StreamSms> sets_;                      ///< never moves: launches keep their addresses
    const StreamSms* unmasked_ = nullptr;             ///< rule 3's set
    std::map<const std::vector<int>*, const StreamSms*> by_partition_;
    std::map<const workloads::StreamConfig*, const StreamSms*> by_stream_;
};

}  // namespace gpusched::sim

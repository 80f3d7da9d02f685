// StreamSmMap: partitions resolved once; each stream's SM set made and checked on its first launch.
#include "gpusched/sim/engine/stream_sm_map.h"

#include <string>

#include "gpusched/hw/partition_spec.h"
#include "gpusched/support/input_error.h"

namespace gpusched::sim {

StreamSmMap::StreamSmMap(const hw::GpuSpec& gpu, const workloads::Application& app)
    : gpu_(gpu), order_(gpu.dispatch_order()), app_partition_(app.partition) {
    if (!app.partitions.empty()) partition_sets_ = hw::partition_sms(gpu, app.partitions, app.partitions_where);
}

const std::vector<int>* StreamSmMap::partition_of(const workloads::StreamConfig* listed) const {
    if (listed != nullptr && listed->partition >= 0)
        return &partition_sets_[static_cast<std::size_t>(listed->partition)];
    if (app_partition_ >= 0 && (listed == nullptr || listed->sm_mask.empty()))
        return &partition_sets_[static_cast<std::size_t>(app_partition_)];
    return nullptr;
}

const StreamSms& StreamSmMap::make_set(std::vector<std::uint8_t> allowed) {
    StreamSms& sms = sets_.emplace_back();
    sms.allowed = std::move(allowed);
    for (int sm : order_)
        if (sms.allowed[static_cast<std::size_t>(sm)] != 0) sms.sms_in_order.push_back(sm);
    return sms;
}

const StreamSms& StreamSmMap::sms_of(const workloads::StreamConfig* listed) {
    const auto sm_count = static_cast<std::size_t>(gpu_.sm_count);
    if (const std::vector<int>* partition = partition_of(listed)) {
        if (const auto it = by_partition_.find(partition); it != by_partition_.end()) return *it->second;
        std::vector<std::uint8_t> allowed(sm_count, 0);
        for (int sm : *partition) allowed[static_cast<std::size_t>(sm)] = 1;
        return *by_partition_.emplace(partition, &make_set(std::move(allowed))).first->second;
    }
    if (listed == nullptr || listed->sm_mask.empty()) {
        if (unmasked_ == nullptr) unmasked_ = &make_set(std::vector<std::uint8_t>(sm_count, 1));
        return *unmasked_;
    }
    if (const auto it = by_stream_.find(listed); it != by_stream_.end()) return *it->second;
    std::vector<std::uint8_t> allowed(sm_count, 0);
    for (int sm : listed->sm_mask) {
        if (sm < 0 || sm >= gpu_.sm_count)
            throw InputError("stream " + std::to_string(listed->id) + ": SM " + std::to_string(sm) +
                             " in its SM mask does not exist on " + gpu_.name + " (SMs 0.." +
                             std::to_string(gpu_.sm_count - 1) + ")");
        allowed[static_cast<std::size_t>(sm)] = 1;
    }
    return *by_stream_.emplace(listed, &make_set(std::move(allowed))).first->second;
}

}  // namespace gpusched::sim

// LaunchList: launches as indices into records, identical back-to-back copies sharing one record.
#include "gpusched/workloads/launch_list.h"

#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace gpusched::workloads {

bool same_launch(const KernelLaunch& a, const KernelLaunch& b) {
    return a.name == b.name && a.grid == b.grid && a.block == b.block &&
           a.registers_per_thread == b.registers_per_thread && a.static_shared_bytes == b.static_shared_bytes &&
           a.dynamic_shared_bytes == b.dynamic_shared_bytes && a.barriers_per_block == b.barriers_per_block &&
           a.carveout.kind == b.carveout.kind && a.carveout.percent == b.carveout.percent && a.stream == b.stream &&
           a.cluster == b.cluster && a.cluster_nonportable == b.cluster_nonportable && a.work == b.work;
}

LaunchList::LaunchList(std::vector<KernelLaunch> launches) {
    reserve(launches.size());
    for (KernelLaunch& launch : launches) push_back(std::move(launch));
}

LaunchList::LaunchList(std::initializer_list<KernelLaunch> launches) {
    reserve(launches.size());
    for (const KernelLaunch& launch : launches) push_back(launch);
}

const KernelLaunch& LaunchList::at(std::size_t i) const {
    if (i >= size())
        throw std::out_of_range("LaunchList: launch " + std::to_string(i) + " of " + std::to_string(size()));
    return (*this)[i];
}

void LaunchList::reserve(std::size_t count) {
    records_.reserve(count);
    shared_.reserve(count);
    index_.reserve(count);
}

std::uint32_t LaunchList::add_record(KernelLaunch launch) {
    if (records_.size() >= std::numeric_limits<std::uint32_t>::max())
        throw std::length_error("LaunchList: more than 2^32 - 1 distinct launches");
    records_.push_back(std::move(launch));
    shared_.push_back(false);
    return static_cast<std::uint32_t>(records_.size() - 1);
}

void LaunchList::push_back(KernelLaunch launch) { index_.push_back(add_record(std::move(launch))); }

KernelLaunch& LaunchList::emplace_back() {
    index_.push_back(add_record(KernelLaunch{}));
    return records_.back();
}

void LaunchList::append_copies(const KernelLaunch& launch, std::size_t count) {
    if (count == 0) return;
    const bool reuse = !index_.empty() && same_launch(records_[index_.back()], launch);
    const std::uint32_t record = reuse ? index_.back() : add_record(launch);
    if (reuse || count > 1) shared_[record] = true;
    index_.insert(index_.end(), count, record);
}

KernelLaunch& LaunchList::edit(std::size_t i) {
    if (i >= size()) throw std::out_of_range("LaunchList: edit of launch " + std::to_string(i) + " of " + std::to_string(size()));
    if (shared_[index_[i]]) {
        KernelLaunch own = records_[index_[i]];
        index_[i] = add_record(std::move(own));
    }
    return records_[index_[i]];
}

void LaunchList::truncate(std::size_t count) {
    if (count > size()) throw std::out_of_range("LaunchList: truncate to " + std::to_string(count) + " of " + std::to_string(size()));
    index_.resize(count);
}

void LaunchList::clear() {
    records_.clear();
    shared_.clear();
    index_.clear();
}

}  // namespace gpusched::workloads

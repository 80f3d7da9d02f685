// OccupancyTable: each launch's occupancy, stored once per distinct result (repeated launches share it).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "gpusched/hw/occupancy.h"

namespace gpusched::sim {

/// Read like a vector of per-launch OccupancyResults (size, [], at, front), stored as one
/// 4-byte reference per launch into the distinct results: a million launches of one shape
/// keep one result, not a million.
class OccupancyTable {
public:
    /// Appends a launch whose occupancy is `result` (a new distinct result).
    void push_back(hw::OccupancyResult result) {
        of_launch_.push_back(static_cast<std::uint32_t>(distinct_.size()));
        distinct_.push_back(std::move(result));
    }
    /// Appends a launch whose occupancy is that of launch `launch` (stored once for both).
    void push_back_same_as(std::size_t launch) { of_launch_.push_back(of_launch_.at(launch)); }
    void reserve(std::size_t launches) { of_launch_.reserve(launches); }

    [[nodiscard]] std::size_t size() const { return of_launch_.size(); }
    [[nodiscard]] bool empty() const { return of_launch_.empty(); }
    [[nodiscard]] const hw::OccupancyResult& operator[](std::size_t launch) const {
        return distinct_[of_launch_[launch]];
    }
    /// Throws std::out_of_range for a launch the table does not have.
    [[nodiscard]] const hw::OccupancyResult& at(std::size_t launch) const {
        if (launch >= of_launch_.size()) throw std::out_of_range("OccupancyTable: no such launch");
        return (*this)[launch];
    }
    [[nodiscard]] const hw::OccupancyResult& front() const { return at(0); }
    /// Distinct results stored.
    [[nodiscard]] std::size_t distinct() const { return distinct_.size(); }
    /// One result per launch, as a plain vector (for callers that keep a copy per launch).
    operator std::vector<hw::OccupancyResult>() const {
        std::vector<hw::OccupancyResult> out;
        out.reserve(of_launch_.size());
        for (std::size_t i = 0; i < of_launch_.size(); ++i) out.push_back((*this)[i]);
        return out;
    }

private:
    std::vector<hw::OccupancyResult> distinct_;
    std::vector<std::uint32_t> of_launch_;  ///< per launch: index into distinct_
};

}  // namespace gpusched::sim

// Factories of the built-in dispatch policies (one per file), used by the registry.
#pragma once

#include <memory>

#include "gpusched/sim/dispatch_policy.h"

namespace gpusched::scheduler {

std::unique_ptr<sim::DispatchPolicy> make_most_room();
std::unique_ptr<sim::DispatchPolicy> make_round_robin();
std::unique_ptr<sim::DispatchPolicy> make_static_rr();
std::unique_ptr<sim::DispatchPolicy> make_buckets();
std::unique_ptr<sim::DispatchPolicy> make_sorted();
std::unique_ptr<sim::DispatchPolicy> make_min_fluid();

}  // namespace gpusched::scheduler

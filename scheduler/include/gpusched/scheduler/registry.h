// Registry of dispatch policies by name, each with a one-line description.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gpusched/sim/dispatch_policy.h"

namespace gpusched::scheduler {

struct PolicyInfo {
    std::string name;
    std::string description;
};

/// All built-in policies, default first.
const std::vector<PolicyInfo>& policies();

/// The default policy's name ("most-room").
const std::string& default_policy();

/// Creates a policy by exact name; an unknown name is a KeyError about key "policy" listing the known ones.
std::unique_ptr<sim::DispatchPolicy> make_policy(const std::string& name);

}  // namespace gpusched::scheduler

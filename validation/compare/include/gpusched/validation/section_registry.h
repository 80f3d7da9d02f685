// The sections of `gpusched validate`, in the order they run and print.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gpusched/validation/section.h"

namespace gpusched::validation {

/// Every validation section, in run order: placement, curves, series, spmv, sssp,
/// streamcluster, apsp-timelines. A new section is one line in section_registry.cpp.
const std::vector<std::unique_ptr<ValidationSection>>& validation_sections();

/// The section called `name`; nullptr when there is none.
const ValidationSection* find_section(const std::string& name);

}  // namespace gpusched::validation

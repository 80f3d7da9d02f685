// The sections of `gpusched validate`, in the order they run and print: each experiment's view registers its own.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gpusched/validation/section.h"

namespace gpusched::validation {

/// Every validation section, in run order (their registrations' order keys, ascending).
const std::vector<std::unique_ptr<ValidationSection>>& validation_sections();

/// The section called `name`; nullptr when there is none.
const ValidationSection* find_section(const std::string& name);

/// Adds a section to validation_sections(): an experiment's view holds one at namespace scope,
///
///     const SectionRegistration spmv_registration{50, [] { return std::make_unique<SpmvSection>(); }};
///
/// `order` places the section among the others (placement 10, concurrency 20, ... partitions 120:
/// see experiments/*/view.cpp); no two sections share one. The sections are made at the first
/// call of validation_sections(), after every registration has run.
class SectionRegistration {
public:
    SectionRegistration(int order, std::function<std::unique_ptr<ValidationSection>()> make);
};

}  // namespace gpusched::validation

// The registry of validation sections: one line per section.
#include "gpusched/validation/section_registry.h"

#include "gpusched/validation/sections/apsp_timelines_section.h"
#include "gpusched/validation/sections/concurrency_section.h"
#include "gpusched/validation/sections/curves_section.h"
#include "gpusched/validation/sections/h200_section.h"
#include "gpusched/validation/sections/clusters_section.h"
#include "gpusched/validation/sections/curves_section.h"
#include "gpusched/validation/sections/partitions_section.h"
#include "gpusched/validation/sections/placement_section.h"
#include "gpusched/validation/sections/series_section.h"
#include "gpusched/validation/sections/spmv_section.h"
#include "gpusched/validation/sections/sssp_section.h"
#include "gpusched/validation/sections/streamcluster_section.h"
#include "gpusched/validation/sections/whatif_section.h"

namespace gpusched::validation {

namespace {

std::vector<std::unique_ptr<ValidationSection>> make_sections() {
    std::vector<std::unique_ptr<ValidationSection>> s;
    s.push_back(std::make_unique<PlacementSection>());
    s.push_back(std::make_unique<ConcurrencySection>());
    s.push_back(std::make_unique<CurvesSection>());
    s.push_back(std::make_unique<SeriesSection>());
    s.push_back(std::make_unique<SpmvSection>());
    s.push_back(std::make_unique<SsspSection>());
    s.push_back(std::make_unique<StreamclusterSection>());
    s.push_back(std::make_unique<ApspTimelinesSection>());
    s.push_back(std::make_unique<WhatIfSection>());
    s.push_back(std::make_unique<H200Section>());
    s.push_back(std::make_unique<ClustersSection>());
    s.push_back(std::make_unique<PartitionsSection>());
    return s;
}

}  // namespace

const std::vector<std::unique_ptr<ValidationSection>>& validation_sections() {
    static const std::vector<std::unique_ptr<ValidationSection>> sections = make_sections();
    return sections;
}

const ValidationSection* find_section(const std::string& name) {
    for (const auto& s : validation_sections())
        if (s->name() == name) return s.get();
    return nullptr;
}

}  // namespace gpusched::validation

// `gpusched validate`: the SpMV, n x SSSP, streamcluster and APSP block-timeline tables (text and JSON).
#pragma once

#include <ostream>

#include <nlohmann/json.hpp>

#include "gpusched/validation/apsp_timeline_validation.h"
#include "gpusched/validation/spmv_validation.h"
#include "gpusched/validation/sssp_validation.h"
#include "gpusched/validation/streamcluster_validation.h"

namespace gpusched::cli {

void print_spmv(std::ostream& out, const validation::SpmvComparison& s, const std::string& dir);
void print_sssp(std::ostream& out, const validation::SsspComparison& s, const std::string& dir);
nlohmann::ordered_json spmv_json(const validation::SpmvComparison& s);
nlohmann::ordered_json sssp_json(const validation::SsspComparison& s);
void print_streamcluster(std::ostream& out, const validation::StreamclusterComparison& s, const std::string& dir);
nlohmann::ordered_json streamcluster_json(const validation::StreamclusterComparison& s);
void print_apsp_timelines(std::ostream& out, const validation::ApspTimelineComparison& s, const std::string& dir,
                          const std::string& policy);
nlohmann::ordered_json apsp_timelines_json(const validation::ApspTimelineComparison& s);

}  // namespace gpusched::cli

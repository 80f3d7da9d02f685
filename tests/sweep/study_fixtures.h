// Small studies for the sweep tests: parsed from text, with quick synthetic workloads.
#pragma once

#include <string>

#include "gpusched/sweep/study.h"

namespace gpusched::test {

inline sweep::Study study_from(const std::string& yaml) { return sweep::parse_study(yaml, "study.yaml", ""); }

/// 2 x 3 grid, a 2-entry list and 5 random points (13 points); one of them cannot launch.
inline const char* const kMixedStudy = R"(study: mixed
workloads:
  syn: "synthetic:blocks=${blocks},duration=2us"
fixed:
  gpu: c2075
points:
  - grid:
      threads: [64, 256]
      blocks: [10, 30, 100]
  - list:
      - {threads: 2048, blocks: 4}
      - {threads: 128, blocks: 20, sm_count: 7, policy: round-robin}
  - random:
      count: 5
      seed: 11
      axes:
        threads: [32, 96]
        blocks: {min: 1, max: 500}
        execution.clock_mhz: {min: 500.0, max: 1500.0}
)";

}  // namespace gpusched::test

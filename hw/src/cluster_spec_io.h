// Reading and writing the `clusters` section of a GPU spec (internal to hw).
#pragma once

#include <optional>
#include <ostream>

#include "gpusched/hw/cluster_spec.h"
#include "gpusched/support/yaml_fields.h"

namespace gpusched::hw {

/// The optional top-level `clusters` section: max_size, max_size_nonportable, cluster_blocks_per_sm,
/// groups (lists of SM ids); InputError at FILE:LINE naming the key for a bad value.
std::optional<ClusterSpec> parse_cluster_spec(YamlFields& top, int sm_count);

/// The section as parse_cluster_spec reads it back.
void write_cluster_spec(std::ostream& y, const ClusterSpec& spec);

}  // namespace gpusched::hw

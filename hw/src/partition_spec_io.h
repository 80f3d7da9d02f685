// Reading and writing the `partitions` section of a GPU spec (internal to hw).
#pragma once

#include <optional>
#include <ostream>

#include "gpusched/hw/partition_spec.h"
#include "gpusched/support/yaml_fields.h"

namespace gpusched::hw {

/// The optional top-level `partitions` section: granularity, splits (lists of SM-id lists);
/// InputError at FILE:LINE naming the key for a bad value.
std::optional<PartitionSpec> parse_partition_spec(YamlFields& top, int sm_count);

/// The section as parse_partition_spec reads it back.
void write_partition_spec(std::ostream& y, const PartitionSpec& spec);

}  // namespace gpusched::hw

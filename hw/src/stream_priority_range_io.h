// Reading and writing the `streams` section of a GPU spec (internal to hw).
#pragma once

#include <optional>
#include <ostream>

#include "gpusched/hw/stream_priority_range.h"
#include "gpusched/support/yaml_fields.h"

namespace gpusched::hw {

/// The optional top-level `streams` section: priority_range [least, greatest] with
/// greatest <= 0 <= least (0, CUDA's default priority, is always a level); InputError at
/// FILE:LINE naming the key for a bad value.
std::optional<StreamPriorityRange> parse_stream_priority_range(YamlFields& top);

/// The section as parse_stream_priority_range reads it back.
void write_stream_priority_range(std::ostream& y, const StreamPriorityRange& range);

}  // namespace gpusched::hw

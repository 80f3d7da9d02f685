// The workload-file keys of SM partitions (green contexts): `partitions`, `partition` (internal to workloads).
#pragma once

#include <string>

#include <yaml-cpp/yaml.h>

#include "gpusched/support/yaml_fields.h"
#include "gpusched/workloads/workload_document.h"

namespace gpusched::workloads {

/// A stream's `partition: INDEX` (into the top-level `partitions`); -1 when absent. Fails naming
/// the key when the stream also lists `sms` (a mask and a partition would overlap).
int parse_stream_partition(YamlFields& f, bool has_sms);

/// The top-level `partitions: [K, ...]` (SM counts of green contexts made by one split of the
/// device) and `partition: INDEX` (the partition of every stream without its own) into `document`,
/// then every stream's index checked against the list. The GPU checks the counts (granularity,
/// SMs in all) when a simulation starts, naming `partitions` at its location.
void parse_partitions(YamlFields& top, const YAML::Node& root, const std::string& source, WorkloadDocument& document);

}  // namespace gpusched::workloads

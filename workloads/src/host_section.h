// The workload file's `host` section: reading it (checked against the items) and writing it back exactly.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "gpusched/workloads/host_timeline.h"

namespace gpusched::workloads {

/// The key path of a list's element: indexed("launches", 3) == "launches[3]".
inline std::string indexed(const std::string& key, std::size_t i) { return key + "[" + std::to_string(i) + "]"; }

/// The `host` list: threads with `thread` (a name) and `calls`. Each call is `{launch: I, gap, cpu}`
/// (I an index into `launches`, or a list of them for a graph launch) or `{sync: S | device, gap,
/// cpu}`. Item indices are checked against `items` (fewer than that) here; what they name is
/// checked when the application is built.
std::vector<HostThread> read_host_section(const YAML::Node& node, const std::string& source, std::size_t items);

/// The inverse of read_host_section, in the canonical layout (flow mappings, gap and cpu always).
void write_host_section(std::ostream& out, const std::vector<HostThread>& threads);

}  // namespace gpusched::workloads

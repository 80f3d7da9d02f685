// Writing a WorkloadDocument as workload YAML: the inverse of read_workload_document.
#pragma once

#include <ostream>
#include <string>

#include "gpusched/support/time.h"
#include "gpusched/workloads/workload_document.h"

namespace gpusched::workloads {

/// Picoseconds as a duration the reader takes back exactly: "12.345us", "3us", "0.000001us".
std::string exact_microseconds(Time ps);

/// The document as YAML that read_workload_document reads back to an equal document, in one
/// canonical layout: `notes`, `description`, `issue`, `partitions`, `partition`, `streams` (flow
/// mappings), then `launches`: kernels in block style (`kernel`, `notes`, `repeat`, `id`, `after`,
/// then their keys in order), operations as flow mappings, then `host` (threads, each call a flow
/// mapping with `gap` and `cpu`). Texts that are not plain words are
/// double-quoted, and so is every key value that was quoted where it was read.
void write_workload(std::ostream& out, const WorkloadDocument& document);

/// write_workload as a string.
std::string workload_yaml(const WorkloadDocument& document);

}  // namespace gpusched::workloads

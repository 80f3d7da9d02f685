// Workload files: a YAML description of streams and kernel launches (see docs/workloads.md).
#pragma once

#include <cstdint>
#include <string>

#include "gpusched/workloads/application.h"
#include "gpusched/workloads/workload_document.h"

namespace gpusched::workloads {

/// Bounds of the workload-file schema.
constexpr std::int64_t kMaxRepeat = 1'000'000;
constexpr std::size_t kMaxWorkloadLaunches = 1'000'000;  ///< after repeats
constexpr std::int64_t kMaxSmId = 99'999;                ///< sanity bound; the engine checks the GPU's count
constexpr std::size_t kMaxWorkloadFileBytes = std::size_t{16} << 20;

/// Reads and parses a workload file; errors name PATH:LINE and the key.
Application load_workload_file(const std::string& path);

/// Reads workload YAML text as data, every key checked except the generators' own (see
/// build_application); `source` names it in messages. write_workload is its inverse.
WorkloadDocument read_workload_document(const std::string& yaml, const std::string& source);

/// Reads a workload file as data (read_workload_document of its text).
WorkloadDocument load_workload_document(const std::string& path);

/// Parses workload YAML text; `source` names it in messages. Each launch mapping is turned
/// into key=value pairs and built by the same code as a one-line kernel spec.
Application parse_workload(const std::string& yaml, const std::string& source);

}  // namespace gpusched::workloads

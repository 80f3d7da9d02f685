// Joining Nsight Compute rows to an imported workload's kernels: instructions, dram_bytes and l2_bytes added to their keys.
#pragma once

#include <string>
#include <vector>

#include "gpusched/importers/ncu_report.h"
#include "gpusched/workloads/workload_document.h"

namespace gpusched::importers {

/// Adds the rows' metrics to the workload's kernels. Row i joins the i-th `kernel: kernel` item
/// of `launches` (in order); they must match by name (equal after sanitize_kernel_name, or equal
/// base names, the kernel's full name taken from its first note) and by grid and block where the
/// CSV has those columns. Each joined item gets `instructions`, `dram_bytes` and `l2_bytes`
/// (lts__t_bytes minus dram__bytes, 0 when below) after its other keys, replacing earlier ones,
/// and an "ncu: ..." note with the occupancy, cycles and duration when the CSV has them
/// (replacing an earlier one). The document's notes gain one at their front. Errors
/// (InputError): a kernel item with `repeat`, a row that does not match its kernel
/// ("CSV:LINE: ..."), more or fewer rows than kernels; the document is unchanged then.
void join_ncu(workloads::WorkloadDocument& workload, const std::string& csv_path, const std::vector<NcuRow>& rows);

}  // namespace gpusched::importers

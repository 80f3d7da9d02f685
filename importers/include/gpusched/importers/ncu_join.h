// Joining Nsight Compute rows to an imported workload's kernels: instructions, dram_bytes and l2_bytes written into the YAML.
#pragma once

#include <string>
#include <vector>

#include "gpusched/importers/ncu_report.h"

namespace gpusched::importers {

/// The workload text with the rows' metrics in its kernels. Row i joins the i-th `kernel:
/// kernel` item of `launches` (in file order); they must match by name (equal after
/// sanitize_kernel_name, or equal base names, the kernel's full name taken from the comment
/// line above its item) and by grid and block where the CSV has those columns. Each joined
/// item gets `instructions`, `dram_bytes` and `l2_bytes` (lts__t_bytes minus dram__bytes, 0
/// when below) after its last key, replacing earlier ones, and a "# ncu:" comment with the
/// occupancy, cycles and duration when the CSV has them. The header gains one comment line.
/// Errors (InputError): a kernel item in flow style or with `repeat`, a row that does not
/// match its kernel ("CSV:LINE: ..."), more or fewer rows than kernels.
std::string join_ncu(const std::string& workload_path, const std::string& workload_text, const std::string& csv_path,
                     const std::vector<NcuRow>& rows);

}  // namespace gpusched::importers

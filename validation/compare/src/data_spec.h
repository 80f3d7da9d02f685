// A run table's workload spec with its data file (matrix=, graph=) made relative to the data directory.
#pragma once

#include <string>

#include "gpusched/workloads/kernel_spec.h"

namespace gpusched::validation {

/// `text` parsed as a `kernel` spec whose `file_key` names a file relative to `dir`; the spec
/// returned names it as `dir`/file. InputError naming `where` when `text` is not such a spec
/// ("PATH:LINE: workload_spec is not an spmv spec with matrix=: '...'").
workloads::KernelSpec spec_with_data_file(const std::string& text, const std::string& kernel,
                                          const std::string& file_key, const std::string& dir,
                                          const std::string& where);

}  // namespace gpusched::validation

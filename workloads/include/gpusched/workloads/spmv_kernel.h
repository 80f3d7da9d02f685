// The `spmv` kernel generator: CSR, ELL, COO or HYB SpMV over a Matrix Market file or a generated matrix.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gpusched/workloads/generator_registry.h"
#include "gpusched/workloads/sparse_pattern.h"

namespace gpusched::workloads {

/// The matrix a spec names: `matrix=PATH` (read), or `gen=NAME` with optional rows= and seed=.
/// Throws InputError naming the key (or FILE:LINE inside the file).
SparsePattern spmv_spec_matrix(SpecArgs& args);

/// The `spmv` generator: keys format (csr|ell|coo|hyb), matrix or gen (+ rows, seed), hyb_width,
/// hyb_speed, hyb_breakeven, value_bytes, iter_latency_cycles, ns_per_instr. Blocks follow from
/// the matrix; threads per block default to 256. `format=hyb` stands for two launches: ELL up to
/// the HYB width, then COO for the rest (either is left out when empty).
KernelGeneratorInfo spmv_generator();

}  // namespace gpusched::workloads

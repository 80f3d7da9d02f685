// The data type a compute kernel's name states (bf16, fp16, tf32, fp32, fp8, int8, fp64), by an ordered token table.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpusched::importers {

/// One row: a kernel whose lower-cased name contains one of the '|'-separated `tokens` computes in `dtype`.
struct DtypeToken {
    std::string_view dtype;  ///< a workload dtype (workloads::measured_dtype_names())
    std::string_view tokens;
    std::string_view example;  ///< a name it is meant for
};

/// The ordered table (the first row with a token in the name wins; docs/importing.md "Compute families
/// without shapes"). Mixed-precision names list their input type first (bf16 before fp32 accumulation).
const std::vector<DtypeToken>& dtype_tokens();

/// The dtype of a compute kernel named `full_name` (demangled or mangled), "" when no row matches.
/// kernel_name_dtype("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64") == "bf16"
std::string kernel_name_dtype(std::string_view full_name);

}  // namespace gpusched::importers

// The ordered token table that reads a compute kernel's data type from its name (docs/importing.md).
#include "gpusched/importers/kernel_dtype.h"

#include "gpusched/importers/kernel_family.h"

namespace gpusched::importers {

const std::vector<DtypeToken>& dtype_tokens() {
    // Ordered: fp8 and int8 before the wider types their names also carry (an fp8 GEMM accumulates in
    // fp32 and may write bf16); bf16 before fp16 ("bf16" contains "f16"); both before tf32, whose CUTLASS
    // tokens name the fp32 accumulator and the MMA shape (cutlass_tensorop_bf16_s16816fprop is bf16,
    // cutlass_80_tensorop_s1688gemm tf32); tf32 before fp32 (sm80_xmma_..._tf32f32_tf32f32_f32: tf32 inputs,
    // fp32 accumulation). cuBLASLt's nvjet names give their types as
    // letters after the architecture: `tst` (bf16 in, fp32 compute, bf16 out) is checked against the
    // committed traces' operators (tests/importers/kernel_dtype_test.cpp), `hsh` (fp16) follows by analogy.
    static const std::vector<DtypeToken> tokens{
        {"fp8", "fp8|e4m3|e5m2", "sm90_xmma_gemm_e4m3e4m3_e4m3f32_f32_tn_n_tilesize128x128x128"},
        {"int8", "int8|i8i8|imma|s8s8", "sm80_xmma_gemm_i8i8_i8i32_f32_tn_n_tilesize128x128x64"},
        {"fp64", "dgemm|f64|fp64|d884", "sm80_xmma_gemm_f64f64_f64f64_f64_nt_n_tilesize64x64x16"},
        {"bf16", "bf16|bfloat16|_tst_", "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT"},
        {"fp16", "fp16|f16|half|_hsh_|h884|h1688|h16816|hgemm", "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16"},
        {"tf32", "tf32|s1688|s16816", "sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw"},
        {"fp32", "sgemm|f32f32|fp32|_sss_", "sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw"},
    };
    return tokens;
}

std::string kernel_name_dtype(std::string_view full_name) {
    const std::string name = lowered_name(full_name);
    for (const DtypeToken& row : dtype_tokens())
        if (name_matches(name, row.tokens)) return std::string(row.dtype);
    return "";
}

}  // namespace gpusched::importers

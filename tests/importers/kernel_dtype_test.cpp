// A compute kernel's dtype from its name: the token table's order, the committed traces' names against their operators' dtypes.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "gpusched/importers/kernel_dtype.h"
#include "gpusched/workloads/measured_work.h"

using gpusched::importers::DtypeToken;
using gpusched::importers::dtype_tokens;
using gpusched::importers::kernel_name_dtype;

TEST_CASE("every row's example names its dtype, and the dtypes are the workload's") {
    const auto& dtypes = gpusched::workloads::measured_dtype_names();
    for (const DtypeToken& row : dtype_tokens()) {
        CAPTURE(row.example);
        CHECK(std::find(dtypes.begin(), dtypes.end(), std::string(row.dtype)) != dtypes.end());
        CHECK(kernel_name_dtype(row.example) == row.dtype);
    }
}

TEST_CASE("the committed traces' compute kernels: the name's dtype is the operator's") {
    // One name per pattern of validation/data/h100/torch_shapes/*_k132 (42 compute-kernel names there; the
    // operators' Input type gives the dtype): nvjet `tst` is bf16, xmma and CUTLASS names spell it out.
    struct Named {
        const char* dtype;
        const char* name;
    };
    const Named named[] = {
        {"bf16", "nvjet_sm90_tst_320x128_64x3_1x2_h_bz_coopB_NNT"},
        {"bf16", "nvjet_sm90_tst_128x128_64x6_2x1_v_bz_splitK_NNT"},
        {"bf16", "sm90_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x64x64_warpgroupsize1x1x1"},
        {"bf16", "sm90_xmma_wgrad_indexed_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize64x64x64"},
        {"bf16", "void cutlass__5x_cudnn::Kernel<cutlass_tensorop_bf16_s16816fprop_optimized_bf16_256x64_32x4_nhwc_align8>"},
        {"bf16", "void precomputed_convolve_sgemm<__nv_bfloat16, 128, 6, 7, 3, 3, 5, 1, false>(int, int, int)"},
        {"tf32", "sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x64x32_stage4"},
        {"tf32", "sm90_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize64x64x32_warpgroupsize1x1x1"},
        {"fp32", "sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw_tilesize256x64x8_stage3"},
    };
    for (const Named& n : named) {
        CAPTURE(n.name);
        CHECK(kernel_name_dtype(n.name) == n.dtype);
    }
    // The two names that differ from their operator: cuDNN's SDPA engine says f16 for bf16 inputs (the
    // same tensor rate on every preset with both); CUTLASS's s1688gemm runs float tensors on TF32 tensor
    // cores (m16n8k8 TF32 MMA), which the operator's `float` does not say.
    CHECK(kernel_name_dtype("cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x64_4x1x1") == "fp16");
    CHECK(kernel_name_dtype("void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_align4>(Params)") == "tf32");
}

TEST_CASE("order: narrow types first, bf16 before fp16, tf32 before fp32; no token, no dtype") {
    CHECK(kernel_name_dtype("sm90_xmma_gemm_e4m3e4m3_bf16f32_f32_tn_n") == "fp8");  // fp8 inputs, bf16 output
    CHECK(kernel_name_dtype("sm90_xmma_gemm_bf16bf16_bf16f32_f32") == "bf16");     // not fp16 ("bf16" holds "f16")
    CHECK(kernel_name_dtype("ampere_fp16_s16816gemm_fp16_128x128") == "fp16");     // s16816: the fp32 accumulator
    CHECK(kernel_name_dtype("AMPERE_SGEMM_128X64_NN") == "fp32");                  // case ignored
    CHECK(kernel_name_dtype("nvjet_hsh_128x256_64x4_2x1_v_bz_coopA_TNN") == "fp16");
    CHECK(kernel_name_dtype("volta_dgemm_64x64_nn") == "fp64");
    CHECK(kernel_name_dtype("my_gemm_kernel") == "");
    CHECK(kernel_name_dtype("") == "");
}

// Kernel families: the rule table is data in one order, and every kernel of the committed PyTorch traces lands in its family.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>

#include "gpusched/importers/kernel_family.h"
#include "gpusched/workloads/measured_work.h"

using namespace gpusched::importers;

namespace {

/// A distinct kernel name of validation/data/h100/torch*/ and validation/data/h200/torch/ (its first 200
/// characters), the launches of it in those traces, its smallest grid and the family it belongs in.
struct TracedKernel {
    const char* family;
    int launches;
    std::uint32_t blocks;
    const char* name;
};

const TracedKernel kTraced[] = {
    {"attention", 54, 132, "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x64_4x1x1_cga1x1x1_kernel0_0"},
    {"conv", 21, 244, "_ZN17cutlass__5x_cudnn6KernelINS_4conv6kernel23ImplicitGemmConvolutionINS1_11threadblock22ImplicitGemmMultistageINS_4gemm9GemmShapeILi64ELi128ELi32EEENS4_52Conv2dWgradOutputGradientTileAccessIteratorO"},
    {"conv", 21, 46, "_ZN17cutlass__5x_cudnn6KernelINS_4conv6kernel23ImplicitGemmConvolutionINS1_11threadblock22ImplicitGemmMultistageINS_4gemm9GemmShapeILi64ELi64ELi64EEENS4_52Conv2dWgradOutputGradientTileAccessIteratorOp"},
    {"conv", 54, 196, "sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw_tilesize256x64x8_stage3_warpsize2x2x1_g1_ffma_aligna4_alignc4_execute_kernel__5x_cudnn"},
    {"conv", 54, 6272, "sm80_xmma_fprop_implicit_gemm_indexed_wo_smem_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x32x16_stage1_warpsize4x1x1_g1_tensor16x8x8_aligna4_alignc8_execute_kernel__5x_cudnn"},
    {"conv", 54, 196, "sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_alignc4_execute_kernel__5x_cudnn"},
    {"conv", 216, 784, "sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x64x32_stage5_warpsize2x2x1_g1_tensor16x8x8_execute_kernel__5x_cudnn"},
    {"conv", 63, 120, "sm90_xmma_dgrad_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x128x32_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__5x_cudnn"},
    {"conv", 63, 98, "sm90_xmma_dgrad_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x128x64_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__5x_cudnn"},
    {"conv", 84, 105, "sm90_xmma_dgrad_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x64x32_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__5x_cudnn"},
    {"conv", 63, 104, "sm90_xmma_dgrad_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x64x64_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__5x_cudnn"},
    {"conv", 63, 112, "sm90_xmma_dgrad_implicit_gemm_indexed_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x128x64_warpgroupsize1x1x1_g1_strided_execute_kernel__5x_cudnn"},
    {"conv", 42, 120, "sm90_xmma_dgrad_implicit_gemm_indexed_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize256x64x64_warpgroupsize1x1x1_g1_strided_execute_kernel__5x_cudnn"},
    {"conv", 63, 64, "sm90_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x128x32_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__5x_cudnn"},
    {"conv", 126, 56, "sm90_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x128x64_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__5x_cudnn"},
    {"conv", 63, 64, "sm90_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x64x64_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__5x_cudnn"},
    {"conv", 84, 56, "sm90_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize256x64x32_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__5x_cudnn"},
    {"conv", 21, 64, "sm90_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize64x128x64_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__5x_cudnn"},
    {"conv", 21, 40, "sm90_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize64x64x64_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__5x_cudnn"},
    {"conv", 378, 98, "sm90_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x32_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__5x_cudnn"},
    {"conv", 54, 120, "sm90_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize64x192x32_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__5x_cudnn"},
    {"conv", 54, 112, "sm90_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize64x256x32_warpgroupsize1x1x1_g1_execute_segment_k_on_kernel__5x_cudnn"},
    {"conv", 216, 120, "sm90_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize64x64x32_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__5x_cudnn"},
    {"conv", 66, 102, "sm90_xmma_wgrad_indexed_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x64x64_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__5x_cudnn"},
    {"conv", 84, 72, "sm90_xmma_wgrad_indexed_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x64x64_warpgroupsize1x1x1_g1_execute_segment_k_on_kernel__5x_cudnn"},
    {"conv", 21, 117, "sm90_xmma_wgrad_indexed_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x64x64_warpgroupsize1x1x1_g1_execute_split_k_kernel__5x_cudnn"},
    {"conv", 81, 72, "sm90_xmma_wgrad_indexed_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize64x128x64_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__5x_cudnn"},
    {"conv", 63, 16, "sm90_xmma_wgrad_indexed_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize64x64x64_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__5x_cudnn"},
    {"conv", 84, 117, "sm90_xmma_wgrad_indexed_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize64x64x64_warpgroupsize1x1x1_g1_execute_segment_k_on_kernel__5x_cudnn"},
    {"conv", 84, 117, "sm90_xmma_wgrad_indexed_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize64x64x64_warpgroupsize1x1x1_g1_execute_split_k_kernel__5x_cudnn"},
    {"conv", 21, 200, "void cutlass__5x_cudnn::Kernel<cutlass_tensorop_bf16_s16816dgrad_optimized_bf16_64x128_64x3_nhwc_align8>(cutlass_tensorop_bf16_s16816dgrad_optimized_bf16_64x128_64x3_nhwc_align8::Params)"},
    {"conv", 21, 1568, "void cutlass__5x_cudnn::Kernel<cutlass_tensorop_bf16_s16816fprop_optimized_bf16_256x64_32x4_nhwc_align8>(cutlass_tensorop_bf16_s16816fprop_optimized_bf16_256x64_32x4_nhwc_align8::Params)"},
    {"conv", 21, 392, "void precomputed_convolve_sgemm<__nv_bfloat16, 128, 6, 7, 3, 3, 5, 1, false>(int, int, int, __nv_bfloat16 const*, int, __nv_bfloat16*, __nv_bfloat16 const*, kernel_conv_params, unsigned long long, int"},
    {"elementwise_scalar", 108, 8192, "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::operator()"},
    {"elementwise_scalar", 483, 2, "void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, std::a"},
    {"copy", 1044, 1, "void at::native::vectorized_elementwise_kernel<8, at::native::bfloat16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::bfloat16_copy_kernel_cuda"},
    {"copy", 2331, 128, "void cudnn::engines_precompiled::nchwToNhwcKernel<__nv_bfloat16, __nv_bfloat16, float, false, true, (cudnnKernelDataType_t)0>(cudnn::engines_precompiled::nchw2nhwc_params_t<float>, __nv_bfloat16 const"},
    {"copy", 1296, 512, "void cudnn::engines_precompiled::nchwToNhwcKernel<float, float, float, false, true, (cudnnKernelDataType_t)0>(cudnn::engines_precompiled::nchw2nhwc_params_t<float>, float const*, float*)"},
    {"copy", 648, 128, "void cudnn::engines_precompiled::nchwToNhwcKernel<float, float, float, false, true, (cudnnKernelDataType_t)2>(cudnn::engines_precompiled::nchw2nhwc_params_t<float>, float const*, float*)"},
    {"copy", 1155, 128, "void cudnn::engines_precompiled::nhwcToNchwKernel<__nv_bfloat16, __nv_bfloat16, float, true, false, (cudnnKernelDataType_t)0>(cudnn::engines_precompiled::nhwc2nchw_params_t<float>, __nv_bfloat16 const"},
    {"copy", 756, 1024, "void cudnn::engines_precompiled::nhwcToNchwKernel<float, float, float, true, false, (cudnnKernelDataType_t)0>(cudnn::engines_precompiled::nhwc2nchw_params_t<float>, float const*, float*)"},
    {"elementwise_scalar", 54, 8192, "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl<at::native::CUDAFunctor_add<float> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<float> const&)::{lambda(int)#1}>(int, "},
    {"elementwise_scalar", 21, 1568, "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::BUnaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> > >"},
    {"elementwise_scalar", 54, 24576, "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<c10::BFloat16> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<c10::BFloat16> const&):"},
    {"elementwise_scalar", 54, 8192, "void at::native::unrolled_elementwise_kernel<at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>, 4, TrivialOffsetCalculator<2, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::nati"},
    {"elementwise", 420, 1, "void at::native::vectorized_elementwise_kernel<2, at::native::CUDAFunctorOnSelf_add<long>, std::array<char*, 2ul> >(int, at::native::CUDAFunctorOnSelf_add<long>, std::array<char*, 2ul>)"},
    {"elementwise", 972, 784, "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#"},
    {"elementwise", 54, 65536, "void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 2ul> >(int, at::native::AUnaryFunct"},
    {"elementwise", 486, 784, "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>)"},
    {"elementwise", 42, 1, "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)"},
    {"elementwise", 411, 784, "void at::native::vectorized_elementwise_kernel<8, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#"},
    {"elementwise", 357, 784, "void at::native::vectorized_elementwise_kernel<8, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::(anonymous namespace)::threshold_kernel_impl<c10::BFloat16>(at::Ten"},
    {"elementwise", 336, 784, "void at::native::vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)"},
    {"elementwise", 21, 25088, "void at::native::vectorized_elementwise_kernel<8, at::native::FillFunctor<c10::BFloat16>, std::array<char*, 1ul> >(int, at::native::FillFunctor<c10::BFloat16>, std::array<char*, 1ul>)"},
    {"gemm", 54, 128, "nvjet_sm90_tst_128x128_64x6_2x1_v_bz_splitK_NNT"},
    {"gemm", 162, 128, "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT"},
    {"gemm", 54, 132, "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT"},
    {"gemm", 162, 128, "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT"},
    {"gemm", 54, 132, "nvjet_sm90_tst_320x128_64x3_1x2_h_bz_coopB_NNT"},
    {"gemm", 21, 128, "nvjet_sm90_tst_64x64_64x13_2x1_v_bz_NTT"},
    {"gemm", 3, 32, "nvjet_sm90_tst_64x8_64x16_1x2_h_bz_NNT"},
    {"gemm", 3, 64, "nvjet_sm90_tst_64x8_64x16_1x2_h_bz_bias_TNT"},
    {"gemm", 18, 32, "nvjet_sm90_tst_64x8_64x16_2x4_h_bz_NNT"},
    {"gemm", 18, 64, "nvjet_sm90_tst_64x8_64x16_2x4_h_bz_bias_TNT"},
    {"gemm", 54, 96, "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_align4>(cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_align4::Params)"},
    {"normalization", 420, 1, "void at::native::(anonymous namespace)::unrolled_elementwise_kernel_for_multi_outputs<3, at::native::(anonymous namespace)::batch_norm_update_stats_and_invert(at::Tensor const&, at::Tensor const&, at:"},
    {"normalization", 162, 4096, "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float, false>(int, float, float const*, float const*, float const*, float*, float*, float*)"},
    {"normalization", 420, 64, "void at::native::batch_norm_backward_kernel<c10::BFloat16, float, float, int>(torch::headeronly::detail::GenericPackedTensorAccessor<torch::headeronly::detail::TensorAccessor<c10::ArrayRef<long>, c10:"},
    {"normalization", 420, 64, "void at::native::batch_norm_collect_statistics_kernel<at::native::Var, c10::BFloat16, c10::BFloat16, float, int>(torch::headeronly::detail::GenericPackedTensorAccessor<torch::headeronly::detail::Tenso"},
    {"normalization", 420, 2048, "void at::native::batch_norm_transform_input_kernel<c10::BFloat16, float, float, true, int>(torch::headeronly::detail::GenericPackedTensorAccessor<torch::headeronly::detail::TensorAccessor<c10::ArrayRe"},
    {"normalization", 1080, 2048, "void cudnn::bn_fw_inf_1C11_kernel_NCHW<float, float, true, 1>(float, float, cudnnTensorStruct, float const*, cudnnTensorStruct, float*, cudnnTensorStruct, float const*, float const*, float const*, flo"},
    {"optimizer", 21, 227, "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<1>, at::native::(anonymous namespace)::BinaryOpScalarFunctor<float, 1, 1, 0>, st"},
    {"optimizer", 42, 227, "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>,"},
    {"other", 54, 1, "void cask_plugin__5x_cudnn::xmma__5x_cudnn::init_device_workspace_kernel<xmma__5x_cudnn::implicit_gemm::fprop::Warp_specialized_params_non_template<xmma__5x_cudnn::Grid_constant_params> >(xmma__5x_cud"},
    {"other", 168, 1, "void cask_plugin__5x_cudnn::xmma__5x_cudnn::init_device_workspace_kernel<xmma__5x_cudnn::implicit_gemm::wgrad_indexed::Warp_specialized_params<xmma__5x_cudnn::Grid_constant_params> >(xmma__5x_cudnn::i"},
    {"other", 21, 64, "void cudnn::cnn::kern_precompute_indices<false>(int*, int, int, int, int, int)"},
    {"reduction", 21, 100352, "void at::native::(anonymous namespace)::max_pool_backward_nchw<c10::BFloat16, float, int>(c10::BFloat16 const*, long const*, int, int, int, int, int, int, int, int, int, int, int, int, int, int, c10::"},
    {"reduction", 21, 25088, "void at::native::(anonymous namespace)::max_pool_forward_nchw<c10::BFloat16, int>(int, c10::BFloat16 const*, long, long, long, int, int, int, int, int, int, int, int, int, int, c10::BFloat16*, long*)"},
    {"reduction", 54, 25088, "void at::native::(anonymous namespace)::max_pool_forward_nchw<float, int>(int, float const*, long, long, long, int, int, int, int, int, int, int, int, int, int, float*, long*)"},
    {"reduction", 21, 1, "void at::native::(anonymous namespace)::nll_loss_backward_reduce_cuda_kernel_2d<float, long>(float*, float const*, long const*, float const*, float const*, bool, int, int, long, long)"},
    {"reduction", 21, 1, "void at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_kernel_2d<float, float, long>(float*, float*, float const*, long const*, float const*, bool, long, long, long, long)"},
    {"reduction", 21, 2, "void at::native::reduce_kernel<128, 4, at::native::ReduceOp<c10::BFloat16, at::native::func_wrapper_t<c10::BFloat16, at::native::sum_functor<c10::BFloat16, float, c10::BFloat16>::operator()(at::Tensor"},
    {"reduction", 54, 2112, "void at::native::reduce_kernel<128, 4, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, "},
    {"reduction", 21, 1024, "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<c10::BFloat16, at::native::MeanOps<c10::BFloat16, float, float, c10::BFloat16>, unsigned int, c10::BFloat16, 4, 8> >(at::native::ReduceOp<c1"},
    {"reduction", 54, 1024, "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, "},
    {"reduction", 54, 1024, "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::MaxNanFunctor<float> >, unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::na"},
    {"reduction", 54, 528, "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float"},
    {"reduction", 54, 512, "void cublasLt::splitKreduce_kernel<32, 16, int, float, __nv_bfloat16, float, __nv_bfloat16, false, float, __nv_bfloat16, __nv_bfloat16, true, false, false, false>(cublasLt::cublasSplitKParams<float>, "},
    {"reduction", 54, 64, "void cublasLt::splitKreduce_kernel<32, 16, int, float, float, float, float, false, float, float, float, true, true, false, false>(cublasLt::cublasSplitKParams<float>, float const*, float const*, float"},
    {"reduction", 42, 32, "void cutlass__5x_cudnn::Kernel<cutlass__5x_cudnn::reduction::kernel::ReduceSplitK<cutlass__5x_cudnn::MatrixShape<4, 256>, cutlass__5x_cudnn::epilogue::thread::LinearCombination<cutlass__5x_cudnn::bflo"},
    {"softmax", 21, 8, "void (anonymous namespace)::softmax_warp_backward<c10::BFloat16, c10::BFloat16, float, 10, true, false>(c10::BFloat16*, c10::BFloat16 const*, c10::BFloat16 const*, int, int, int, bool const*)"},
    {"softmax", 21, 8, "void (anonymous namespace)::softmax_warp_forward<c10::BFloat16, c10::BFloat16, float, 10, true, false>(c10::BFloat16*, c10::BFloat16 const*, int, int, int, bool const*, int, bool)"},
    {"softmax", 54, 16384, "void at::native::(anonymous namespace)::cunn_SoftMaxForwardReg<float, float, float, at::native::(anonymous namespace)::SoftMaxForwardEpilogue, long, 4>(float*, float const*, long)"},
    {"sort_scan", 54, 18, "void at_cuda_detail::cub::detail::scan::DeviceScanInitKernel<at_cuda_detail::cub::ScanTileState<float, true> >(at_cuda_detail::cub::ScanTileState<float, true>, int)"},
    {"sort_scan", 54, 2185, "void at_cuda_detail::cub::detail::scan::DeviceScanKernel<at_cuda_detail::cub::detail::scan::policy_hub<float, float, float, unsigned int, std::plus<float> >::Policy1000, float const*, float*, at_cuda_"},
};

}  // namespace

TEST_CASE("every kernel name of the committed PyTorch traces lands in its family") {
    std::set<std::string> seen;
    int launches = 0;
    for (const TracedKernel& k : kTraced) {
        CAPTURE(k.name);
        CHECK(classify_kernel(k.name, {k.blocks, 1, 1}).family == k.family);
        seen.insert(k.family);
        launches += k.launches;
    }
    CHECK(std::size(kTraced) == 95);
    CHECK(launches == 18162);
    // The traces have no collective, index, triton kernels: those rows are checked below.
    CHECK(seen.size() == 12);
}

TEST_CASE("the rule table: families the workload reader knows, a description per row, the first match wins") {
    const auto& names = gpusched::workloads::kernel_family_names();
    for (const FamilyRule& rule : family_rules()) {
        CAPTURE(rule.patterns);
        CHECK(std::find(names.begin(), names.end(), rule.family) != names.end());
        CHECK(!rule.description.empty());
        CHECK(!rule.patterns.empty());
    }
    // A copy written as a non-vectorized elementwise kernel is elementwise_scalar (its row comes before the copy
    // row); a vectorized copy is a copy; vectorized elementwise kernels stay elementwise; mangled names too.
    CHECK(classify_kernel("void at::native::elementwise_kernel<128, 4, direct_copy_kernel_cuda>(int)", {8, 1, 1}).family ==
          "elementwise_scalar");
    CHECK(classify_kernel("void at::native::unrolled_elementwise_kernel<direct_copy_kernel_cuda>(int)", {8, 1, 1}).family ==
          "elementwise_scalar");
    CHECK(classify_kernel("void at::native::vectorized_elementwise_kernel<4, direct_copy_kernel_cuda>(int)", {8, 1, 1}).family ==
          "copy");
    CHECK(classify_kernel("void at::native::vectorized_elementwise_kernel<4, CUDAFunctor_add<float>>(int)", {8, 1, 1}).family ==
          "elementwise");
    CHECK(classify_kernel("_ZN2at6native18elementwise_kernelILi128ELi4EZNS0_22gpu_kernel_impl_nocastE", {8, 1, 1}).family ==
          "elementwise_scalar");
    CHECK(classify_kernel("_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_15CUDAFunctor_addIfEE", {8, 1, 1}).family ==
          "elementwise");
    // cuDNN: a layout transform is a copy, a setup kernel of a small grid `other`, the rest conv.
    CHECK(classify_kernel("void cudnn::engines_precompiled::nchwToNhwcKernel<float>(int)", {8, 1, 1}).family == "copy");
    CHECK(classify_kernel("void cudnn::cnn::kern_precompute_indices<false>(int*)", {1, 1, 1}).family == "other");
    CHECK(classify_kernel("void cudnn::cnn::kern_precompute_indices<false>(int*)", {4096, 1, 1}).family == "conv");  // launch shape
    CHECK(classify_kernel("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64", {132, 1, 1}).family == "gemm");
    CHECK(classify_kernel("ampere_sgemm_128x64_tn", {1, 1, 1}).family == "gemm");
    CHECK(classify_kernel("void gemv2T_kernel_val<int, int, float>(float)", {1, 1, 1}).family == "gemm");
    CHECK(classify_kernel("void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits>(Flash_fwd_params)", {1, 1, 1}).family ==
          "attention");
    CHECK(classify_kernel("fmha_cutlassF_bf16_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel)", {1, 1, 1}).family ==
          "attention");
    CHECK(classify_kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", {1, 1, 1}).family ==
          "collective");
    CHECK(classify_kernel("void at::native::index_select_small_index<float>(int)", {1, 1, 1}).family == "index");
    CHECK(classify_kernel("void at::native::embedding_backward_feature_kernel<float>(int)", {1, 1, 1}).family == "index");
    CHECK(classify_kernel("void at::native::(anonymous namespace)::CatArrayBatchedCopy<float>(int)", {1, 1, 1}).family ==
          "elementwise");
    CHECK(classify_kernel("void cub::DeviceRadixSortOnesweepKernel<Policy>(int)", {1, 1, 1}).family == "sort_scan");
    CHECK(classify_kernel("void at::native::(anonymous namespace)::GammaBetaBackwardCUDAKernel_layer_norm(int)", {1, 1, 1}).family ==
          "normalization");
    CHECK(classify_kernel("void at::native::rms_norm_kernel<float>(int)", {1, 1, 1}).family == "normalization");
    CHECK(classify_kernel("void multi_tensor_apply_kernel<FusedAdamMathFunctor<float>>(int)", {1, 1, 1}).family == "optimizer");
}

TEST_CASE("Triton kernels: the fused-op hint of the name, else the triton family") {
    CHECK(classify_kernel("triton_poi_fused_add_mul_0", {64, 1, 1}).family == "elementwise");
    CHECK(classify_kernel("triton_red_fused_sum_1", {64, 1, 1}).family == "reduction");
    CHECK(classify_kernel("triton_per_fused_native_layer_norm_2", {64, 1, 1}).family == "reduction");
    CHECK(classify_kernel("triton_tem_fused_mm_3", {64, 1, 1}).family == "gemm");
    CHECK(classify_kernel("triton_", {64, 1, 1}).family == "triton");
    CHECK(classify_kernel("triton_fused_thing", {64, 1, 1}).family == "triton");
}

TEST_CASE("a name that matches no row is `other`, with no row") {
    const FamilyMatch m = classify_kernel("my_custom_kernel(int)", {1, 1, 1});
    CHECK(m.family == "other");
    CHECK(m.rule == -1);
    CHECK(classify_kernel("", {1, 1, 1}).family == "other");
    CHECK(classify_kernel("void", {1, 1, 1}).family == "other");
    CHECK(family_kind("other") == FamilyKind::none);
    CHECK(family_kind("copy") == FamilyKind::memory);
    CHECK(family_kind("attention") == FamilyKind::compute);
    CHECK(family_kind("triton") == FamilyKind::none);
}

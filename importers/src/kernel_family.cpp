// The kernel family rule table and the classifier that walks it in order (docs/importing.md "Kernel families").
#include "gpusched/importers/kernel_family.h"

#include <cctype>

namespace gpusched::importers {

const std::vector<FamilyRule>& family_rules() {
    // Ordered: the first row that matches wins. More specific rows come before the broad ones they
    // would otherwise fall into (a cuDNN layout transform is `copy`, not `conv`; a copy or add written as a
    // non-vectorized elementwise kernel is `elementwise_scalar`; a split-K reduction is `reduction`, not `gemm`).
    static const std::vector<FamilyRule> rules{
        {"collective", "nccl", 0, "NCCL collectives and point-to-point kernels (ncclDevKernel_*, ncclKernel_*)"},
        {"elementwise", "^triton_poi", 0, "Triton (torch.compile) pointwise kernels: triton_poi_*"},
        {"reduction", "^triton_red|^triton_per", 0, "Triton reductions: triton_red_* and persistent reductions triton_per_*"},
        {"gemm", "^triton_tem|^triton_mm|^triton_bmm", 0, "Triton matmul templates: triton_tem_*, triton_mm*, triton_bmm*"},
        {"triton", "^triton_", 0, "other Triton kernels, without a fused-op hint in the name (duration only)"},
        {"other", "init_device_workspace|precompute_indices", 1024,
         "cuDNN/cuBLAS setup kernels (workspace init, index precompute) of at most 1024 blocks: no share of the op's work"},
        {"attention", "flash|fmha|sdpa|attention|_attn", 0,
         "attention: flash-attention, cuDNN/cutlass fmha, cuDNN SDPA engines, pytorch_flash, efficient_attention"},
        {"optimizer", "multi_tensor_apply|foreach|fused_adam|adam_|fusedadam|fused_sgd|sgd_", 0,
         "optimizer steps: multi_tensor_apply (foreach) kernels, fused Adam/AdamW/SGD"},
        {"normalization", "layer_norm|layernorm|batch_norm|batchnorm|bn_fw|bn_bw|group_norm|groupnorm|rms_norm|rmsnorm|instance_norm", 0,
         "layer/batch/group/RMS/instance normalisation, including cuDNN's bn_fw/bn_bw kernels"},
        {"softmax", "softmax", 0, "softmax and log-softmax, forward and backward (cunn_SoftMax*, softmax_warp_*)"},
        {"reduction", "splitkreduce|reducesplitk", 0, "split-K reductions that finish a GEMM or convolution (cuBLASLt, cutlass)"},
        {"copy", "nchwtonhwc|nhwctonchw|nchw2nhwc|nhwc2nchw", 0, "cuDNN layout transforms (nchwToNhwc, nhwcToNchw) around a convolution"},
        {"conv", "conv|fprop|dgrad|wgrad|implicit_gemm|cudnn::|winograd|fft2d", 0,
         "convolutions: cuDNN xmma implicit GEMM fprop/dgrad/wgrad, cutlass ImplicitGemmConvolution, other cudnn:: kernels"},
        {"gemm", "gemm|gemv|nvjet|cublas|matmul|cutlass", 0,
         "matrix multiplies: cuBLAS/cuBLASLt nvjet_*, sm90_xmma_gemm_*, cutlass *gemm*, ampere_*gemm*, gemv*"},
        {"elementwise_scalar", "::elementwise_kernel<|18elementwise_kernel|unrolled_elementwise_kernel", 0,
         "elementwise kernels without vector loads (at::native elementwise_kernel<nt, vt>, unrolled_elementwise_kernel): "
         "per-element offset arithmetic or dtype conversion make them SM-bound (duration only)"},
        {"elementwise", "catarraybatchedcopy", 0, "torch.cat's CatArrayBatchedCopy kernels"},
        {"copy", "transpose|copy|memcpy|memset", 0,
         "copies and transposes: direct_copy / bfloat16_copy kernels, Memcpy and Memset kernels, transpose"},
        {"sort_scan", "radix|sort|devicescan|scan::|devicehistogram|deviceselect", 0, "sorts and scans: cub radix sort, DeviceScan, select"},
        {"index", "index_|indexselect|indexfunc|gather|scatter|embedding|take_|masked_", 0,
         "indexing: index_select/index_put, gather, scatter, embedding lookups"},
        {"reduction", "reduce|nll_loss|pool|argmax|argmin|norm_kernel", 0,
         "reductions: at::native reduce_kernel (sum, mean, max), losses, pooling windows"},
        {"elementwise", "elementwise|fill|clamp|threshold|unary|binary|pointwise", 0,
         "elementwise: at::native elementwise_kernel, vectorized/unrolled_elementwise_kernel, fills, clamps, thresholds"},
    };
    return rules;
}

std::string lowered_name(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool name_matches(std::string_view name, std::string_view patterns) {
    const std::string_view head = name.substr(0, 5) == "void " ? name.substr(5) : name;
    while (!patterns.empty()) {
        const auto bar = patterns.find('|');
        const std::string_view pattern = patterns.substr(0, bar);
        if (!pattern.empty() && pattern.front() == '^') {
            if (head.substr(0, pattern.size() - 1) == pattern.substr(1)) return true;
        } else if (!pattern.empty() && name.find(pattern) != std::string_view::npos) {
            return true;
        }
        if (bar == std::string_view::npos) break;
        patterns.remove_prefix(bar + 1);
    }
    return false;
}

FamilyMatch classify_kernel(std::string_view full_name, const std::array<std::uint32_t, 3>& grid) {
    const std::string name = lowered_name(full_name);
    const std::uint64_t blocks = std::uint64_t{grid[0]} * grid[1] * grid[2];
    const auto& rules = family_rules();
    for (std::size_t r = 0; r < rules.size(); ++r) {
        if (rules[r].max_blocks != 0 && blocks > rules[r].max_blocks) continue;
        if (name_matches(name, rules[r].patterns)) return {std::string(rules[r].family), static_cast<int>(r)};
    }
    return {"other", -1};
}

FamilyKind family_kind(std::string_view family) {
    for (const std::string_view f : {"elementwise", "reduction", "softmax", "normalization", "copy", "index", "optimizer"})
        if (family == f) return FamilyKind::memory;
    for (const std::string_view f : {"gemm", "conv", "attention"})
        if (family == f) return FamilyKind::compute;
    return FamilyKind::none;
}

}  // namespace gpusched::importers

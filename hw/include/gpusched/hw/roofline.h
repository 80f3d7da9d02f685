// The GPU's roofline as data: peak FP32 and tensor-core throughput per SM per cycle, and GPU-wide peaks.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/hw/gpu_spec.h"

namespace gpusched::hw {

/// The dtypes `execution.tensor_flops_per_sm_cycle` may name, in display order:
/// fp64, tf32, fp16, bf16, fp8, int8.
const std::vector<std::string_view>& tensor_dtypes();

/// Dense tensor-core FLOPs (int8: operations) one SM does per cycle in `dtype`; nullopt when the
/// GPU's tensor cores lack it (or it has none). Per SM, so `--sms K` (with_sm_count) keeps it.
std::optional<double> tensor_flops_per_sm_cycle(const GpuSpec& gpu, std::string_view dtype);

/// GPU-wide peak FLOP/s (int8: operations per second) of `dtype`: "fp32" is the non-tensor FMA
/// peak (execution.fma_flops_per_sm_cycle), any of tensor_dtypes() the dense tensor-core peak;
/// per SM per cycle x sm_count x execution.clock_mhz x 10^6. nullopt when the spec lacks the
/// per-SM number or the clock, or for another dtype. The clock is the preset's boost clock, so a
/// datasheet that states its tensor peak at a lower clock (the h100's 1830 MHz) gives less.
std::optional<double> peak_flops(const GpuSpec& gpu, std::string_view dtype);

/// The compute families `execution.library_efficiency` may name: gemm, conv, attention.
const std::vector<std::string_view>& efficiency_families();

/// execution.library_efficiency of `family`: the fraction of the dtype's peak its library kernels
/// reach on `gpu`; nullopt when the spec does not say.
std::optional<double> library_efficiency(const GpuSpec& gpu, std::string_view family);

/// The dtype whose tensor peak `gpusched list gpus` shows: bf16, else fp16; nullopt without either.
std::optional<std::string> headline_tensor_dtype(const GpuSpec& gpu);

}  // namespace gpusched::hw

// An operator's work from its recorded shapes: the bytes of its tensors, its FLOPs (mm, conv, attention) and its data type.
#pragma once

#include <optional>
#include <string>

#include "gpusched/importers/op_shapes.h"

namespace gpusched::importers {

/// The bytes of one element of a profiler `Input type` (float 4, c10::Half and c10::BFloat16 2, double
/// and long 8, int 4, bool and uint8 1, Float8 1); 0 for a type that is not a known tensor type.
int dtype_bytes(const std::string& type);

/// The workload `dtype` of a profiler `Input type` (float fp32, c10::Half fp16, c10::BFloat16 bf16,
/// double fp64, Float8 fp8, signed char int8); "" when none fits.
std::string workload_dtype(const std::string& type);

/// A value, or why there is none ("" when the operator simply has no such work).
struct OpEstimate {
    std::optional<double> value;
    std::string problem;        ///< why there is no value: "no shapes recorded", "zero elements", ...
    bool inconsistent = false;  ///< the shapes are there but do not fit (zero elements, an unknown dtype...)
};

/// The bytes the operator's tensors move: its tensor inputs plus its output, the output's shape from
/// the inputs (docs/importing.md "Work from shapes"): `copy_` its inputs only; an in-place op (`name_`)
/// writes its first input; `backward` ops write the largest input's shape; a `reduction` the first
/// input with the dims of its second argument reduced (all when none parse), a pooling op its
/// input divided by the stride; `elementwise` the broadcast of the inputs; others the first input.
OpEstimate op_bytes(const CpuOp& op, const std::string& family);

/// FLOPs computed from the shapes: mm/addmm 2MNK, bmm/baddbmm 2BMNK, convolution
/// 2 N K P Q (C/groups) R S (convolution_backward: that per gradient its output_mask asks, 2 without
/// a mask), scaled_dot_product attention 4 B H Sq Sk D. No value for other operators.
OpEstimate op_flops(const CpuOp& op);

/// The data type of the operator's first tensor input.
std::string op_dtype(const CpuOp& op);

}  // namespace gpusched::importers

// The names a measured launch's labels may take: kernel families, work sources and data types (docs/workloads.md).
#include "gpusched/workloads/measured_work.h"

namespace gpusched::workloads {

const std::vector<std::string>& kernel_family_names() {
    static const std::vector<std::string> names{"gemm",      "conv",       "attention", "elementwise",   "elementwise_scalar",
                                                "reduction", "softmax",    "normalization", "copy",      "index",
                                                "sort_scan", "optimizer",  "collective", "triton",        "other"};
    return names;
}

const std::vector<std::string>& work_from_names() {
    static const std::vector<std::string> names{"ncu", "shapes", "profiler-flops", "bandwidth-rule", "efficiency-rule", "duration"};
    return names;
}

const std::vector<std::string>& measured_dtype_names() {
    static const std::vector<std::string> names{"fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8"};
    return names;
}

}  // namespace gpusched::workloads

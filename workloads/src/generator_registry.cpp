// The registry of kernel generators and the help for the keys every generator accepts.
#include "gpusched/workloads/generator_registry.h"

#include "gpusched/workloads/apsp_fw.h"
#include "gpusched/workloads/apsp_minplus.h"
#include "gpusched/workloads/binomial_series.h"
#include "gpusched/workloads/kernel_work.h"
#include "gpusched/workloads/spmv_kernel.h"
#include "gpusched/workloads/sssp_generator.h"
#include "gpusched/workloads/streamcluster.h"
#include "gpusched/workloads/synthetic_work.h"

namespace gpusched::workloads {

std::string KernelGeneratorInfo::keys_help() const {
    std::string out;
    for (const auto& key : keys) out += (out.empty() ? "" : " ") + key.name + "=" + key.syntax;
    return out;
}

const std::vector<SpecKeyInfo>& generic_spec_keys() {
    static const std::vector<SpecKeyInfo> keys = {
        {"threads", "T", "threads per block, 1..2^20 (or block=)"},
        {"block", "XxY[xZ]", "block dimensions, product 1..2^20 (or threads=)"},
        {"blocks", "B", "blocks in the grid, 1..2^40 (or grid=)"},
        {"grid", "XxY[xZ]", "grid dimensions, each 1..2^31-1, product 1..2^40 (or blocks=)"},
        {"regs", "R", "registers per thread, 0..65536 (default 0)"},
        {"smem", "BYTES", "dynamic shared memory per block, 0..2^40 (default 0)"},
        {"static_smem", "BYTES", "static shared memory per block, 0..2^40 (default 0)"},
        {"barriers", "N", "named barriers per block, 0..65536 (default 1)"},
        {"carveout", "default|max-shared|max-l1|equal|0..100", "preferred L1/shared split (default: default)"},
        {"stream", "ID", "stream id, 0..1023 (default 0)"},
        {"name", "LABEL", "label shown in outputs (default: the generator name)"},
        {"cluster", "N|XxY|XxYxZ", "thread-block cluster shape, each dimension 1..16 dividing the grid's (cc 9.0+)"},
        {"cluster_nonportable", "0|1", "allow clusters up to the GPU's non-portable size limit (default 0)"},
    };
    return keys;
}

const std::vector<KernelGeneratorInfo>& kernel_generators() {
    static const std::vector<KernelGeneratorInfo> generators = {
        synthetic_generator(),
        apsp_minplus_generator(),
        apsp_fw_generator(),
        binomial_series_generator(),
        spmv_generator(),
        sssp_generator(),
        streamcluster_generator(),
        kernel_generator(),
    };
    return generators;
}

const KernelGeneratorInfo* find_kernel_generator(const std::string& name) {
    for (const auto& generator : kernel_generators())
        if (generator.name == name) return &generator;
    return nullptr;
}

std::string kernel_generator_names() {
    std::string out;
    for (const auto& generator : kernel_generators()) out += (out.empty() ? "" : ", ") + generator.name;
    return out;
}

}  // namespace gpusched::workloads

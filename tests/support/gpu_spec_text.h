// Helpers for GPU-spec tests: a minimal valid spec's YAML with extra lines, and the error a spec text gives.
#pragma once

#include <string>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"

namespace gpusched::test {

/// A valid 4-SM cc 9.0 spec whose execution section (clock_mhz `clock`) ends in `execution_tail` lines, with
/// `top_tail` lines after sm_count.
inline std::string minimal_spec_text(const std::string& execution_tail, const std::string& top_tail = "",
                                     const std::string& clock = "1000") {
    return "name: t\nfull_name: T\ncompute_capability: \"9.0\"\nsm_count: 4\n" + top_tail +
           "limits:\n  warp_size: 32\n  max_threads_per_sm: 2048\n  max_warps_per_sm: 64\n  max_blocks_per_sm: 32\n"
           "  max_threads_per_block: 1024\n  registers_per_sm: 65536\n  max_registers_per_block: 65536\n"
           "  max_registers_per_thread: 255\n  shared_memory_per_sm: 233472\n  shared_memory_per_block: 49152\n"
           "  shared_memory_per_block_optin: 232448\n  reserved_shared_memory_per_block: 1024\n"
           "  shared_memory_configs_kib: [0, 228]\nallocation:\n  register_granularity: warp\n"
           "  register_allocation_unit: 256\n  register_sub_partitions: 4\n  shared_memory_allocation_unit: 128\n"
           "execution:\n  warp_schedulers_per_sm: 4\n  issue_width: 1\n  clock_mhz: " + clock + "\n" + execution_tail;
}

/// The InputError message parsing `text` gives, "(no error)" when it parses.
inline std::string spec_error(const std::string& text) {
    try {
        hw::parse_gpu_spec(text, "bad.yaml");
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace gpusched::test

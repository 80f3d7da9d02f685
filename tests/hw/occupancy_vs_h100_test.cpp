// Exactness proof 2: gpusched agrees with cudaOccupancyMaxActiveBlocksPerMultiprocessor measured on an H100.
#include <doctest/doctest.h>

#include <filesystem>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "gpusched/hw/occupancy.h"
#include "support/csv_table.h"

using namespace gpusched;

namespace {
const std::string kData = std::string(GPUSCHED_SOURCE_DIR) + "/validation/data/h100/occupancy.csv";
long long as_ll(const std::string& s) { return std::stoll(s); }
}  // namespace

TEST_CASE("the h100 preset matches the measured device properties") {
    REQUIRE_MESSAGE(std::filesystem::exists(kData), kData << " is missing (run validation/scripts/collect-h100.sh)");
    const auto table = test::read_csv_table(kData);
    const hw::GpuSpec s = hw::resolve_gpu("h100");
    const auto& m = table.metadata;
    CHECK(as_ll(m.at("multiProcessorCount")) == s.sm_count);
    CHECK(m.at("cc") == s.compute_capability());
    CHECK(as_ll(m.at("maxThreadsPerBlock")) == s.max_threads_per_block);
    CHECK(as_ll(m.at("maxThreadsPerMultiProcessor")) == s.max_threads_per_sm);
    CHECK(as_ll(m.at("maxBlocksPerMultiProcessor")) == s.max_blocks_per_sm);
    CHECK(as_ll(m.at("regsPerBlock")) == s.max_registers_per_block);
    CHECK(as_ll(m.at("regsPerMultiprocessor")) == s.registers_per_sm);
    CHECK(as_ll(m.at("warpSize")) == s.warp_size);
    CHECK(as_ll(m.at("sharedMemPerBlock")) == s.shared_memory_per_block);
    CHECK(as_ll(m.at("sharedMemPerMultiprocessor")) == s.shared_memory_per_sm);
    CHECK(as_ll(m.at("sharedMemPerBlockOptin")) == s.shared_memory_per_block_optin);
    CHECK(as_ll(m.at("reservedSharedMemPerBlock")) == s.reserved_shared_memory_per_block);
    CHECK(as_ll(m.at("l2CacheSize")) == s.l2_bytes.value_or(-1));
}

TEST_CASE("every measured occupancy row agrees with gpusched") {
    REQUIRE(std::filesystem::exists(kData));
    const auto table = test::read_csv_table(kData);
    const hw::GpuSpec spec = hw::resolve_gpu("h100");
    const auto c_regs = table.column("regs"), c_static = table.column("static_smem"),
               c_threads = table.column("threads"), c_dynamic = table.column("dynamic_smem"),
               c_carveout = table.column("carveout"), c_blocks = table.column("blocks_per_sm");
    int rows = 0, launchable = 0, mismatches = 0;
    std::string first;
    for (const auto& row : table.rows) {
        hw::OccupancyRequest req;
        req.threads_per_block = static_cast<int>(as_ll(row[c_threads]));
        req.registers_per_thread = static_cast<int>(as_ll(row[c_regs]));
        req.static_shared_bytes = as_ll(row[c_static]);
        req.dynamic_shared_bytes = as_ll(row[c_dynamic]);
        const long long carveout = as_ll(row[c_carveout]);
        req.carveout = carveout < 0 ? hw::Carveout{} : hw::Carveout::parse(row[c_carveout], "carveout");
        int ours = 0;
        try {
            ours = hw::compute_occupancy(spec, req).blocks_per_sm;
        } catch (const InputError&) {
            ours = 0;
        }
        const int measured = static_cast<int>(as_ll(row[c_blocks]));
        ++rows;
        if (measured > 0) ++launchable;
        if (ours != measured && mismatches++ == 0) {
            first = "threads=" + row[c_threads] + " regs=" + row[c_regs] + " static=" + row[c_static] +
                    " dynamic=" + row[c_dynamic] + " carveout=" + row[c_carveout] + ": measured " +
                    row[c_blocks] + ", gpusched " + std::to_string(ours);
        }
    }
    MESSAGE("h100 measured occupancy: " << rows << " rows (" << launchable << " launchable), " << mismatches
                                        << " mismatches");
    CHECK(rows >= 1000);
    CHECK(launchable >= 500);
    CHECK_MESSAGE(mismatches == 0, first);
}

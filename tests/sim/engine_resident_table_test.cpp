// ResidentTable alone: slot-major index maths and the free/resident entries.
#include <doctest/doctest.h>

#include "gpusched/sim/engine/resident_table.h"
#include "support/sim_fixtures.h"

namespace gpusched {

TEST_CASE("resident table: index = slot << ceil(log2 SMs) | sm, slot-major") {
    // 3 SMs: sm_bits = 2 (4 >= 3), so (sm 2, slot 5) -> 5 * 4 + 2 = 22 and a slot's entries for
    // SMs 0..2 are 4k, 4k + 1, 4k + 2 (contiguous). The H100's 32 slots per SM -> 32 * 4 = 128 entries.
    const hw::GpuSpec gpu = test::small_gpu(3);
    REQUIRE(gpu.max_blocks_per_sm == 32);
    sim::ResidentTable table(gpu);
    CHECK(table.size() == 128);
    CHECK(table.index(2, 5) == 22);
    CHECK(table.index(0, 1) == 4);
    CHECK(table.sm_of(22) == 2);
    CHECK(table.slot_of(22) == 5);
    for (int slot = 0; slot < 32; ++slot)
        for (int sm = 0; sm < 3; ++sm) {
            const std::size_t at = table.index(sm, slot);
            CHECK(at < table.size());
            CHECK(table.sm_of(at) == sm);
            CHECK(table.slot_of(at) == slot);
        }
    // 1 SM: no SM bits, the index is the slot.
    sim::ResidentTable one(test::small_gpu(1));
    CHECK(one.size() == 32);
    CHECK(one.index(0, 7) == 7);
}

TEST_CASE("resident table: entries start free and hold what is written") {
    sim::ResidentTable table(test::small_gpu(2));
    for (std::size_t at = 0; at < table.size(); ++at) CHECK(table[at].launch == sim::Resident::kFree);
    table[table.index(1, 3)] = {42, 10, 20, 30, 0};
    CHECK(table[7].block == 42);  // slot 3 << 1 | SM 1 = 7
    CHECK(table[7].end == 30);
    CHECK(table[6].launch == sim::Resident::kFree);
}

}  // namespace gpusched

namespace gpusched {

TEST_CASE("resident table: a GPU of 100000 SMs allocates slot rows as they are used") {
    // 100000 SMs: sm_bits = 17 (131072 >= 100000), so one row is 131072 entries and
    // kInitialEntries (65536) >> 17 = 0 rows, at least 1: row 0 only. max_blocks_per_sm 4096 but
    // 64 warps per SM: an SM never holds more than 64 blocks, so 64 rows may exist.
    hw::GpuSpec gpu = test::small_gpu(100000);
    gpu.max_blocks_per_sm = 4096;
    REQUIRE(gpu.max_warps_per_sm == 64);
    sim::ResidentTable table(gpu);
    CHECK(table.size() == std::size_t{64} << 17);
    CHECK(table.allocated() == std::size_t{1} << 17);
    table[table.index(99999, 0)] = {7, 1, 2, 3, 0};
    // Slot 5 on SM 3: rows grow to 6 (the slot + 1, more than twice 1); earlier entries keep their values.
    table.ensure_slot(5);
    CHECK(table.allocated() == std::size_t{6} << 17);
    CHECK(table[table.index(99999, 0)].block == 7);
    CHECK(table[table.index(3, 5)].launch == sim::Resident::kFree);
    // Slot 6: doubling (12 rows); slot 63 then caps at 64 rows.
    table.ensure_slot(6);
    CHECK(table.allocated() == std::size_t{12} << 17);
    table.ensure_slot(63);
    CHECK(table.allocated() == table.size());
    CHECK_THROWS_AS(table.ensure_slot(64), std::out_of_range);
}

}  // namespace gpusched

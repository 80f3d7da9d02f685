// CompletionChannel alone: first come first served releases, and the swept channel's take events.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "gpusched/sim/engine/completion_channel.h"
#include "gpusched/support/input_error.h"
#include "support/sim_fixtures.h"

namespace gpusched {

TEST_CASE("completion channel unit: no interval, no channel") {
    sim::CompletionChannel channel(test::small_gpu(2));
    sim::EventQueue queue;
    CHECK_FALSE(channel.active());
    CHECK(channel.release_now(queue, 100, 0, 0));
    CHECK(channel.release_now(queue, 100, 1, 1));
    CHECK(queue.empty());
}

TEST_CASE("completion channel unit: release = max(end, next), next = release + c") {
    // c = 10 ns. Three blocks end at 100 ns: the first passes at once (next 110), the second is
    // released at 110 (next 120), the third at 120 (next 130). A block ending at 200 ns finds
    // the channel free: released at once, next = 210.
    hw::GpuSpec gpu = test::small_gpu(2);
    gpu.block_completion_interval_ns = 10;
    sim::CompletionChannel channel(gpu);
    sim::EventQueue queue;
    CHECK(channel.active());
    CHECK(channel.release_now(queue, 100'000, 0, 0));
    CHECK(channel.next_free() == 110'000);
    CHECK_FALSE(channel.release_now(queue, 100'000, 1, 1));
    CHECK_FALSE(channel.release_now(queue, 100'000, 0, 2));
    CHECK(channel.next_free() == 130'000);
    const sim::Event first = queue.pop();
    CHECK(first.time == 110'000);
    CHECK(first.phase() == sim::Phase::release);
    CHECK(first.payload() == 1);
    const sim::Event second = queue.pop();
    CHECK(second.time == 120'000);
    CHECK(second.payload() == 2);
    CHECK(channel.release_now(queue, 200'000, 1, 3));
    CHECK(channel.next_free() == 210'000);
    CHECK(queue.empty());
}

TEST_CASE("completion channel unit: a sweep takes waiting completions visit by visit, one take event at a time") {
    // c = 10 ns; visit 0 = {SM 2}, visit 1 = {SMs 0, 1}, one take each. At 100 ns completions
    // arrive from SM 0 (index 0: the channel is free, released at once, next 110), then SM 1
    // (index 1), SM 2 (index 2) and SM 0 (index 3), which wait; one take event at 110.
    // Takes: 110 visit 0 -> SM 2 (2); 120 visit 1 -> SM 0 (3, round-robin from its first SM);
    // 130 visit 0 has nothing, visit 1 -> SM 1 (1). Then nothing waits: no further take.
    hw::GpuSpec gpu = test::small_gpu(3);
    gpu.block_completion_interval_ns = 10;
    gpu.completion_sweep = hw::CompletionSweep{{{{2}, 1}, {{0, 1}, 1}}};
    sim::CompletionChannel channel(gpu);
    sim::EventQueue queue;
    CHECK(channel.release_now(queue, 100'000, 0, 0));
    CHECK_FALSE(channel.release_now(queue, 100'000, 1, 1));
    CHECK_FALSE(channel.release_now(queue, 100'000, 2, 2));
    CHECK_FALSE(channel.release_now(queue, 100'000, 0, 3));
    CHECK(queue.size() == 1);
    std::vector<std::pair<Time, std::size_t>> taken;
    while (!queue.empty()) {
        const sim::Event e = queue.pop();
        REQUIRE(e.payload() == sim::CompletionChannel::kTake);
        taken.emplace_back(e.time, channel.take(queue, e.time));
    }
    CHECK(taken == std::vector<std::pair<Time, std::size_t>>{{110'000, 2}, {120'000, 3}, {130'000, 1}});
    CHECK(channel.next_free() == 140'000);
}

TEST_CASE("completion channel unit: a sweep that names an SM the GPU lacks is an InputError naming the GPU") {
    hw::GpuSpec gpu = test::small_gpu(3);
    gpu.block_completion_interval_ns = 10;
    gpu.completion_sweep = hw::CompletionSweep{{{{5}, 1}}};
    CHECK_THROWS_AS(sim::CompletionChannel{gpu}, InputError);
    try {
        sim::CompletionChannel channel(gpu);
    } catch (const InputError& e) {
        CHECK(std::string(e.what()).starts_with("GPU '" + gpu.name + "': "));
    }
}

}  // namespace gpusched

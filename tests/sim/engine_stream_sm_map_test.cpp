// StreamSmMap alone: each stream's SMs by mask, partition or none, in dispatch order, shared, checked on first use.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gpusched/sim/engine/stream_sm_map.h"
#include "gpusched/support/input_error.h"
#include "support/sim_fixtures.h"

namespace gpusched {

namespace {

workloads::StreamConfig masked(int id, std::vector<int> sms) {
    workloads::StreamConfig s;
    s.id = id;
    s.sm_mask = std::move(sms);
    return s;
}

}  // namespace

TEST_CASE("stream SM map: a mask's SMs in the GPU's dispatch order; streams without a mask share every SM") {
    hw::GpuSpec gpu = test::small_gpu(4);
    gpu.sm_order = {3, 1, 2, 0};  // dispatch order
    workloads::Application app;
    app.streams = {masked(1, {0, 3, 1}), masked(2, {}), masked(3, {2})};
    sim::StreamSmMap map(gpu, app);
    const sim::StreamSms& one = map.sms_of(&app.streams[0]);
    CHECK(one.sms_in_order == std::vector<int>{3, 1, 0});  // {0, 3, 1} in the order 3 1 2 0
    CHECK(one.allowed == std::vector<std::uint8_t>{1, 1, 0, 1});
    const sim::StreamSms& all = map.sms_of(nullptr);
    CHECK(all.sms_in_order == std::vector<int>{3, 1, 2, 0});
    CHECK(&map.sms_of(&app.streams[1]) == &all);  // listed without a mask: the shared set
    CHECK(&map.sms_of(&app.streams[0]) == &one);  // made once
    CHECK(map.size() == 2);
    CHECK(map.sms_of(&app.streams[2]).sms_in_order == std::vector<int>{2});
    CHECK(map.size() == 3);
}

TEST_CASE("stream SM map: a mask naming a missing SM is an InputError, met on first use only") {
    const hw::GpuSpec gpu = test::small_gpu(2);
    workloads::Application app;
    app.streams = {masked(3, {4}), masked(5, {1})};
    sim::StreamSmMap map(gpu, app);  // nothing checked yet: no launch asked for stream 3
    CHECK(map.sms_of(&app.streams[1]).sms_in_order == std::vector<int>{1});
    CHECK_THROWS_WITH_AS(map.sms_of(&app.streams[0]), "stream 3: SM 4 in its SM mask does not exist on h100 (SMs 0..1)",
                         InputError);
}

TEST_CASE("stream SM map: partitions: a stream's own, else the application's for streams without a mask") {
    // The H100 preset: a green context of 8 SMs gets the first 8 of topology.partition_order,
    // 0 1 16 17 32 33 48 49; two of 8 at once the next 8 for the second: 2 3 18 19 34 35 50 51.
    hw::GpuSpec gpu = hw::resolve_gpu("h100");
    gpu.sm_order.clear();  // dispatch order 0..131
    workloads::Application app;
    app.partitions = {8, 8};
    app.partition = 1;
    workloads::StreamConfig own = masked(1, {});
    own.partition = 0;
    app.streams = {own, masked(2, {5}), masked(3, {})};
    sim::StreamSmMap map(gpu, app);
    const std::vector<int> first{0, 1, 16, 17, 32, 33, 48, 49};
    const std::vector<int> second{2, 3, 18, 19, 34, 35, 50, 51};
    const auto sorted = [](std::vector<int> sms) {
        std::sort(sms.begin(), sms.end());
        return sms;
    };
    CHECK(map.sms_of(&app.streams[0]).sms_in_order == sorted(first));  // its own partition 0
    const sim::StreamSms& app_partition = map.sms_of(nullptr);           // unlisted: the application's
    CHECK(app_partition.sms_in_order == sorted(second));
    CHECK(&map.sms_of(&app.streams[2]) == &app_partition);               // listed without a mask: the same
    CHECK(map.sms_of(&app.streams[1]).sms_in_order == std::vector<int>{5});  // its own mask wins
    CHECK(map.size() == 3);
}

TEST_CASE("stream SM map: a bad partition list is the constructor's InputError") {
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    workloads::Application app;
    app.partitions = {7};  // not a multiple of the H100's granularity, 8
    app.partitions_where = "app.yaml:3";
    CHECK_THROWS_WITH_AS(sim::StreamSmMap(gpu, app), doctest::Contains("app.yaml:3"), InputError);
}

}  // namespace gpusched

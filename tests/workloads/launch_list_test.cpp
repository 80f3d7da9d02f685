// LaunchList: vector-like reads and appends, identical back-to-back copies in one record, copy on edit.
#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>

#include "gpusched/workloads/application.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/workload_file.h"

using namespace gpusched;
using namespace gpusched::workloads;

namespace {
KernelLaunch named(const std::string& name, std::uint32_t blocks) {
    KernelLaunch k;
    k.name = name;
    k.grid.x = blocks;
    return k;
}
}  // namespace

TEST_CASE("launch list: reads like a vector of the launches appended") {
    LaunchList list = {named("a", 1), named("b", 2)};
    list.push_back(named("c", 3));
    list.emplace_back().name = "d";
    REQUIRE(list.size() == 4);
    CHECK(list.front().name == "a");
    CHECK(list.back().name == "d");
    CHECK(list[1].blocks() == 2);
    CHECK(list.at(2).name == "c");
    CHECK_THROWS_AS((void)list.at(4), std::out_of_range);
    std::string names;
    for (const KernelLaunch& k : list) names += k.name;
    CHECK(names == "abcd");
    CHECK(std::count_if(list.begin(), list.end(), [](const KernelLaunch& k) { return k.blocks() > 1; }) == 2);
    CHECK(list.end() - list.begin() == 4);
    CHECK(list.record_count() == 4);  // each appended launch has its own record
}

TEST_CASE("launch list: copies share one record, also across appends; an edit copies it first") {
    LaunchList list;
    const KernelLaunch k = named("k", 5);
    list.append_copies(k, 3);
    list.append_copies(k, 2);  // the same launch as the last one: its record again
    list.append_copies(named("other", 5), 1);
    REQUIRE(list.size() == 6);
    CHECK(list.record_count() == 2);
    CHECK(&list[0] == &list[4]);
    CHECK(list[5].name == "other");
    list.edit(1).grid.x = 7;  // launch 1 alone changes; 0 and 2 keep the shared record
    CHECK(list[1].blocks() == 7);
    CHECK(list[0].blocks() == 5);
    CHECK(list[2].blocks() == 5);
    CHECK(list.record_count() == 3);
    list.edit(5).name = "own";  // a record of its own: edited in place
    CHECK(list.record_count() == 3);
    CHECK(list[5].name == "own");
    list.truncate(2);
    CHECK(list.size() == 2);
    CHECK_THROWS_AS(list.truncate(3), std::out_of_range);
    list.clear();
    CHECK(list.empty());
}

TEST_CASE("launch list: a million calls of one spec hold one launch record") {
    // streamcluster with calls=C: C identical launches, each followed by its two copies (3C operations).
    const Application app = application_from_specs({"streamcluster:points=1024,dims=4,calls=1000"});
    CHECK(app.launches.size() == 1000);
    CHECK(app.launches.record_count() == 1);
    CHECK(app.operations.size() == 3000);
    // A workload item repeated: the copies of each repeat find the last launch's record.
    const Application repeated =
        parse_workload("launches:\n  - kernel: synthetic\n    blocks: 1\n    threads: 32\n    duration: 1us\n    repeat: 500\n", "w.yaml");
    CHECK(repeated.launches.size() == 500);
    CHECK(repeated.launches.record_count() == 1);
}

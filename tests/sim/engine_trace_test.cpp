// End to end: engine runs written through the Chrome trace and timeline views are well formed.
#include <doctest/doctest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "gpusched/sim/output/chrome_trace.h"
#include "gpusched/sim/output/timeline_csv.h"
#include "support/sim_fixtures.h"

using namespace gpusched;

TEST_CASE("engine trace: valid JSON, and slices on every track are disjoint and in order") {
    auto k = test::launch(900, 192, 0);
    k.registers_per_thread = 40;
    k.work = std::make_shared<test::LambdaWork>([](std::uint64_t b) { return (3 + (b * 7) % 11) * Time{1000000}; });
    auto app = test::app_of({k, test::launch(300, 512, 4000000, 1)});
    for (const auto& policy : {"most-room", "round-robin", "buckets"}) {
        CAPTURE(policy);
        std::ostringstream trace;
        sim::ChromeTraceWriter writer(trace);
        test::run(test::small_gpu(6), app, policy, &writer);
        const auto json = nlohmann::json::parse(trace.str());
        std::map<std::pair<long, long>, std::vector<std::pair<double, double>>> tracks;
        std::size_t slices = 0;
        for (const auto& e : json.at("traceEvents")) {
            if (e.at("ph") != "X") continue;
            const double ts = std::stod(e.at("ts").dump()), dur = std::stod(e.at("dur").dump());
            tracks[{e.at("pid").get<long>(), e.at("tid").get<long>()}].push_back({ts, ts + dur});
            ++slices;
        }
        CHECK(slices >= 1200);  // every block (plus kernel spans)
        for (auto& [track, spans] : tracks) {
            std::sort(spans.begin(), spans.end());
            for (std::size_t i = 1; i < spans.size(); ++i) CHECK(spans[i].first >= spans[i - 1].second - 1e-9);
        }
    }
}

TEST_CASE("engine timeline: one row per block, in the documented schema") {
    std::ostringstream csv;
    sim::TimelineCsvWriter writer(csv, "test");
    test::run(test::small_gpu(3), test::app_of({test::launch(50, 256, 2000000)}), "most-room", &writer);
    std::istringstream in(csv.str());
    std::string line;
    int rows = 0;
    bool header = false;
    while (std::getline(in, line)) {
        if (line.rfind("#", 0) == 0) continue;
        if (!header) {
            CHECK(line == "kernel,launch,block,sm,dispatch_ns,start_ns,end_ns");
            header = true;
            continue;
        }
        ++rows;
    }
    CHECK(rows == 50);
}

// Imports as data: every committed trace's workload (and an Nsight Compute join) reads back equal after writing.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include "gpusched/importers/device_preset.h"
#include "gpusched/importers/imported_application.h"
#include "gpusched/importers/imported_workload.h"
#include "gpusched/importers/kineto_reader.h"
#include "gpusched/importers/ncu_join.h"
#include "gpusched/importers/ncu_report.h"
#include "support/round_trip.h"

using namespace gpusched;
using workloads::WorkloadDocument;

namespace {

WorkloadDocument imported(const std::string& trace_path) {
    const importers::ImportedTrace trace = importers::read_kineto_trace(trace_path);
    const importers::ImportedApplication app = importers::build_application(trace, {});
    const auto device = std::find_if(trace.devices.begin(), trace.devices.end(), [&](const auto& d) { return d.id == app.device; });
    REQUIRE(device != trace.devices.end());
    const std::string preset = importers::preset_for_device(*device);
    importers::ImportSource source{"torch", trace_path, preset.empty() ? "h100" : preset, device->name, device->sm_count};
    return importers::imported_workload(trace, app, source);
}

}  // namespace

TEST_CASE("every committed trace imports to a document that reads back equal after writing") {
    const auto source = test::source_dir();
    // Rounds 2 and 3 of a sweep recorded in rounds repeat round 1's programs (same kernels, launches and
    // operators; other durations), so round 1 stands for them: under the sanitizers each trace costs a
    // fifth of a second.
    auto traces = test::files_under(source / "validation/data", ".json.gz");
    std::erase_if(traces, [](const std::filesystem::path& p) {
        const std::string round = p.parent_path().filename().string();
        return round.starts_with("round") && round != "round1";
    });
    for (const char* name : {"two_streams.json", "cupti_recording.json"}) traces.push_back(source / "tests/importers/data" / name);
    CHECK(traces.size() >= 100);  // 24 h100, 30 h100 shapes, 48 round-1 and 24 h200 torch traces, and the tests' own
    for (const auto& path : traces) test::check_round_trip(imported(path.string()), path.string());
}

TEST_CASE("an Nsight Compute join round-trips, and joining the read-back document gives the same bytes") {
    const std::string trace = (test::source_dir() / "tests/importers/data/two_streams.json").string();
    const std::string csv = (test::source_dir() / "tests/importers/data/two_streams_ncu.csv").string();
    const auto rows = importers::read_ncu_csv(csv);
    WorkloadDocument direct = imported(trace);
    WorkloadDocument reread = workloads::read_workload_document(workloads::workload_yaml(direct), "w.yaml");
    importers::join_ncu(direct, csv, rows);
    importers::join_ncu(reread, csv, rows);
    test::check_round_trip(direct, "joined");
    CHECK(workloads::workload_yaml(direct) == workloads::workload_yaml(reread));
}


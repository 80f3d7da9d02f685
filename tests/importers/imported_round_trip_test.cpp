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
#include "gpusched/workloads/workload_file.h"
#include "gpusched/workloads/workload_writer.h"
#include "support/round_trip.h"

using namespace gpusched;
using namespace gpusched::workloads;
using gpusched::test::check_round_trip;
using gpusched::test::files_under;
namespace fs = std::filesystem;

namespace {

const fs::path kSource = GPUSCHED_SOURCE_DIR;

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
    std::vector<fs::path> traces = files_under(kSource / "validation/data", ".json.gz");
    for (const char* name : {"two_streams.json", "cupti_recording.json"}) traces.push_back(kSource / "tests/importers/data" / name);
    CHECK(traces.size() >= 50);  // 24 h100 and 24 h200 torch traces, and the importer tests' own
    for (const auto& path : traces) check_round_trip(imported(path.string()), path.string());
}

TEST_CASE("an Nsight Compute join round-trips, and joining the read-back document gives the same bytes") {
    const std::string trace = (kSource / "tests/importers/data/two_streams.json").string();
    const std::string csv = (kSource / "tests/importers/data/two_streams_ncu.csv").string();
    const auto rows = importers::read_ncu_csv(csv);
    WorkloadDocument direct = imported(trace);
    WorkloadDocument reread = read_workload_document(workload_yaml(direct), "w.yaml");
    importers::join_ncu(direct, csv, rows);
    importers::join_ncu(reread, csv, rows);
    check_round_trip(direct, "joined");
    CHECK(workload_yaml(direct) == workload_yaml(reread));
}


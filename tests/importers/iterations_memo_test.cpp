// An imported training step run for several iterations: memoised launches give exactly full simulation's result.
#include <doctest/doctest.h>

#include <string>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/importers/trace_import.h"
#include "gpusched/workloads/workload_document.h"
#include "support/memo_run.h"

using namespace gpusched;

TEST_CASE("iterations of an imported ResNet-18 training step: memoised and full simulation agree byte for byte") {
    // The step's two host threads (main and autograd) on one stream: from the second iteration on, the launches
    // that start on an idle GPU repeat their first-iteration recording.
    importers::ImportOptions options;
    options.steps = {false, 3, 3};
    importers::TraceImport imported = importers::import_trace(
        std::string(GPUSCHED_SOURCE_DIR) + "/validation/data/h100/torch_shapes/cnn_train_k132.json.gz", options, "", "torch",
        "gpu=PRESET");
    imported.document.iterations = 2;
    const workloads::Application app = workloads::build_application(imported.document);
    REQUIRE(app.host.size() == 2);
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    const test::MemoOutcome full = test::run_memoised(gpu, app, "most-room", "shared", false);
    const test::MemoOutcome memo = test::run_memoised(gpu, app, "most-room", "shared", true);
    CHECK(full.repeated == 0);
    CHECK(memo.repeated > 300);  // of the second iteration's 456 launches
    CHECK(memo.json == full.json);
}

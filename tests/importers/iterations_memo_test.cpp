// An imported training step run for several iterations: memoised launches give exactly full simulation's result.
#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/importers/trace_import.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/engine.h"
#include "gpusched/sim/output/summary_collector.h"
#include "gpusched/workloads/workload_document.h"

using namespace gpusched;

namespace {

class RepeatCounter final : public sim::SimObserver {
public:
    int repeated = 0;
    [[nodiscard]] bool needs_every_block() const override { return false; }
    void on_launch_repeated(const sim::RepeatedLaunch&) override { ++repeated; }
};

}  // namespace

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
    const auto policy = scheduler::make_policy("most-room");
    std::string json[2];
    int repeated[2] = {0, 0};
    for (const bool memoise : {false, true}) {
        sim::Engine engine(gpu, app, *policy, "shared");
        engine.set_memoise(memoise);
        sim::SummaryCollector summary;
        RepeatCounter counter;
        engine.add_observer(summary);
        engine.add_observer(counter);
        engine.run();
        std::ostringstream out;
        sim::write_summary_json(out, summary.summary());
        json[memoise ? 1 : 0] = out.str();
        repeated[memoise ? 1 : 0] = counter.repeated;
    }
    CHECK(repeated[0] == 0);
    CHECK(repeated[1] > 300);  // of the second iteration's 456 launches
    CHECK(json[1] == json[0]);
}

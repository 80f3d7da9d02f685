// ExecutionModel: how long a resident block runs, given what else shares its SM (fixed, shared).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/support/time.h"
#include "gpusched/workloads/application.h"

namespace gpusched::sim {

/// Where a model reports (and revises) the time a resident block will end.
class CompletionSink {
public:
    virtual ~CompletionSink() = default;
    /// The block in `slot` of `sm` ends at `end` (replaces any earlier end given for it).
    virtual void set_end(int sm, int slot, Time end) = 0;
};

/// A block as the execution model sees it.
struct StartedBlock {
    int sm = 0;
    int slot = 0;
    std::size_t launch = 0;
    std::uint64_t block = 0;
    int active_warps = 0;  ///< warps of this unit that do work (1 for a warp-level unit)
    Time start = 0;
};

/// Strategy for block durations. The engine calls block_started once per block (after its
/// resources are reserved) and block_finished when its end event fires, before releasing it;
/// the model must report every running block's end through the sink, and may revise the
/// ends of other blocks on the same SM whenever it is called.
class ExecutionModel {
public:
    virtual ~ExecutionModel() = default;
    [[nodiscard]] virtual std::string name() const = 0;
    /// True when a block's end is start + its work model's duration, whatever else runs
    /// (the engine then computes ends itself, on its hot path, without calling the model).
    [[nodiscard]] virtual bool durations_fixed() const { return false; }
    virtual void block_started(const StartedBlock& block, Time now, CompletionSink& sink) = 0;
    virtual void block_finished(int sm, int slot, Time now, CompletionSink& sink) = 0;
};

/// `fixed`: end = start + BlockWork::duration(block).
class FixedExecution final : public ExecutionModel {
public:
    explicit FixedExecution(const workloads::Application& app) : app_(app) {}
    [[nodiscard]] std::string name() const override { return "fixed"; }
    [[nodiscard]] bool durations_fixed() const override { return true; }
    void block_started(const StartedBlock& block, Time now, CompletionSink& sink) override;
    void block_finished(int, int, Time, CompletionSink&) override {}

private:
    const workloads::Application& app_;
};

struct ExecutionModelInfo {
    std::string name;
    std::string description;
};

/// Built-in execution models.
const std::vector<ExecutionModelInfo>& execution_models();

/// The execution model of every run that names none (the command line, study files, calibration,
/// validation and the Simulation builder all use it): `auto`, resolved per application by
/// resolve_execution_model.
inline constexpr std::string_view kDefaultExecutionModel = "auto";

/// `auto`: `shared` when every launch's work model gives per-warp work (so the issue-slot
/// model can time it), else `fixed`; any other name is returned as is (make_execution_model
/// checks it).
std::string resolve_execution_model(const std::string& name, const workloads::Application& app);

/// Checks a model name before any run: `auto` or a built-in model, else a KeyError about key
/// "exec" listing them (for commands that run many simulations and must not fail in each).
void check_execution_model_name(const std::string& name);

/// Creates a model by name for one run; a KeyError about key "exec" for an unknown name (listing
/// the known ones) or when the GPU spec or the workload lacks what the model needs.
std::unique_ptr<ExecutionModel> make_execution_model(const std::string& name, const hw::GpuSpec& gpu,
                                                     const workloads::Application& app);

}  // namespace gpusched::sim

// One section of `gpusched validate`: a measured experiment compared with the simulation, shown as text, JSON and a report part.
#pragma once

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusched/hw/gpu_spec.h"

namespace gpusched::validation {

/// A command of the tool with its keys and values, e.g. {"occupancy", {{"cluster", ""}}}: how a view
/// points the reader at a command without naming its flags (the command line spells it).
struct CommandHint {
    std::string command;
    std::vector<std::pair<std::string, std::string>> values;  ///< key and value ("" for a key alone)
};

/// A hint spelled as keys: "command key=value key" (what a view prints unless told otherwise).
std::string spell_as_keys(const CommandHint& hint);

/// What every section runs with.
struct SectionSettings {
    hw::GpuSpec gpu;
    std::string policy;         ///< dispatch policy of the simulated workloads
    std::string replay_policy;  ///< dispatch policy of the timeline replays (placement, APSP timelines)
    bool keep_blocks = false;   ///< keep per-block timelines (for the report's Gantt charts)
    /// How the views spell a CommandHint; the command line gives its own spelling.
    std::function<std::string(const CommandHint&)> spell = spell_as_keys;
};

/// What one section found, shown three ways. Each is deterministic: equal comparisons give
/// byte-identical text, JSON and HTML.
class SectionView {
public:
    virtual ~SectionView() = default;
    /// The section's plain-text tables (every section after placement begins with an empty line).
    virtual void print_text(std::ostream& out) const = 0;
    /// Adds the section's keys to the top-level JSON object of validate's JSON output.
    virtual void add_json(nlohmann::ordered_json& top) const = 0;
    /// The section's part of the HTML report: headings, tables and inline SVG ("" for nothing).
    virtual std::string report_part() const = 0;
};

/// A validation section: a name, where its measurements live under the data directory, and
/// how to compare them with the simulation.
///
/// validate runs the sections of the registry (section_registry.h) in order. A section whose
/// input is missing is skipped with a note, or is an error when asked for by name, unless it
/// reports a missing input itself (skipped_when_missing() false).
class ValidationSection {
public:
    virtual ~ValidationSection() = default;
    /// The name to ask for it by, e.g. "spmv".
    virtual std::string name() const = 0;
    /// One line on what it compares.
    virtual std::string description() const = 0;
    /// Its input, relative to the data directory: a file or a directory, e.g. "spmv/runs.csv".
    virtual std::string input() const = 0;
    /// Whether a missing input skips the section (true) or is left to run() (false).
    virtual bool skipped_when_missing() const { return true; }
    /// Compares the measurements under `data_dir` with simulations; InputError for malformed data.
    virtual std::unique_ptr<SectionView> run(const std::string& data_dir, const SectionSettings& settings) const = 0;
    /// What the section shows when it does not run: nothing (nullptr) unless its JSON keys are always present.
    virtual std::unique_ptr<SectionView> view_when_skipped() const { return nullptr; }
};

}  // namespace gpusched::validation

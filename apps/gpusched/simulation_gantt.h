// SimulationGantt: the per-SM Gantt chart of one simulation (every block), as SVG or as HTML beside the explanation.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gpusched/charts/gantt_chart.h"
#include "gpusched/sim/observer.h"
#include "gpusched/sim/output/time_account.h"

namespace gpusched::cli {

/// What colours a bar.
enum class GanttColouring { kernel, stream };

/// Keeps every block (32 bytes each) to draw one row per SM, coloured by kernel name or stream,
/// partial blocks (fewer active warps than warps) underlined, and the start of each wave of the
/// first launches marked. With a host timeline, a lane per host thread above the SMs: its launch
/// calls in their kernel's (or stream's) colour, its syncs in their own, the time a call was
/// blocked (a sync waiting for its work, a launch for queue room) as a bar of its own.
class SimulationGantt : public sim::SimObserver {
public:
    explicit SimulationGantt(GanttColouring colouring) : colouring_(colouring) {}
    void on_begin(const sim::RunInfo& info) override;
    void on_block_completed(const sim::BlockRecord& block) override;
    void on_host_call(const sim::HostCallRecord& call) override { calls_.push_back(call); }

    /// The chart as one SVG document.
    [[nodiscard]] std::string svg(const std::string& title) const;
    /// A self-contained HTML page (no external resources; a zoom control): the chart, below it the
    /// account as a bar (account_svg), and beside them `explanation` (plain text) in a <pre>.
    [[nodiscard]] std::string html(const std::string& title, const std::string& explanation,
                                   const sim::TimeAccount& account) const;

private:
    /// The host lanes' bars (rows 0..threads-1 of `chart`), with colours added for syncs, other launches and blocked time.
    void add_host_lanes(charts::GanttChart& chart, std::map<std::string, std::size_t>& colour_of_name,
                        std::map<int, std::size_t>& colour_of_stream) const;
    struct Bar {
        Time start = 0;
        Time end = 0;
        std::uint32_t launch = 0;
        std::int32_t sm = 0;
        std::uint64_t block = 0;
    };
    GanttColouring colouring_;
    int sm_count_ = 0;
    const workloads::Application* app_ = nullptr;  ///< the run's (it outlives the run)
    sim::OccupancyTable occupancy_;
    std::vector<std::shared_ptr<const workloads::BlockWork>> works_;  ///< per launch, as the run ran it
    std::vector<Bar> bars_;
    std::vector<sim::HostCallRecord> calls_;  ///< host timeline: every call, one lane per thread above the SMs
};

/// Where the SM-time went as one SVG: a bar of the total split into the account's categories (busy
/// ones first), each with its share in a legend.
std::string account_svg(const sim::TimeAccount& account);

}  // namespace gpusched::cli

// HTML section of the validation report for the APSP block timelines.
#include "apsp_timeline_report.h"

#include <cmath>
#include <vector>

#include "gpusched/report/svg_format.h"
#include "report_html.h"

namespace gpusched::validation {

namespace {

std::string cell(const std::string& text, bool bad = false) {
    return std::string(bad ? "<td class=\"bad\">" : "<td>") + report::escape_xml(text) + "</td>";
}

/// "measured / simulated" of one statistic, red when they differ by more than 25%.
std::string pair_cell(double measured, double simulated, int digits) {
    const bool bad = measured > 0 && std::abs(simulated - measured) > 0.25 * measured;
    return cell(fixed(measured, digits) + " / " + fixed(simulated, digits), bad);
}


}  // namespace

std::string apsp_timeline_section(const ApspTimelineComparison& s) {
    std::string h = "<h1>APSP block timelines</h1>\n<section id=\"apsp-timelines\">\n<p>" + std::to_string(s.cases.size()) +
                    " whole runs measured with every launch queued behind a gate kernel (thread 0 of each block "
                    "records its SM, entry and exit), each simulated uncalibrated as the curves are: the runner's Init "
                    "launch, then the APSP launches, queued, <code>shared</code> execution. Simulated block counts " +
                    (s.blocks_match ? "equal the measured ones in every launch" : "<b>differ</b> from the measured ones") +
                    "; " + std::to_string(s.total_misplaced) + " blocks on another SM in all (summed over launches). Cells: "
                    "measured / simulated, us (red: more than 25% apart).</p>\n<table>\n<tr><th>case</th><th>launches</th>"
                    "<th>blocks per launch</th><th>instrumentation overhead %</th><th>whole span</th><th>span error %</th>"
                    "<th>launch span, median</th><th>block duration, median</th><th>launch gap, median</th><th>waves</th>"
                    "<th>blocks on another SM</th></tr>\n";
    for (const auto& c : s.cases)
        h += "<tr>" + cell(c.name) + cell(std::to_string(c.launches)) + cell(std::to_string(c.blocks_per_launch)) +
             cell(fixed(c.overhead_percent, 2)) + pair_cell(c.measured.span_us, c.simulated.span_us, 2) +
             cell(fixed(c.span_error_percent, 1), std::abs(c.span_error_percent) > 25) +
             pair_cell(c.measured.launch_span_median_us, c.simulated.launch_span_median_us, 2) +
             pair_cell(c.measured.block_median_us, c.simulated.block_median_us, 2) +
             pair_cell(c.measured.gap_median_us, c.simulated.gap_median_us, 2) +
             cell(std::to_string(c.measured.waves) + " / " + std::to_string(c.simulated.waves)) +
             cell(std::to_string(c.misplaced)) + "</tr>\n";
    h += "</table>\n<p>Launch span: a launch's first block start to its last block end (APSP launches, not Init). Launch "
         "gap: the last block end of launch k to the first block start of launch k+1. Waves: the most blocks one SM ran "
         "in one launch over the blocks that fit on an SM, rounded up.</p>\n";
    for (const auto& c : s.cases) {
        if (c.measured_blocks.empty()) continue;
        const std::vector<int> sms = sms_of(c.measured_blocks, c.simulated_blocks);
        h += "<details><summary>" + report::escape_xml(c.name) + ": " + std::to_string(c.measured.blocks) +
             " blocks in " + std::to_string(c.launches) + " launches, span " + fixed(c.measured.span_us, 1) +
             " us measured, " + fixed(c.simulated.span_us, 1) + " us simulated</summary>\n" +
             sm_gantt(c.name + ": measured", c.measured_blocks, sms, GanttColour::launch) + "\n" +
             sm_gantt(c.name + ": simulated", c.simulated_blocks, sms, GanttColour::launch) + "\n</details>\n";
    }
    return h + "</section>\n";
}

}  // namespace gpusched::validation

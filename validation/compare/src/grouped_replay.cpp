// GroupedReplay: reading kernel timelines, replaying them and the per-launch start/end tables.
#include "grouped_replay.h"

#include <algorithm>
#include <filesystem>

#include "block_recorder.h"
#include "measured_table.h"
#include "report_html.h"
#include "gpusched/charts/gantt_chart.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/support/input_error.h"
#include "gpusched/workloads/timeline_csv.h"

namespace gpusched::validation {

std::vector<std::filesystem::path> timeline_files(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const std::string file = entry.path().filename().string();
        if (file.rfind("timeline_", 0) == 0 && entry.path().extension() == ".csv") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::vector<MeasuredBlock> read_kernel_timeline(const std::string& path, std::vector<std::string>& kernels) {
    workloads::TimelineReadOptions options;
    options.what = "timeline";
    options.refuse_cut_line = true;
    options.need_kernel = true;
    workloads::TimelineCsvReader in(path, options);
    std::vector<MeasuredBlock> out;
    kernels.clear();
    workloads::TimelineRow row;
    while (in.next(row)) {
        auto it = std::find(kernels.begin(), kernels.end(), *row.kernel);
        if (it == kernels.end()) it = kernels.insert(kernels.end(), *row.kernel);
        out.push_back({static_cast<std::uint64_t>(it - kernels.begin()), row.block, row.sm, row.start, row.end});
    }
    if (out.empty()) throw InputError(path + ": no measured rows");
    return out;
}

namespace {

struct Window {
    Time first = ~Time{0};
    Time last = 0;
    std::size_t blocks = 0;
};

std::vector<Window> windows(const std::vector<MeasuredBlock>& blocks, std::size_t launches) {
    std::vector<Window> w(launches);
    for (const auto& b : blocks) {
        if (b.launch >= launches) continue;
        Window& x = w[b.launch];
        x.first = std::min(x.first, b.start);
        x.last = std::max(x.last, b.end);
        ++x.blocks;
    }
    return w;
}

double us(Time t, Time origin) { return static_cast<double>(t - origin) / 1e6; }

}  // namespace

GroupedReplay replay_blocks(const std::string& name, const std::vector<MeasuredBlock>& measured,
                            const std::vector<std::string>& kernels, const workloads::Application& app,
                            const hw::GpuSpec& gpu, const sim::DispatchPolicy& policy,
                            std::vector<MeasuredBlock>& simulated) {
    sim::Simulation simulation(gpu, app, policy, "fixed");  // measured durations, replayed
    BlockRecorder recorder;
    simulation.observe(recorder);
    simulation.run();
    simulated = measured_blocks(recorder);
    GroupedReplay r;
    r.name = name;
    r.blocks = measured.size();
    const auto [m_first, m_last] = span_of(measured);
    const auto [s_first, s_last] = span_of(simulated);
    r.measured_us = us(m_last, m_first);
    r.simulated_us = us(s_last, s_first);
    r.error_percent = r.measured_us > 0 ? 100.0 * (r.simulated_us - r.measured_us) / r.measured_us : 0;
    const auto mw = windows(measured, kernels.size());
    const auto sw = windows(simulated, kernels.size());
    for (std::size_t k = 0; k < kernels.size(); ++k)
        r.launches.push_back({kernels[k], mw[k].blocks, us(mw[k].first, m_first), us(mw[k].last, m_first),
                              us(sw[k].first, s_first), us(sw[k].last, s_first)});
    return r;
}

void add_repetitions(GroupedReplay& r, const std::string& path, const std::function<int(int)>& group_of) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return;
    std::map<std::int64_t, std::map<int, int>> per_rep;
    std::map<std::int64_t, Time> spans;
    for (const auto& row : read_run_table(path, "repetition counts", {"case", "rep", "span_ns", "launch", "sm", "blocks"})) {
        if (row.text("case") != r.name) continue;
        const std::int64_t rep = row.integer("rep", 0, 1'000'000);
        per_rep[rep][group_of(static_cast<int>(row.integer("sm", 0, 99'999)))] +=
            static_cast<int>(row.integer("blocks", 0, 1'000'000'000));
        spans[rep] = static_cast<Time>(row.integer("span_ns", 0, std::int64_t{1} << 50)) * 1000;
    }
    for (const auto& [rep, counts] : per_rep) {
        std::map<int, int> diff = r.measured_per_group;
        for (const auto& [g, n] : counts) diff[g] -= n;
        int total = 0;
        for (const auto& [g, d] : diff) total += d < 0 ? -d : d;
        r.repetition_moved.push_back(total / 2);
    }
    std::sort(r.repetition_moved.begin(), r.repetition_moved.end());
    if (spans.empty()) return;
    Time lo = ~Time{0}, hi = 0;
    for (const auto& [rep, span] : spans) {
        lo = std::min(lo, span);
        hi = std::max(hi, span);
    }
    r.repetition_span_min_us = static_cast<double>(lo) / 1e6;
    r.repetition_span_max_us = static_cast<double>(hi) / 1e6;
}

std::string repetition_text(const GroupedReplay& r) {
    if (r.repetition_moved.empty()) return "-";
    const std::size_t n = r.repetition_moved.size();
    const double median = n % 2 == 1 ? r.repetition_moved[n / 2]
                                     : (r.repetition_moved[n / 2 - 1] + r.repetition_moved[n / 2]) / 2.0;
    return fixed(median, median == static_cast<int>(median) ? 0 : 1) + "/" + std::to_string(r.repetition_moved.back());
}

std::string repetition_span_text(const GroupedReplay& r) {
    return r.repetition_moved.empty() ? std::string("-")
                                      : fixed(r.repetition_span_min_us, 3) + "-" + fixed(r.repetition_span_max_us, 3);
}

bool within_repetitions(const GroupedReplay& r) {
    return !r.repetition_moved.empty() && r.moved <= r.repetition_moved.back();
}

std::string launch_windows_text(const GroupedReplay& r) {
    std::string out;
    for (const auto& w : r.launches)
        out += "  " + r.name + " " + w.kernel + ": " + std::to_string(w.blocks) + " blocks, start " +
               fixed(w.measured_start_us, 3) + "/" + fixed(w.simulated_start_us, 3) + " us, end " +
               fixed(w.measured_end_us, 3) + "/" + fixed(w.simulated_end_us, 3) + " us (measured/simulated)\n";
    return out;
}

std::string launch_windows_html(const GroupedReplay& r) {
    std::string h = "<table>\n" + header({"launch", "blocks", "first start us (measured)", "first start us (simulated)",
                                          "last end us (measured)", "last end us (simulated)"});
    for (const auto& w : r.launches)
        h += row({w.kernel, std::to_string(w.blocks), fixed(w.measured_start_us, 3), fixed(w.simulated_start_us, 3),
                  fixed(w.measured_end_us, 3), fixed(w.simulated_end_us, 3)});
    return h + "</table>\n";
}

std::string group_gantt(const std::string& title, const std::vector<MeasuredBlock>& blocks,
                        const std::vector<int>& group_of_sm, const std::vector<std::string>& labels) {
    charts::GanttChart chart;
    chart.title = title;
    chart.row_height = 6;
    chart.detail_px = 1000;
    for (const auto& label : labels) chart.rows.push_back({label, {}});
    const Time first = span_of(blocks).first;
    std::vector<const MeasuredBlock*> ordered;
    for (const auto& b : blocks) ordered.push_back(&b);
    std::sort(ordered.begin(), ordered.end(), [](const MeasuredBlock* a, const MeasuredBlock* b) {
        return a->start != b->start ? a->start < b->start : (a->launch != b->launch ? a->launch < b->launch : a->block < b->block);
    });
    for (const MeasuredBlock* b : ordered) {
        const auto sm = static_cast<std::size_t>(b->sm);
        const int g = sm < group_of_sm.size() ? group_of_sm[sm] : -1;
        if (g < 0 || static_cast<std::size_t>(g) >= chart.rows.size()) continue;
        chart.rows[static_cast<std::size_t>(g)].bars.push_back(
            {static_cast<double>(b->start - first) / 1e6, static_cast<double>(b->end - first) / 1e6,
             static_cast<std::size_t>(b->launch % 8),
             "launch " + std::to_string(b->launch) + " block " + std::to_string(b->block) + " SM " +
                 std::to_string(b->sm)});
    }
    chart.caption = "One row per group of SMs, its blocks overlaid. Colour: the launch (modulo 8).";
    return inline_svg(charts::render_svg(chart));
}

}  // namespace gpusched::validation

// SimulationGantt: blocks collected during the run, drawn with the report library's Gantt chart.
#include "simulation_gantt.h"

#include <algorithm>
#include <map>

#include "gpusched/charts/gantt_chart.h"
#include "gpusched/charts/palette.h"
#include "gpusched/charts/svg_canvas.h"
#include "gpusched/charts/svg_format.h"
#include "gpusched/workloads/gpu_bound_work.h"

namespace gpusched::cli {

namespace {

/// Wave starts marked at most: beyond this the markers would hide the bars.
constexpr std::size_t kMaxMarkers = 40;

}  // namespace

void SimulationGantt::on_begin(const sim::RunInfo& info) {
    sm_count_ = info.gpu ? info.gpu->sm_count : 0;
    app_ = info.app;
    occupancy_ = info.occupancy;  // RunInfo lives only during on_begin
    works_.clear();
    if (app_ && info.gpu) works_ = workloads::works_as_run(app_->launches, *info.gpu, info.execution);
    bars_.clear();
    calls_.clear();
}

void SimulationGantt::on_block_completed(const sim::BlockRecord& b) {
    bars_.push_back({b.start, b.end, static_cast<std::uint32_t>(b.launch), b.sm, b.block});
}

std::string SimulationGantt::svg(const std::string& title) const {
    charts::GanttChart chart;
    chart.title = title;
    chart.width = 1280;
    const int sms = sm_count_;
    chart.row_height = sms > 64 ? 5 : 10;
    chart.detail_px = sms > 64 ? 1000 : 3;  // 132 SMs: merged per-row paths keep the file small
    const workloads::Application* app = app_;
    const std::size_t host_rows = app && !calls_.empty() ? app->host.size() : 0;
    for (std::size_t t = 0; t < host_rows; ++t) chart.rows.push_back({"host " + app->host[t].name, {}});
    for (int sm = 0; sm < sms; ++sm) chart.rows.push_back({"SM " + std::to_string(sm), {}});
    std::map<std::string, std::size_t> colour_of_name;
    std::map<int, std::size_t> colour_of_stream;
    if (app)
        for (const auto& launch : app->launches) {
            if (colouring_ == GanttColouring::kernel) {
                if (colour_of_name.try_emplace(launch.name, colour_of_name.size()).second)
                    chart.colour_names.push_back(launch.name);
            } else if (colour_of_stream.try_emplace(launch.stream, colour_of_stream.size()).second) {
                chart.colour_names.push_back("stream " + std::to_string(launch.stream));
            }
        }
    if (host_rows > 0) add_host_lanes(chart, colour_of_name, colour_of_stream);
    std::vector<Bar> ordered = bars_;
    std::sort(ordered.begin(), ordered.end(), [](const Bar& a, const Bar& b) {
        return std::tie(a.start, a.launch, a.block) < std::tie(b.start, b.launch, b.block);
    });
    // Wave k of a launch starts when its block k x (blocks per SM x SMs) starts (blocks go in order).
    std::map<std::pair<std::uint32_t, std::uint64_t>, Time> wave_start;
    for (const Bar& bar : ordered) {
        if (bar.sm < 0 || bar.sm >= sms || !app) continue;
        const workloads::KernelLaunch& launch = app->launches.at(bar.launch);
        const int wpb = bar.launch < occupancy_.size() ? occupancy_[bar.launch].warps_per_block : 0;
        const auto& work = bar.launch < works_.size() ? works_[bar.launch] : launch.work;
        const bool partial = work && work->active_warps(bar.block, wpb) < wpb;
        const std::size_t colour =
            colouring_ == GanttColouring::kernel ? colour_of_name.at(launch.name) : colour_of_stream.at(launch.stream);
        chart.rows[host_rows + static_cast<std::size_t>(bar.sm)].bars.push_back(
            {static_cast<double>(bar.start) / 1e6, static_cast<double>(bar.end) / 1e6, colour,
             launch.name + " launch " + std::to_string(bar.launch) + " block " + std::to_string(bar.block) +
                 (partial ? " (partial)" : ""),
             partial});
        const int per_sm = bar.launch < occupancy_.size() ? occupancy_[bar.launch].blocks_per_sm : 0;
        const std::uint64_t per_wave = static_cast<std::uint64_t>(std::max(per_sm, 1)) * static_cast<std::uint64_t>(sms);
        if (bar.block % per_wave == 0) wave_start.try_emplace({bar.launch, bar.block / per_wave}, bar.start);
    }
    for (const auto& [key, at] : wave_start) {
        if (chart.markers.size() == kMaxMarkers) break;
        chart.markers.push_back({static_cast<double>(at) / 1e6,
                                 "L" + std::to_string(key.first) + " w" + std::to_string(key.second + 1)});
    }
    chart.caption = std::string(host_rows > 0 ? "Host lanes: each thread's calls (launches in their kernel's colour). " : "") +
                    "Colour: the " + (colouring_ == GanttColouring::kernel ? "kernel" : "stream") +
                    ". Underlined: partial blocks (some warps inactive). Dashed: wave starts (L launch, w wave" +
                    (wave_start.size() > kMaxMarkers ? "; the first " + std::to_string(kMaxMarkers) + " of " +
                                                           std::to_string(wave_start.size()) + ")."
                                                     : ").");
    return charts::render_svg(chart);
}

void SimulationGantt::add_host_lanes(charts::GanttChart& chart, std::map<std::string, std::size_t>& colour_of_name,
                                     std::map<int, std::size_t>& colour_of_stream) const {
    // The host's own colours, each added to the legend when a call uses it.
    std::map<std::string, std::size_t> host_colours;
    const auto host_colour = [&](const std::string& name) {
        const auto [it, fresh] = host_colours.try_emplace(name, chart.colour_names.size());
        if (fresh) chart.colour_names.push_back(name);
        return it->second;
    };
    for (const sim::HostCallRecord& c : calls_) {
        const workloads::HostCall& call = app_->host.at(c.thread).calls.at(c.call);
        auto& bars = chart.rows.at(c.thread).bars;
        const double start = static_cast<double>(c.start) / 1e6, end = static_cast<double>(c.end) / 1e6;
        const double unblocked = static_cast<double>(c.start + c.blocked) / 1e6;
        const std::string what = call.kind == workloads::HostCall::Kind::sync
                                     ? (call.stream < 0 ? std::string("device sync") : "sync of stream " + std::to_string(call.stream))
                                     : "launch of " + std::to_string(call.ops.size()) + " operation" + (call.ops.size() == 1 ? "" : "s");
        const std::string label = "host " + app_->host[c.thread].name + " call " + std::to_string(c.call) + ": " + what;
        std::size_t colour = 0;
        if (call.kind == workloads::HostCall::Kind::sync) {
            colour = host_colour("host sync");
        } else if (const workloads::Operation& op = app_->operations.at(call.ops.front());
                   op.kind == workloads::Operation::Kind::kernel) {
            const workloads::KernelLaunch& launch = app_->launches.at(op.launch);
            colour = colouring_ == GanttColouring::kernel ? colour_of_name.at(launch.name) : colour_of_stream.at(launch.stream);
        } else {
            colour = host_colour("host launch of a copy, memset or delay");
        }
        if (c.blocked > 0) bars.push_back({start, unblocked, host_colour("host blocked (sync wait, full queue)"), label + " (blocked)", false});
        bars.push_back({c.blocked > 0 ? unblocked : start, end, colour, label, false});
    }
}

std::string account_svg(const sim::TimeAccount& account) {
    constexpr double kWidth = 760, kLeft = 20, kBarWidth = 720, kBarTop = 34, kBarHeight = 28, kLine = 17;
    const Time total = account.total();
    const double height = kBarTop + kBarHeight + 16 + kLine * static_cast<double>(sim::kTimeCategories) + 10;
    charts::SvgCanvas out(kWidth, height, "where the SM-time went");
    out.text(kWidth / 2, 20, "Where the SM-time went: " + std::to_string(account.sm_count) + " SMs x makespan",
             {14, "middle", true, "#111111", 0});
    double x = kLeft;
    for (std::size_t c = 0; c < sim::kTimeCategories; ++c) {
        const double share = total == 0 ? 0 : static_cast<double>(account.ps[c]) / static_cast<double>(total);
        const std::string name = sim::time_category_name(static_cast<sim::TimeCategory>(c));
        const std::string percent = charts::format_number(share * 100, 1) + "%";
        if (share > 0) out.rect(x, kBarTop, share * kBarWidth, kBarHeight, charts::palette_colour(c), "#ffffff", name + ": " + percent);
        x += share * kBarWidth;
        const double y = kBarTop + kBarHeight + 16 + kLine * static_cast<double>(c);
        out.rect(kLeft, y - 10, 12, 10, charts::palette_colour(c));
        out.text(kLeft + 18, y, name + (c < 2 ? " (busy)" : " (idle)"), {12, "start", false, "#222222", 0});
        out.text(kLeft + 260, y, percent, {12, "end", false, "#222222", 0});
    }
    std::string text = out.finish();
    if (const auto at = text.find("<svg"); at != std::string::npos) text = text.substr(at);
    return text;
}

std::string SimulationGantt::html(const std::string& title, const std::string& explanation,
                                  const sim::TimeAccount& account) const {
    std::string svg_text = svg(title);
    if (const auto at = svg_text.find("<svg"); at != std::string::npos) svg_text = svg_text.substr(at);
    return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + charts::escape_xml(title) +
           "</title>\n<style>body{font-family:sans-serif;margin:1em;display:flex;gap:1.5em;align-items:flex-start}"
           "#chart{flex:3;overflow:auto;border:1px solid #ccc}#chart svg{width:100%;height:auto}"
           "pre{flex:2;font-size:13px;white-space:pre-wrap}</style></head>\n<body>\n"
           "<div style=\"flex:3\"><label>zoom <input id=\"zoom\" type=\"range\" min=\"100\" max=\"800\" value=\"100\" "
           "oninput=\"document.querySelector('#chart svg').style.width=this.value+'%'\"></label>\n<div id=\"chart\">" +
           svg_text + "</div>\n<div>" + account_svg(account) + "</div></div>\n<pre>" + charts::escape_xml(explanation) + "</pre>\n</body></html>\n";
}

}  // namespace gpusched::cli

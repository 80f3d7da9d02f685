// write_explanation: the narrative of a run from its summary, account and occupancy, in plain words with numbers.
#include "gpusched/sim/output/run_explanation.h"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>
#include <tuple>

#include "gpusched/hw/occupancy.h"
#include "gpusched/sim/engine/spec_time.h"
#include "gpusched/sim/output/gpu_idle_split.h"
#include "gpusched/workloads/gpu_bound_work.h"
#include "summary_format.h"

namespace gpusched::sim {

namespace {

using summary_format::fixed3;

std::string us(Time ps) { return fixed3(ps, 1000000) + " us"; }

std::string plural(std::uint64_t n, const std::string& word) {
    const bool sibilant = word.size() >= 2 && word.compare(word.size() - 2, 2, "ch") == 0;
    return std::to_string(n) + " " + word + (n == 1 ? "" : sibilant ? "es" : "s");
}

/// fraction (0..1) as a percentage with one decimal.
std::string percent1(double fraction) {
    const auto tenths = static_cast<std::uint64_t>(fraction * 1000 + 0.5);
    return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10);
}

std::string limiter_words(const hw::OccupancyResult& o) {
    std::string words;
    for (const hw::Limiter l : o.limited_by) {
        if (!words.empty()) words += " and ";
        switch (l) {
            case hw::Limiter::warps: words += "warps (the SM is full of warps)"; break;
            case hw::Limiter::registers: words += "registers"; break;
            case hw::Limiter::shared_memory: words += "shared memory"; break;
            case hw::Limiter::blocks: words += "the SM's resident-block limit"; break;
            case hw::Limiter::barriers: words += "named barriers"; break;
        }
    }
    return words.empty() ? "nothing" : words;
}

int blocks_with(const hw::GpuSpec& gpu, hw::OccupancyRequest request) {
    try {
        return hw::compute_occupancy(gpu, request).blocks_per_sm;
    } catch (const std::exception&) {
        return 0;
    }
}

/// One distinct kernel: the launches alike in name, blocks, threads and resources.
struct KernelKind {
    std::size_t first = 0;
    std::uint64_t launches = 0;
};

void explain_kernel(std::ostream& out, const ExplainInput& in, const KernelKind& kind) {
    const workloads::KernelLaunch& launch = in.app.launches[kind.first];
    const hw::OccupancyResult& occ = in.occupancy.at(kind.first);
    // The SMs its stream may use, as the summary's waves count them (one definition: RunInfo).
    const int sms = in.summary.kernel(kind.first).sms > 0 ? in.summary.kernel(kind.first).sms : in.gpu.sm_count;
    out << "* " << launch.name << " (" << plural(kind.launches, "launch") << ", first launch " << kind.first << "): "
        << launch.blocks() << " blocks of " << launch.threads_per_block() << " threads ("
        << plural(static_cast<std::uint64_t>(occ.warps_per_block), "warp") << ")\n";
    out << "  occupancy: " << occ.blocks_per_sm << " blocks per SM, " << occ.warps_per_sm << " of "
        << in.gpu.max_warps_per_sm << " warps (" << percent1(occ.occupancy)
        << "%), limited by " << limiter_words(occ) << ".\n";
    if (const std::string lift = occupancy_lift(in.gpu, launch, occ); !lift.empty()) out << "  to lift it: " << lift << "\n";
    const std::uint64_t per_wave = static_cast<std::uint64_t>(std::max(occ.blocks_per_sm, 1)) * static_cast<std::uint64_t>(sms);
    const std::uint64_t full = launch.blocks() / per_wave, rest = launch.blocks() % per_wave;
    const std::string mask =
        sms < in.gpu.sm_count ? " (its stream may use " + std::to_string(sms) + " of the " + std::to_string(in.gpu.sm_count) + " SMs)" : "";
    const std::uint64_t busy_sms = std::min<std::uint64_t>(rest, static_cast<std::uint64_t>(sms));
    const std::string share = percent1(static_cast<double>(rest) / static_cast<double>(per_wave)) + "%";
    if (full == 0) {
        out << "  waves: one partial wave, " << rest << " of the " << per_wave << " blocks a wave holds" << mask << " ("
            << share << "): its free slots are the tail";
        if (busy_sms < static_cast<std::uint64_t>(sms)) out << ", and " << (sms - static_cast<int>(busy_sms)) << " SMs get no block";
    } else {
        out << "  waves: " << plural(full, "full wave") << " of " << per_wave << " blocks" << mask;
        if (rest > 0) {
            out << ", then a partial wave of " << plural(rest, "block") << " (" << share
                << " of a wave): its SMs' free slots are the tail";
            if (busy_sms < static_cast<std::uint64_t>(sms)) out << ", and " << (sms - static_cast<int>(busy_sms)) << " SMs get no block in it";
        }
    }
    out << ".\n";
    const std::uint64_t counted = std::min<std::uint64_t>(launch.blocks(), 1000000);
    std::uint64_t partial = 0, inactive = 0;
    // The warps the execution model runs: under `shared` the work bound to the GPU (a min-plus
    // edge block runs every warp there, where the paper's counts let some retire).
    const auto work = workloads::work_as_run(launch, in.gpu, in.summary.execution);
    if (work)
        for (std::uint64_t b = 0; b < counted; ++b) {
            const int active = std::clamp(work->active_warps(b, occ.warps_per_block), 0, occ.warps_per_block);
            if (active < occ.warps_per_block) {
                ++partial;
                inactive += static_cast<std::uint64_t>(occ.warps_per_block - active);
            }
        }
    out << "  partial blocks: ";
    if (partial == 0)
        out << "none (every warp of every block works)";
    else
        out << partial << " of " << counted << " blocks" << (counted < launch.blocks() ? " counted" : "") << " have "
            << plural(inactive, "inactive warp") << " in all ("
            << percent1(static_cast<double>(inactive) /
                        static_cast<double>(counted * static_cast<std::uint64_t>(std::max(occ.warps_per_block, 1))))
            << "% of the warps): they hold warp slots and do nothing";
    out << ".\n";
}

/// With a host timeline: the makespan split GPU-wide into kernels running, launch overhead and
/// the GPU idle with no launch on its way (the host had not issued the next one: host-bound).
void explain_gpu_idle(std::ostream& out, const ExplainInput& in, Time overhead) {
    const RunSummary& s = in.summary;
    const GpuIdleSplit split = gpu_idle_split(s, overhead);
    out << "Host timeline (GPU-wide, of the makespan " << us(s.makespan) << "): kernels ready or running " << us(split.busy)
        << "; GPU idle " << us(split.launch_overhead) << " in launch overhead and " << us(split.host_bound)
        << " with no launch on its way (host-bound: the host's calls, gaps and syncs had not issued the next kernel)"
        << (split.after > 0 ? ", " + us(split.after) + " after the last kernel (copies, delays)" : std::string())
        << ". The host threads waited " << us(s.host_sync_wait) << " in synchronisations (the GPU busy with the work they named) and "
        << us(s.host_queue_wait) << " for room in full launch queues.\n";
    for (const HostThreadSummary& t : s.host_threads)
        out << "  host thread " << t.name << ": " << t.launches << " launch" << (t.launches == 1 ? "" : "es") << ", " << t.syncs
            << " sync" << (t.syncs == 1 ? "" : "s") << ", CPU " << us(t.cpu) << ", blocked " << us(t.sync_wait) << " in syncs and "
            << us(t.queue_wait) << " on full launch queues, from " << us(t.first_start) << " to " << us(t.last_end) << "\n";
}

void explain_streams(std::ostream& out, const ExplainInput& in) {
    struct StreamWait {
        std::uint64_t launches = 0;
        Time ran = 0, queued = 0, overhead = 0, before = 0;
        Time last_end = 0;
    };
    std::map<int, StreamWait> streams;
    const Time overhead = kernel_launch_ps(in.gpu, in.app.host_issue);
    const RunSummary& s = in.summary;
    for (std::size_t i = 0; i < s.kernel_count(); ++i) {
        const KernelSummary k = s.kernel(i);
        if (!k.ready || !k.start || !k.end) continue;
        StreamWait& w = streams[k.stream];
        ++w.launches;
        w.ran += *k.end - *k.start;
        w.queued += *k.start - *k.ready;
        const Time gap = *k.ready > w.last_end ? *k.ready - w.last_end : 0;
        w.overhead += std::min(gap, overhead);
        w.before += gap - std::min(gap, overhead);
        w.last_end = std::max(w.last_end, *k.end);
    }
    const bool host = in.app.host_issue == workloads::HostIssue::calls;
    const bool timeline = !in.app.host.empty();
    out << "Streams (what their launches waited for):\n";
    for (const auto& [id, w] : streams) {
        std::string priority = "normal";
        for (const auto& c : in.app.streams)
            if (c.id == id && c.priority == workloads::StreamPriority::high) priority = "high";
        out << "* stream " << id << " (" << priority << " priority, " << plural(w.launches, "launch") << "): ran "
            << us(w.ran) << "; waited " << us(w.overhead) << " in launch overhead, " << us(w.before) << " for "
            << (host       ? "the host to issue them (host calls)"
                : timeline ? "the host to issue them (its calls, gaps and syncs) and their dependencies"
                           : "events, copies and other streams (dependencies)")
            << ", and " << us(w.queued)
            << " ready but queued for SMs (dispatch latency, and SMs held by other launches: leftover or priority).\n";
    }
    if (timeline) explain_gpu_idle(out, in, overhead);
}

void explain_binds(std::ostream& out, const ExplainInput& in) {
    const RunSummary& s = in.summary;
    std::map<std::tuple<std::uint32_t, int>, std::uint64_t> count;  // (terms, binding) -> launches
    // binding -> family -> (launches, launches whose work rests on a rule); imported kernels only
    std::map<int, std::map<std::string, std::pair<std::uint64_t, std::uint64_t>>> families;
    for (std::size_t i = 0; i < s.kernel_count(); ++i) {
        const KernelSummary k = s.kernel(i);
        if (!k.end) continue;
        ++count[{k.terms, static_cast<int>(k.binds)}];
        if (i >= in.app.launches.size() || in.app.launches[i].family.empty()) continue;
        const workloads::KernelLaunch& launch = in.app.launches[i];
        auto& f = families[static_cast<int>(k.binds)][launch.family];
        ++f.first;
        if (launch.work_from == "bandwidth-rule" || launch.work_from == "efficiency-rule" || launch.work_from == "duration" ||
            launch.work_from.empty())
            ++f.second;
    }
    std::map<int, std::uint64_t> per_binding;
    for (const auto& [key, n] : count) per_binding[std::get<1>(key)] += n;
    out << "What bound the launches:\n";
    for (const auto& [binding, n] : per_binding) {
        out << "* " << binding_name(static_cast<Binding>(binding)) << ": " << plural(n, "launch");
        if (const auto f = families.find(binding); f != families.end()) {
            std::string list;
            std::uint64_t on_rule = 0;
            for (const auto& [family, c] : f->second) {
                list += (list.empty() ? "" : ", ") + family + " " + std::to_string(c.first);
                on_rule += c.second;
            }
            out << " (kernel families: " << list << "; " << on_rule << " of them with work from a rule, not data)";
        }
        out << ", " << binding_meaning(static_cast<Binding>(binding)) << ".\n";
    }
    std::size_t shown = 0;
    for (const auto& [key, n] : count) {
        const LaunchTerms& t = s.launch_terms.at(std::get<0>(key));
        if (!t.terms || shown == 5) continue;
        ++shown;
        const ExecutionTerms& e = *t.terms;
        out << "  terms for " << plural(n, "launch") << " (" << t.warps_per_sm << " active warps on each of " << t.busy_sms
            << " SMs): issue " << us(e.issue) << ", latency " << us(e.latency) << ", L1 " << us(e.l1) << ", L2 " << us(e.l2)
            << ", DRAM " << us(e.dram) << " per block; the largest binds.\n";
    }
}

}  // namespace

std::string occupancy_lift(const hw::GpuSpec& gpu, const workloads::KernelLaunch& launch,
                           const hw::OccupancyResult& occ) {
    const auto limited = [&](hw::Limiter l) {
        return std::find(occ.limited_by.begin(), occ.limited_by.end(), l) != occ.limited_by.end();
    };
    if (limited(hw::Limiter::warps) || occ.limited_by.empty()) return "";
    const int target = occ.blocks_per_sm + 1;
    const hw::OccupancyRequest request = launch.occupancy_request();
    std::string words;
    const auto add = [&words](const std::string& w) { words += (words.empty() ? "" : "; ") + w; };
    if (limited(hw::Limiter::registers)) {
        hw::OccupancyRequest r = request;
        for (r.registers_per_thread = request.registers_per_thread - 1; r.registers_per_thread >= 1; --r.registers_per_thread)
            if (blocks_with(gpu, r) >= target) break;
        if (r.registers_per_thread >= 1)
            add("at most " + std::to_string(r.registers_per_thread) + " registers per thread (now " +
                std::to_string(request.registers_per_thread) + ") give " + std::to_string(target) + " blocks per SM");
    }
    if (limited(hw::Limiter::shared_memory)) {
        hw::OccupancyRequest r = request;
        r.dynamic_shared_bytes = 0;
        if (blocks_with(gpu, r) >= target) {
            std::int64_t lo = 0, hi = request.dynamic_shared_bytes;  // lo fits the target, hi does not
            while (hi - lo > 1) {
                r.dynamic_shared_bytes = lo + (hi - lo) / 2;
                (blocks_with(gpu, r) >= target ? lo : hi) = r.dynamic_shared_bytes;
            }
            add("at most " + std::to_string(lo) + " bytes of dynamic shared memory per block (now " +
                std::to_string(request.dynamic_shared_bytes) + ") give " + std::to_string(target) + " blocks per SM");
        } else {
            add("less static shared memory per block (" + std::to_string(occ.shared_bytes_per_block) + " bytes allocated now)");
        }
    }
    if (limited(hw::Limiter::blocks))
        add("the SM holds at most " + std::to_string(gpu.max_blocks_per_sm) + " blocks: larger blocks (more threads each) fill more of its " +
            std::to_string(gpu.max_warps_per_sm) + " warps");
    if (limited(hw::Limiter::barriers)) add("fewer named barriers per block");
    return words;
}

void write_explanation(std::ostream& out, const ExplainInput& in) {
    const RunSummary& s = in.summary;
    out << "Explanation\n";
    out << "The run took " << us(s.makespan) << " on " << s.sm_count << " SMs of " << s.gpu << " (" << s.execution
        << " execution, " << s.policy << " dispatch): " << plural(s.kernel_count(), "launch") << ", "
        << plural(s.total_blocks, "block") << ".\n\nKernels:\n";
    std::map<std::tuple<std::string, std::uint64_t, int, int, std::int64_t, std::int64_t>, std::size_t> index;
    std::vector<KernelKind> kinds;
    for (std::size_t i = 0; i < in.app.launches.size(); ++i) {
        const workloads::KernelLaunch& l = in.app.launches[i];
        const auto key = std::make_tuple(l.name, l.blocks(), l.threads_per_block(), l.registers_per_thread,
                                         l.static_shared_bytes, l.dynamic_shared_bytes);
        const auto [it, added] = index.try_emplace(key, kinds.size());
        if (added) kinds.push_back({i, 0});
        ++kinds[it->second].launches;
    }
    constexpr std::size_t kShownKinds = 12;
    for (std::size_t k = 0; k < std::min(kinds.size(), kShownKinds); ++k) explain_kernel(out, in, kinds[k]);
    if (kinds.size() > kShownKinds) out << "  (" << kinds.size() - kShownKinds << " more kinds of launch not described)\n";
    out << '\n';
    explain_streams(out, in);
    out << '\n';
    explain_binds(out, in);
    out << '\n';
    write_time_account_text(out, in.account);
}

}  // namespace gpusched::sim

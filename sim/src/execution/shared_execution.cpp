// The shared issue-slot execution model: per-SM rate recomputation at block start and end, DRAM share.
#include "gpusched/sim/execution/shared_execution.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "gpusched/sim/sm_pool.h"
#include "gpusched/support/checked_time.h"
#include "gpusched/support/key_error.h"
#include "gpusched/workloads/cycle_latency.h"
#include "gpusched/workloads/gpu_bound_work.h"

namespace gpusched::sim {

SharedExecution::SharedExecution(const hw::GpuSpec& gpu, const workloads::Application& app, bool catch_up_shortcut)
    : app_(app),
      clock_mhz_(gpu.clock_mhz.value_or(0)),
      slots_(static_cast<std::size_t>(SmPool::slots_per_sm(gpu))),
      slots_per_ps_(0),
      running_(static_cast<std::size_t>(gpu.sm_count) * slots_),
      issue_rates_(slots_, 0),
      slot_words_((slots_ + 63) / 64),
      live_bits_(static_cast<std::size_t>(gpu.sm_count) * slot_words_, 0),
      live_count_(static_cast<std::size_t>(gpu.sm_count), 0),
      active_warps_(static_cast<std::size_t>(gpu.sm_count), 0),
      l1_blocks_(static_cast<std::size_t>(gpu.sm_count), 0),
      last_update_(static_cast<std::size_t>(gpu.sm_count), 0),
      own_clock_blocks_(static_cast<std::size_t>(gpu.sm_count), 0),
      catch_up_shortcut_(catch_up_shortcut) {
    if (!gpu.clock_mhz)
        throw KeyError("exec", "shared", "GPU '" + gpu.name + "' has no execution.clock_mhz; the shared model needs it");
    // GB/s = 10^9 bytes / 10^12 ps. No bandwidth in the spec: unlimited (dram_bytes ignored).
    const double dram = gpu.dram_bandwidth_gbps.value_or(0) * 1e-3;
    const double l2 = gpu.l2_bandwidth_gbps.value_or(0) * 1e-3;
    gpu_has_dram_ = dram > 0;
    gpu_has_l2_ = l2 > 0;
    if (dram > 0 || l2 > 0) bandwidth_.emplace(gpu.sm_count, static_cast<int>(slots_), dram, l2);
    // C warp-instructions per cycle x clock_mhz x 1e6 cycles/s / 1e12 ps/s.
    slots_per_ps_ = gpu.issue_slots_per_cycle() * (*gpu.clock_mhz) * 1e-6;
    if (gpu.issue_model == hw::GpuSpec::IssueModel::queue) {
        service_ps_ = 1e6 / (gpu.issue_width * *gpu.clock_mhz);
        creep_ = 1e-6 / service_ps_;
        queues_.assign(static_cast<std::size_t>(gpu.sm_count),
                       IssueQueue(gpu.warp_schedulers_per_sm, gpu.max_warps_per_sm, static_cast<int>(slots_), service_ps_,
                                  static_cast<int>(gpu.issue_fair_warps.value_or(0))));
        issue_memo_ = std::make_unique<AgeStepMemo>();
        for (IssueQueue& queue : queues_) queue.recall_from(issue_memo_.get());
    }
    l1_per_ps_ = gpu.l1_wavefronts_per_cycle.value_or(0) * (*gpu.clock_mhz) * 1e-6;
    l1_queue_ = gpu.l1_model == hw::GpuSpec::L1Model::queue;
    if (l1_queue_) l1_memo_.emplace();
    if (gpu_has_dram_) sm_dram_per_ps_ = gpu.sm_dram_bandwidth_gbps.value_or(0) * 1e-3;  // the key only, not its rule
    works_ = workloads::works_as_run(app.launches, gpu, "shared");
    for (std::size_t i = 0; i < app.launches.size(); ++i) {
        const workloads::KernelLaunch& launch = app.launches[i];
        warps_per_block_.push_back((launch.threads_per_block() + gpu.warp_size - 1) / std::max(gpu.warp_size, 1));
        cycle_works_.push_back(dynamic_cast<const workloads::CycleLatencyWork*>(works_[i].get()));
        if (!works_[i]->warp_work(0))
            throw KeyError("exec", "shared",
                           "launch " + std::to_string(i) + " (" + app.launches[i].name +
                               ") has no per-warp work (issue slots, latency); use the fixed execution model, or "
                               "a kernel whose work model gives it");
    }
}

ExecutionTerms SharedExecution::terms(const hw::GpuSpec& gpu, const workloads::WarpWork& work, int warps_per_sm,
                                      int busy_sms) {
    ExecutionTerms t;
    const double f = gpu.clock_mhz.value_or(0) * 1e-6;  // cycles per ps
    if (f <= 0 || work.issue_slots <= 0) return t;
    const auto ps = [](double value) { return value > 0 ? time_from_ps(std::ceil(value)).value_or(kTimeLimit) : Time{0}; };
    const double n = std::max(warps_per_sm, 1);
    const double sms = std::max(busy_sms, 1);
    t.issue = ps(n * work.issue_slots / (gpu.issue_slots_per_cycle() * f));
    t.latency = work.latency_bound;
    if (gpu.l1_wavefronts_per_cycle.value_or(0) > 0)
        t.l1 = ps(n * work.l1_wavefronts / (*gpu.l1_wavefronts_per_cycle * f));
    if (gpu.l2_bandwidth_gbps.value_or(0) > 0)  // GB/s = 10^-3 bytes per ps
        t.l2 = ps(sms * n * (work.l2_bytes + work.dram_bytes) / (*gpu.l2_bandwidth_gbps * 1e-3));
    if (gpu.dram_bandwidth_gbps.value_or(0) > 0) {
        t.dram = ps(sms * n * work.dram_bytes / (*gpu.dram_bandwidth_gbps * 1e-3));
        if (gpu.sm_dram_bandwidth_gbps.value_or(0) > 0)
            t.dram = std::max(t.dram, ps(n * work.dram_bytes / (*gpu.sm_dram_bandwidth_gbps * 1e-3)));
    }
    return t;
}

int SharedExecution::bound_active_warps(const StartedBlock& b) const {
    const workloads::BlockWork& bound = *works_[b.launch];
    const workloads::BlockWork& given = *app_.launches[b.launch].work;
    if (&bound == &given) return b.active_warps;
    const int warps = warps_per_block_[b.launch];
    // The engine counted the block's warps with the launch's own work; where that is what it
    // gave, the work bound to the GPU answers instead (it may know that more warps run).
    if (b.active_warps != std::clamp(given.active_warps(b.block, warps), 0, warps)) return b.active_warps;
    return std::clamp(bound.active_warps(b.block, warps), 0, warps);
}

namespace {

template <typename Throughput>
double queue_share(int blocks, double load, Throughput&& throughput) {
    if (blocks <= 0 || !(load > 0)) return 1.0;
    // Each block alone spends the fraction u of its time on the L1 path (u >= 1: the path
    // alone is its pace); with `blocks` such customers the path serves X(blocks) of their cycles
    // per cycle time where each alone would do one.
    const double u = load / blocks;
    const double x = throughput(blocks, std::max(0.0, 1 - u), u);
    return std::min(1.0, x / blocks);
}

}  // namespace

double SharedExecution::l1_queue_share(int blocks, double load) {
    return queue_share(blocks, load, mva_throughput);
}

double SharedExecution::l1_queue_share(int blocks, double load, MvaMemo& memo) {
    return queue_share(blocks, load, [&](int n, double think, double service) { return memo.throughput(n, think, service); });
}

double SharedExecution::warp_rate(const Running& r, double share) {
    return r.latency_rate > 0 ? std::min(r.latency_rate, share) : share;
}

double SharedExecution::issue_rate(std::size_t sm, std::size_t slot, const Running& r, double share) const {
    if (queues_.empty()) return warp_rate(r, share);
    // Starved blocks creep at 10^-6 of a scheduler's rate, or at their own latency-bound rate where that
    // is slower (a floor of over 10^6 cycles per issue slot: a long measured launch): ends stay finite,
    // and are recomputed when the older blocks leave.
    return std::max(queues_[sm].rate(static_cast<int>(slot)), r.latency_rate > 0 ? std::min(creep_, r.latency_rate) : creep_);
}

void SharedExecution::update_sm(int sm, Time now, CompletionSink& sink) {
    const auto s = static_cast<std::size_t>(sm);
    const Time last = last_update_[s];
    last_update_[s] = now;
    const int n = active_warps_[s];
    if (n == 0) {
        if (bandwidth_) bandwidth_->set_demand(sm, 0);
        return;
    }
    const double share = slots_per_ps_ / n;
    if (!queues_.empty()) queues_[s].update();
    // Each live block's issue rate, once: the sums below and the rates read it. Without L1 users the SM's
    // DRAM cap needs no slow-down psi first, so its sum is formed in the same walk (the same terms in the
    // same order: psi's factor would be 1).
    const bool dram_sum_now = sm_dram_per_ps_ > 0 && l1_blocks_[s] == 0;
    double sm_bytes = 0;
    for_each_live(s, [&](std::size_t slot) {
        const Running& r = running_[s * slots_ + slot];
        if (r.active_warps == 0) return;
        const double rate = issue_rates_[slot] = issue_rate(s, slot, r, share);
        if (dram_sum_now && r.bytes_per_slot > 0) sm_bytes += r.active_warps * rate * r.bytes_per_slot;
    });
    double psi = 1;  // the L1 data path's slow-down of blocks that use it
    if (l1_blocks_[s] > 0) {
        double wavefronts = 0;
        int users = 0;
        for_each_live(s, [&](std::size_t slot) {
            const Running& r = running_[s * slots_ + slot];
            if (r.active_warps > 0 && r.l1_per_slot > 0) {
                wavefronts += r.active_warps * issue_rates_[slot] * r.l1_per_slot;
                users += r.l1_by_block ? 1 : r.active_warps;
            }
        });
        if (l1_queue_) {
            // The SMs return again and again to a few (users, load) mixes: their O(users) recurrences
            // are recalled (MvaMemo), not recomputed.
            psi = l1_queue_share(users, wavefronts / l1_per_ps_, *l1_memo_);
        } else {
            psi = wavefronts > l1_per_ps_ ? l1_per_ps_ / wavefronts : 1.0;
        }
    }
    double chi = 1;  // one SM's DRAM cap: its blocks that move DRAM bytes share it
    if (sm_dram_per_ps_ > 0) {
        double bytes = sm_bytes;
        if (!dram_sum_now) {
            for_each_live(s, [&](std::size_t slot) {
                const Running& r = running_[s * slots_ + slot];
                if (r.active_warps > 0 && r.bytes_per_slot > 0)
                    bytes += r.active_warps * issue_rates_[slot] * (r.l1_per_slot > 0 ? psi : 1) * r.bytes_per_slot;
            });
        }
        if (bytes > sm_dram_per_ps_) chi = sm_dram_per_ps_ / bytes;
    }
    double demand = 0;
    double l2_demand = 0;
    for_each_live(s, [&](std::size_t slot) {
        Running& r = running_[s * slots_ + slot];
        if (r.active_warps == 0) return;
        double rate = r.l1_per_slot > 0 ? issue_rates_[slot] * psi : issue_rates_[slot];
        if (r.bytes_per_slot > 0) rate *= chi;
        if (r.dram) {  // progress on the bandwidth share's virtual clock
            if (rate != r.rate) {
                r.rate = rate;
                bandwidth_->set_rate(sm, static_cast<int>(slot), now, rate);
            }
            demand += r.active_warps * rate * r.bytes_per_slot;
            l2_demand += r.active_warps * rate * r.l2_per_slot;
            return;
        }
        const Time from = std::max(last, r.begin);  // no progress before the block starts
        if (now > from) r.remaining = std::max(0.0, r.remaining - r.rate * static_cast<double>(now - from));
        r.rate = rate;
        // A starved block's end past the range of simulated time is kTimeLimit: the engine
        // reports it only if nothing revises it first (when the older blocks leave).
        const std::optional<Time> wait = time_from_ps(std::ceil(r.remaining / r.rate));
        const std::optional<Time> until = wait ? time_sum(std::max(now, r.begin), *wait) : std::nullopt;
        const Time end = until ? *until : kTimeLimit;
        if (end != r.end) {
            r.end = end;
            sink.set_end(sm, static_cast<int>(slot), end);
        }
    });
    if (bandwidth_) bandwidth_->set_demand(sm, demand, l2_demand);
}

void SharedExecution::set_live(int sm, int slot, bool live) {
    const auto s = static_cast<std::size_t>(slot);
    std::uint64_t& word = live_bits_[static_cast<std::size_t>(sm) * slot_words_ + s / 64];
    const std::uint64_t mask = std::uint64_t{1} << (s % 64);
    if (((word & mask) != 0) == live) return;
    word ^= mask;
    live_count_[static_cast<std::size_t>(sm)] += live ? 1 : -1;
}

void SharedExecution::catch_up(int sm, Time now, CompletionSink& sink) {
    // Every model call ends with update_sm() on the SM it changed, so an SM last updated at `now` is
    // as that call left it: the same warps, an up-to-date issue queue, remaining work advanced to
    // `now` (no time passes: nothing is subtracted), so update_sm() would compute the same rates, ends
    // and demands and report nothing. Many calls come at one instant on one SM (a block's end and the
    // block that refills its slot; a dispatch pass placing several blocks on an SM).
    //
    // An SM whose working blocks all progress on the bandwidth share's virtual clock is as the call left
    // it at any later instant too: update_sm() reads only the SM's own warps, issue queue and blocks
    // (none changed since), so it would compute the same rates (no set_rate), the same demand sums in
    // the same order (no set_demand change) and, with no block advanced on its own, no end.
    const auto s = static_cast<std::size_t>(sm);
    if (!catch_up_shortcut_) {
        update_sm(sm, now, sink);
    } else if (last_update_[s] != now) {
        if (own_clock_blocks_[s] == 0) last_update_[s] = now;
        else update_sm(sm, now, sink);
    }
}

void SharedExecution::block_started(const StartedBlock& b, Time now, CompletionSink& sink) {
    const workloads::WarpWork work =
        *workloads::warp_work_at_clock(*works_[b.launch], cycle_works_[b.launch], b.block, clock_mhz_);
    const int active_warps = bound_active_warps(b);
    if (bandwidth_) bandwidth_->advance(now);
    // Bring the blocks already there up to now at their old rates, before this one joins (skipped when
    // the SM is up to now already: see catch_up).
    catch_up(b.sm, now, sink);
    Running& r = at(b.sm, b.slot);
    r = Running{};
    r.live = true;
    set_live(b.sm, b.slot, true);
    r.begin = b.start;
    if (active_warps == 0 || work.issue_slots <= 0) {  // nothing to do: retires as it starts
        r.end = b.start;
        sink.set_end(b.sm, b.slot, b.start);
        if (bandwidth_) bandwidth_->reschedule(now, sink);
        return;
    }
    r.active_warps = active_warps;
    r.remaining = work.issue_slots;
    r.latency_rate = work.latency_bound > 0 ? work.issue_slots / static_cast<double>(work.latency_bound) : 0;
    if (!queues_.empty()) {  // think time per instruction: the lone warp's time per slot less its issue
        const double think = r.latency_rate > 0 ? 1 / r.latency_rate - service_ps_ : 0;
        queues_[static_cast<std::size_t>(b.sm)].add(b.slot, r.active_warps, think);
    }
    const int n = active_warps_[static_cast<std::size_t>(b.sm)] += r.active_warps;
    if (l1_per_ps_ > 0 && work.l1_wavefronts > 0) {
        r.l1_per_slot = work.l1_wavefronts / work.issue_slots;
        r.l1_by_block = work.l1_by_block;
        ++l1_blocks_[static_cast<std::size_t>(b.sm)];
    }
    const bool dram = gpu_has_dram_ && work.dram_bytes > 0;
    const bool l2 = gpu_has_l2_ && work.dram_bytes + work.l2_bytes > 0;
    if (!dram && !l2) ++own_clock_blocks_[static_cast<std::size_t>(b.sm)];
    if (dram || l2) {
        r.dram = true;
        r.bytes_per_slot = gpu_has_dram_ ? work.dram_bytes / work.issue_slots : 0;
        r.l2_per_slot = gpu_has_l2_ ? (work.dram_bytes + work.l2_bytes) / work.issue_slots : 0;
        r.rate = warp_rate(r, slots_per_ps_ / n);
        bandwidth_->add(b.sm, b.slot, now, b.start, work.issue_slots, r.rate);
    }
    update_sm(b.sm, now, sink);
    if (bandwidth_) bandwidth_->reschedule(now, sink);
}

void SharedExecution::block_finished(int sm, int slot, Time now, CompletionSink& sink) {
    Running& r = at(sm, slot);
    if (bandwidth_) bandwidth_->advance(now);
    catch_up(sm, now, sink);  // advance everyone (this block's remaining work is ~0 now)
    if (r.dram) bandwidth_->remove(sm, slot);
    else if (r.active_warps > 0) --own_clock_blocks_[static_cast<std::size_t>(sm)];
    active_warps_[static_cast<std::size_t>(sm)] -= r.active_warps;
    if (r.l1_per_slot > 0) --l1_blocks_[static_cast<std::size_t>(sm)];
    if (!queues_.empty() && r.active_warps > 0) queues_[static_cast<std::size_t>(sm)].remove(slot);
    r.live = false;
    set_live(sm, slot, false);
    r.dram = false;
    r.active_warps = 0;
    r.l1_per_slot = 0;
    r.l1_by_block = false;
    update_sm(sm, now, sink);
    if (bandwidth_) bandwidth_->reschedule(now, sink);
}

}  // namespace gpusched::sim

// MvaMemo and AgeStepMemo: direct-mapped tables of mva_throughput values and age-order steps keyed by their arguments' bits.
#include "gpusched/sim/execution/mva_memo.h"

#include <cstring>

#include "gpusched/sim/execution/issue_queue.h"

namespace gpusched::sim {

namespace {

constexpr int kIndexBits = 11;  // 2,048 entries: 64 KiB (MvaMemo), 96 KiB (AgeStepMemo)

std::uint64_t bits_of(double value) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);  // not std::bit_cast: the lab's libc++ lacks it
    return bits;
}

/// The table index of a key: its fields' bits mixed, the top kIndexBits bits taken.
std::size_t index_of(int warps, std::uint64_t think, std::uint64_t service, std::uint64_t used = 0) {
    std::uint64_t h = (think ^ (service * 0x9e3779b97f4a7c15ULL) ^ (used * 0xc2b2ae3d27d4eb4fULL) ^
                       static_cast<std::uint64_t>(static_cast<std::uint32_t>(warps))) *
                      0xbf58476d1ce4e5b9ULL;
    h ^= h >> 31;
    return static_cast<std::size_t>(h >> (64 - kIndexBits));
}

}  // namespace

MvaMemo::MvaMemo() : entries_(std::size_t{1} << kIndexBits) {}

AgeStepMemo::AgeStepMemo() : entries_(std::size_t{1} << kIndexBits) {}

double AgeStepMemo::step(int warps, double think, double service, double& used) {
    const std::uint64_t t = bits_of(think);
    const std::uint64_t s = bits_of(service);
    const std::uint64_t u = bits_of(used);
    Entry& e = entries_[index_of(warps, t, s, u)];
    if (e.warps == warps && e.think == t && e.used == u && e.service == s) {
        ++hits_;
        used = e.used_after;
        return e.per_warp;
    }
    const double per_warp = age_order_step(warps, think, service, used);
    e = Entry{t, s, u, warps, per_warp, used};
    return per_warp;
}

double MvaMemo::throughput(int warps, double think, double service) {
    const std::uint64_t t = bits_of(think);
    const std::uint64_t s = bits_of(service);
    Entry& e = entries_[index_of(warps, t, s)];
    if (e.warps == warps && e.think == t && e.service == s) {
        ++hits_;
        return e.value;
    }
    e = Entry{t, s, warps, mva_throughput(warps, think, service)};
    return e.value;
}

}  // namespace gpusched::sim

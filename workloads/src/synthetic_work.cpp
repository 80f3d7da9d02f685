// Synthetic block durations (constant, pattern, seeded uniform) and the `synthetic` generator.
#include "gpusched/workloads/synthetic_work.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "gpusched/support/input_error.h"

namespace gpusched::workloads {

SyntheticDurations parse_synthetic_durations(const std::string& text, const std::string& what) {
    SyntheticDurations out;
    const std::size_t tilde = text.find('~');
    if (tilde != std::string::npos) {
        out.kind = SyntheticDurations::Kind::uniform;
        const Time lo = parse_duration(text.substr(0, tilde), what + " (lower bound of LO~HI)");
        const Time hi = parse_duration(text.substr(tilde + 1), what + " (upper bound of LO~HI)");
        if (lo > hi)
            throw InputError(what + ": expected LO~HI with LO <= HI, got '" + text + "'");
        out.values = {lo, hi};
        return out;
    }
    if (text.find('/') != std::string::npos) {
        out.kind = SyntheticDurations::Kind::pattern;
        std::size_t start = 0;
        while (true) {
            const std::size_t slash = text.find('/', start);
            const std::string part = text.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
            out.values.push_back(parse_duration(part, what + " (item " + std::to_string(out.values.size() + 1) +
                                                          " of the pattern D/D/...)"));
            if (slash == std::string::npos) break;
            start = slash + 1;
        }
        return out;
    }
    out.values = {parse_duration(text, what)};
    return out;
}

std::uint64_t splitmix64(std::uint64_t x) {
    std::uint64_t z = x + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

Time uniform_duration(Time lo, Time hi, std::uint64_t seed, std::uint64_t block) {
    const std::uint64_t hash = splitmix64(splitmix64(seed) + block);
    const std::uint64_t span = hi - lo;
    if (span == std::numeric_limits<std::uint64_t>::max()) return lo + hash;
    return lo + hash % (span + 1);
}

std::string format_duration(Time ps) {
    struct Unit {
        const char* suffix;
        Time scale;
    };
    static constexpr Unit units[] = {{"s", 1000000000000}, {"ms", 1000000000}, {"us", 1000000}, {"ns", 1000}};
    if (ps == 0) return "0us";
    for (const auto& unit : units)
        if (ps % unit.scale == 0) return std::to_string(ps / unit.scale) + unit.suffix;
    return std::to_string(ps) + "ps";
}

SyntheticWork::SyntheticWork(SyntheticDurations durations, int active_warps, std::string key)
    : durations_(std::move(durations)), active_warps_(active_warps), key_(std::move(key)) {
    if (durations_.values.empty()) durations_.values = {0};
}

Time SyntheticWork::duration(std::uint64_t block) const {
    switch (durations_.kind) {
        case SyntheticDurations::Kind::constant: return durations_.values[0];
        case SyntheticDurations::Kind::pattern: return durations_.values[block % durations_.values.size()];
        case SyntheticDurations::Kind::uniform:
            return uniform_duration(durations_.values[0], durations_.values.back(), durations_.seed, block);
    }
    return durations_.values[0];
}

bool SyntheticWork::same_duration_for_every_block() const {
    return durations_.kind == SyntheticDurations::Kind::constant ||
           std::all_of(durations_.values.begin(), durations_.values.end(),
                       [&](Time d) { return d == durations_.values.front(); });
}

int SyntheticWork::active_warps(std::uint64_t block, int warps_per_block) const {
    (void)block;
    if (active_warps_ == 0) return warps_per_block;
    check_block_warps(warps_per_block);
    return active_warps_;
}

void SyntheticWork::check_block_warps(int warps_per_block) const {
    if (active_warps_ > warps_per_block)
        throw InputError(key_ + ": " + std::to_string(active_warps_) + " exceeds the " +
                         std::to_string(warps_per_block) + " warps of each block on this GPU");
}

std::string SyntheticWork::describe() const {
    std::string out;
    switch (durations_.kind) {
        case SyntheticDurations::Kind::constant: out = "constant " + format_duration(durations_.values[0]); break;
        case SyntheticDurations::Kind::pattern:
            out = "pattern ";
            for (std::size_t i = 0; i < durations_.values.size(); ++i) {
                if (i > 0) out += '/';
                out += format_duration(durations_.values[i]);
            }
            break;
        case SyntheticDurations::Kind::uniform:
            out = "uniform " + format_duration(durations_.values[0]) + "~" + format_duration(durations_.values.back()) +
                  " (seed " + std::to_string(durations_.seed) + ")";
            break;
    }
    if (active_warps_ > 0)
        out += ", " + std::to_string(active_warps_) + (active_warps_ == 1 ? " active warp" : " active warps");
    return out;
}

namespace {

void build_synthetic(SpecArgs& args, KernelLaunch& launch) {
    if (!args.has("blocks") && !args.has("grid")) args.fail_spec("required key 'blocks' (or 'grid') is missing");
    if (!args.has("threads") && !args.has("block")) args.fail_spec("required key 'threads' (or 'block') is missing");
    const std::string where = args.where("duration");
    SyntheticDurations durations =
        parse_synthetic_durations(args.text("duration"), where + ": key '" + args.key_path("duration") + "'");
    if (args.has("seed")) {
        if (durations.kind != SyntheticDurations::Kind::uniform)
            args.fail("seed", "applies only to a random duration LO~HI");
        durations.seed = static_cast<std::uint64_t>(args.integer("seed", 0, std::numeric_limits<std::int64_t>::max()));
    }
    int active_warps = 0;
    if (args.has("active_warps")) {
        active_warps = static_cast<int>(args.integer("active_warps", 1, launch.threads_per_block()));
    }
    launch.work = std::make_shared<SyntheticWork>(std::move(durations), active_warps,
                                                 args.where("active_warps") + ": key '" +
                                                     args.key_path("active_warps") + "'");
}

}  // namespace

KernelGeneratorInfo synthetic_generator() {
    KernelGeneratorInfo info;
    info.name = "synthetic";
    info.description = "blocks of given durations: constant, a cycled pattern, or seeded uniform random";
    info.keys = {
        {"duration", "D | D/D/... | LO~HI",
         "block duration (required): constant, cycled by block index, or uniform random in [LO, HI]"},
        {"seed", "N", "seed of LO~HI durations, 0..2^63-1 (default 1)"},
        {"active_warps", "W", "warps of every block that do work, 1..warps per block (default all)"},
    };
    info.example = "synthetic:blocks=265,threads=1024,duration=50us";
    info.build = build_synthetic;
    return info;
}

}  // namespace gpusched::workloads

// MvaMemo against mva_throughput, AgeStepMemo against age_order_step: the same bits on repeats, collisions and evictions; the L1 queue share with and without it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "gpusched/sim/execution/issue_queue.h"
#include "gpusched/sim/execution/mva_memo.h"
#include "gpusched/sim/execution/shared_execution.h"

using gpusched::sim::mva_throughput;
using gpusched::sim::AgeStepMemo;
using gpusched::sim::MvaMemo;
using gpusched::sim::SharedExecution;

namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

struct Args {
    int warps;
    double think;
    double service;
};

}  // namespace

TEST_CASE("mva memo: a repeated call is recalled, and recalls are the computed bits") {
    MvaMemo memo;
    // think = 2, service = 1: X(3) = 0.789... (issue_queue.h's example).
    const double first = memo.throughput(3, 2.0, 1.0);
    CHECK(memo.hits() == 0);
    CHECK(same_bits(first, mva_throughput(3, 2.0, 1.0)));
    CHECK(first == doctest::Approx(0.7894736842));
    CHECK(same_bits(memo.throughput(3, 2.0, 1.0), first));
    CHECK(memo.hits() == 1);
    // Arguments that differ in one field only, or in one bit of a double, are other entries.
    CHECK(same_bits(memo.throughput(4, 2.0, 1.0), mva_throughput(4, 2.0, 1.0)));
    CHECK(same_bits(memo.throughput(3, 1.0, 2.0), mva_throughput(3, 1.0, 2.0)));
    const double nudged = std::nextafter(2.0, 3.0);
    CHECK(same_bits(memo.throughput(3, nudged, 1.0), mva_throughput(3, nudged, 1.0)));
    CHECK(memo.hits() == 1);
    CHECK(same_bits(memo.throughput(0, 2.0, 1.0), 0.0));  // no customers: no throughput
}

TEST_CASE("mva memo: many more distinct arguments than entries, each answered with its own value") {
    // 20,000 distinct argument triples (far more than the table's entries, so entries are overwritten
    // and some indices collide), asked in three rounds in a shuffled order: every answer is the direct
    // computation's bits, whether it was recalled or computed again.
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<int> warps(1, 64);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<Args> args;
    for (int i = 0; i < 20000; ++i) {
        const double u = unit(rng);
        args.push_back({warps(rng), 1 - u, u});
    }
    MvaMemo memo;
    int wrong = 0;
    for (int round = 0; round < 3; ++round) {
        std::shuffle(args.begin(), args.end(), rng);
        for (const Args& a : args)
            if (!same_bits(memo.throughput(a.warps, a.think, a.service), mva_throughput(a.warps, a.think, a.service)))
                ++wrong;
    }
    CHECK(wrong == 0);
    CHECK(memo.hits() > 0);         // some survive until asked again
    CHECK(memo.hits() < 2 * 20000); // and most were overwritten before that
}

TEST_CASE("mva memo: the L1 queue share with the memo is the share without it, repeats included") {
    // l1_queue_share's example: 2 customers of u = 0.38 each (load 0.76): psi = 0.874.
    MvaMemo memo;
    CHECK(SharedExecution::l1_queue_share(2, 0.76, memo) == doctest::Approx(0.8735).epsilon(1e-3));
    std::mt19937_64 rng(11);
    std::uniform_int_distribution<int> users(0, 64);
    std::uniform_real_distribution<double> load(0.0, 80.0);
    std::vector<std::pair<int, double>> mixes;  // few mixes, asked many times, as an SM returns to them
    for (int i = 0; i < 40; ++i) mixes.emplace_back(users(rng), load(rng));
    mixes.emplace_back(5, 0.0);   // no demand: psi = 1
    mixes.emplace_back(1, 3.0);   // one customer above the path's rate: psi = 1 / 3
    int wrong = 0;
    for (int i = 0; i < 4000; ++i) {
        const auto& [n, l] = mixes[static_cast<std::size_t>(i) % mixes.size()];
        if (!same_bits(SharedExecution::l1_queue_share(n, l, memo), SharedExecution::l1_queue_share(n, l))) ++wrong;
    }
    CHECK(wrong == 0);
    CHECK(memo.hits() > 3000);
    CHECK(SharedExecution::l1_queue_share(1, 3.0, memo) == doctest::Approx(1.0 / 3));
}

TEST_CASE("mva memo: a scheduler's age-order step, recalled, is the step computed, on repeats and collisions") {
    // IssueQueue's step for a block of k warps behind older blocks that use `used` of the server:
    // x = MVA(k, think, service / (1 - used)), each warp's rate x / k, and used + x service after it.
    // Example: k = 1, think = 2, service = 1, used = 1/3: x = 1 / 3.5, used after 1/3 + 1/3.5.
    AgeStepMemo memo;
    double used = 1.0 / 3;
    CHECK(memo.step(1, 2.0, 1.0, used) == doctest::Approx(1 / 3.5));
    CHECK(used == doctest::Approx(1.0 / 3 + 1 / 3.5));
    std::mt19937_64 rng(5);
    std::uniform_int_distribution<int> warps(1, 32);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    struct Step {
        int warps;
        double think, service, used;
    };
    std::vector<Step> steps;
    for (int i = 0; i < 6000; ++i) steps.push_back({warps(rng), 40 * unit(rng), 0.5 + unit(rng), 0.999 * unit(rng)});
    const std::uint64_t hits_before = memo.hits();
    int wrong = 0;
    for (int round = 0; round < 3; ++round) {
        std::shuffle(steps.begin(), steps.end(), rng);
        for (const Step& s : steps) {
            const double x = mva_throughput(s.warps, s.think, s.service / (1 - s.used));
            const double used_after = std::min(1.0, s.used + x * s.service);
            double u = s.used;
            const double per_warp = memo.step(s.warps, s.think, s.service, u);
            if (!same_bits(per_warp, x / s.warps) || !same_bits(u, used_after)) ++wrong;
        }
    }
    CHECK(wrong == 0);
    CHECK(memo.hits() > hits_before);  // some were recalled
    // One bit of `used` apart: another step, computed (not recalled), then recalled on a repeat.
    double a = 0.25, b = std::nextafter(0.25, 1.0), c = b;
    memo.step(2, 3.0, 1.0, a);
    const std::uint64_t hits = memo.hits();
    const double rb = memo.step(2, 3.0, 1.0, b);
    CHECK(memo.hits() == hits);
    CHECK(same_bits(rb, mva_throughput(2, 3.0, 1.0 / (1 - std::nextafter(0.25, 1.0))) / 2));
    CHECK(same_bits(memo.step(2, 3.0, 1.0, c), rb));
    CHECK(memo.hits() == hits + 1);
}

// IssueQueue: MVA throughput values worked by hand, sub-partition placement and oldest-first priority.
#include <doctest/doctest.h>

#include <stdexcept>

#include "gpusched/sim/execution/issue_queue.h"

using gpusched::sim::IssueQueue;
using gpusched::sim::mva_throughput;

TEST_CASE("MVA throughput of a closed queue, worked by hand") {
    // think Z = 2, service s = 1.
    // k=1: R = 1,                 X = 1/3,               Q = 1/3
    // k=2: R = 1 + 1/3 = 4/3,     X = 2 / (10/3) = 0.6,  Q = 0.8
    // k=3: R = 1.8,               X = 3 / 3.8 = 0.78947...
    CHECK(mva_throughput(1, 2, 1) == doctest::Approx(1.0 / 3));
    CHECK(mva_throughput(2, 2, 1) == doctest::Approx(0.6));
    CHECK(mva_throughput(3, 2, 1) == doctest::Approx(3 / 3.8));
    // Saturation: X approaches 1 / s from below and never passes it.
    CHECK(mva_throughput(64, 2, 1) <= 1.0);
    CHECK(mva_throughput(64, 2, 1) > 0.999);
    // No think time: the server is always busy.
    CHECK(mva_throughput(1, 0, 0.5) == doctest::Approx(2.0));
    CHECK(mva_throughput(5, 0, 0.5) == doctest::Approx(2.0));
    CHECK(mva_throughput(0, 2, 1) == 0.0);
}

TEST_CASE("one block alone: each sub-partition holds a quarter of its warps") {
    // 4 sub-partitions, a 16-warp block: 4 warps per scheduler, Z = 2, s = 1.
    // k=4: R = 1 + Q(3); Q(3) = X(3) R(3) = (3/3.8) x 1.8 = 1.42105...; R = 2.42105...,
    // X = 4 / 4.42105... = 0.904762...; per warp 0.226190...
    IssueQueue q(4, 64, 32, 1.0);
    q.add(0, 16, 2.0);
    q.update();
    CHECK(q.rate(0) == doctest::Approx(mva_throughput(4, 2, 1) / 4));
    CHECK(q.rate(0) == doctest::Approx(0.904762 / 4).epsilon(1e-5));
}

TEST_CASE("small blocks land on different sub-partitions; older blocks are served first") {
    // Four 1-warp blocks take warp slots 0..3 = sub-partitions 0..3: each alone, X(1) = 1/3.
    // A fifth, 4-warp block takes slots 4..7 (one warp per sub-partition) and sees the server
    // left by the older one: s' = 1 / (1 - 1/3) = 1.5, X = MVA(1, 2, 1.5) = 1 / 3.5.
    IssueQueue q(4, 64, 32, 1.0);
    for (int b = 0; b < 4; ++b) q.add(b, 1, 2.0);
    q.add(4, 4, 2.0);
    q.update();
    for (int b = 0; b < 4; ++b) CHECK(q.rate(b) == doctest::Approx(1.0 / 3));
    CHECK(q.rate(4) == doctest::Approx(1.0 / 3.5));

    // When block 0 leaves, sub-partition 0 serves the 4-warp block's warp alone (1/3), but
    // the block still waits on sub-partitions 1..3: its rate stays 1/3.5.
    q.remove(0);
    q.update();
    CHECK(q.rate(0) == 0.0);
    CHECK(q.rate(4) == doctest::Approx(1.0 / 3.5));

    // A new 1-warp block reuses warp slot 0 and is the youngest there: s' = 1 / (1 - 1/3).
    q.add(0, 1, 2.0);
    q.update();
    CHECK(q.rate(0) == doctest::Approx(1.0 / 3.5));
    CHECK(q.rate(4) == doctest::Approx(1.0 / 3.5));
}

TEST_CASE("without think time the oldest block takes the whole scheduler") {
    IssueQueue q(2, 8, 4, 1.0);
    q.add(1, 2, 0.0);  // slots 0, 1: one warp per sub-partition, X = 1
    q.add(0, 2, 0.0);  // slots 2, 3: nothing left
    q.update();
    CHECK(q.rate(1) == doctest::Approx(1.0));
    CHECK(q.rate(0) == 0.0);
    q.remove(1);
    q.update();
    CHECK(q.rate(0) == doctest::Approx(1.0));
}

TEST_CASE("more warps than warp slots are still counted") {
    IssueQueue q(2, 2, 4, 1.0);
    q.add(0, 4, 1.0);  // slots 0, 1 then 2 warps with no slot, counted on parts 0 and 1
    q.update();
    CHECK(q.rate(0) == doctest::Approx(mva_throughput(2, 1, 1) / 2));
    CHECK_THROWS_AS(q.remove(3), std::logic_error);
    CHECK_THROWS_AS(IssueQueue(0, 8, 4, 1.0), std::logic_error);
}

TEST_CASE("up to fair_warps warps on a scheduler share it without regard to age") {
    // fair_warps = 3, Z = 2, s = 1. Two 4-warp blocks: 2 warps per scheduler <= 3, one queue:
    // X(2) = 0.6, each warp 0.3 (R = 2 / 0.6 - 2 = 4/3, 1 / (2 + 4/3) = 0.3), older or not.
    IssueQueue q(4, 64, 32, 1.0, 3);
    q.add(0, 4, 2.0);
    q.add(1, 4, 2.0);
    q.update();
    CHECK(q.rate(0) == doctest::Approx(0.3));
    CHECK(q.rate(1) == doctest::Approx(0.3));
    // A third: 3 warps per scheduler, X(3) = 3 / 3.8, each warp 1 / 3.8.
    q.add(2, 4, 2.0);
    q.update();
    for (int b = 0; b < 3; ++b) CHECK(q.rate(b) == doctest::Approx(1 / 3.8));
    // A fourth: 4 warps > 3, older first again: the oldest 1/3, the next s' = 1.5: 1 / 3.5.
    q.add(3, 4, 2.0);
    q.update();
    CHECK(q.rate(0) == doctest::Approx(1.0 / 3));
    CHECK(q.rate(1) == doctest::Approx(1.0 / 3.5));
    CHECK(q.rate(3) < q.rate(2));
    // Without the limit (0) two blocks are served oldest first: 1/3 and 1/3.5.
    IssueQueue aged(4, 64, 32, 1.0);
    aged.add(0, 4, 2.0);
    aged.add(1, 4, 2.0);
    aged.update();
    CHECK(aged.rate(0) == doctest::Approx(1.0 / 3));
    CHECK(aged.rate(1) == doctest::Approx(1.0 / 3.5));
    CHECK_THROWS_AS(IssueQueue(4, 64, 32, 1.0, -1), std::logic_error);
}

TEST_CASE("fair share with unequal think times: one response time, each warp its own think") {
    // Two 4-warp blocks, Z = 2 and 4, s = 1, fair_warps = 2: the mean Z = 3; MVA(2, 3, 1):
    // k=1 R = 1, X = 1/4, Q = 1/4; k=2 R = 1.25, X = 2 / 4.25. R = 2 / X - 3 = 1.25, so the
    // warps issue 1 / (2 + 1.25) = 0.307692... and 1 / (4 + 1.25) = 0.190476... per unit.
    IssueQueue q(4, 64, 32, 1.0, 2);
    q.add(0, 4, 2.0);
    q.add(1, 4, 4.0);
    q.update();
    CHECK(q.rate(0) == doctest::Approx(1 / 3.25));
    CHECK(q.rate(1) == doctest::Approx(1 / 5.25));
}

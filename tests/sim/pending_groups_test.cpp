// PendingGroups against a brute-force list: every distinct (start, length) offered with its least member.
#include <doctest/doctest.h>

#include <limits>
#include <map>
#include <random>
#include <set>
#include <utility>

#include "gpusched/sim/execution/pending_groups.h"

using gpusched::Time;
using gpusched::sim::PendingGroups;

namespace {

using Key = std::pair<Time, double>;  // (start, length)

/// What PendingGroups must offer with no limit: per distinct key, its bound and least member.
std::map<Key, std::uint32_t> expected(const std::map<std::uint32_t, Key>& members) {
    std::map<Key, std::uint32_t> least;
    for (const auto& [id, key] : members) {
        const auto it = least.find(key);
        if (it == least.end() || id < it->second) least[key] = id;
    }
    return least;
}

/// Every (bound, id) offered, duplicates dropped.
std::set<std::pair<double, std::uint32_t>> offered(PendingGroups& groups, double limit) {
    std::set<std::pair<double, std::uint32_t>> seen;
    groups.for_each_below([&] { return limit; }, [&](double bound, std::uint32_t id) { seen.insert({bound, id}); });
    return seen;
}

}  // namespace

TEST_CASE("pending groups: each distinct (start, length) is offered once with its least member") {
    PendingGroups groups(8);
    CHECK(groups.empty());
    // Three blocks of one dispatch (start 100, length 50) and one with its own length.
    groups.join(5, 150, 100, 50);
    groups.join(2, 150, 100, 50);
    groups.join(7, 150, 100, 50);
    groups.join(3, 130, 100, 30);
    CHECK(offered(groups, 1e300) == std::set<std::pair<double, std::uint32_t>>{{130, 3}, {150, 2}});
    // Below 140 only the group of bound 130 needs a visit; the least bound is offered whatever the limit.
    CHECK(offered(groups, 140) == std::set<std::pair<double, std::uint32_t>>{{130, 3}});
    CHECK(offered(groups, 0) == std::set<std::pair<double, std::uint32_t>>{{130, 3}});
    // The least member leaves: the next least is found again.
    groups.leave(2);
    CHECK(offered(groups, 1e300) == std::set<std::pair<double, std::uint32_t>>{{130, 3}, {150, 5}});
    // Block 3, alone in its group, is rekeyed in place; then it joins the group of 5 and 7.
    groups.rejoin(3, 120, 100, 20);
    CHECK(offered(groups, 1e300) == std::set<std::pair<double, std::uint32_t>>{{120, 3}, {150, 5}});
    groups.rejoin(3, 150, 100, 50);
    CHECK(offered(groups, 1e300) == std::set<std::pair<double, std::uint32_t>>{{150, 3}});
    groups.rejoin(3, 130, 100, 30);
    groups.leave(3);
    groups.leave(3);  // absent: nothing
    CHECK(offered(groups, 1e300) == std::set<std::pair<double, std::uint32_t>>{{150, 5}});
    groups.leave(5);
    groups.leave(7);
    CHECK(groups.empty());
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS(groups.join(1, nan, 100, nan));
    groups.join(1, 150, 100, 50);
    CHECK_THROWS(groups.join(1, 150, 100, 50));  // joined twice
}

TEST_CASE("pending groups: random joins and leaves match a brute-force list (hash collisions and deletions included)") {
    // 64 ids over few distinct starts and lengths, so groups merge, split and reuse table slots often.
    const std::uint32_t ids = 64;
    PendingGroups groups(ids);
    std::map<std::uint32_t, Key> members;
    std::mt19937 rng(7);
    for (int step = 0; step < 20000; ++step) {
        const auto id = static_cast<std::uint32_t>(rng() % ids);
        const Key key{static_cast<Time>(rng() % 5) * 1000, 10.0 + static_cast<double>(rng() % 7) * 0.5};
        const double bound = static_cast<double>(key.first) + key.second;
        if (members.count(id) == 0) {
            groups.join(id, bound, key.first, key.second);
            members[id] = key;
        } else if (rng() % 2 == 0) {  // its rate changed: a new (start, length), alone or not
            groups.rejoin(id, bound, key.first, key.second);
            members[id] = key;
        } else {
            groups.leave(id);
            members.erase(id);
        }
        if (step % 7 != 0) continue;
        std::set<std::pair<double, std::uint32_t>> want;
        for (const auto& [key, least] : expected(members)) want.insert({static_cast<double>(key.first) + key.second, least});
        REQUIRE(offered(groups, 1e300) == want);
        CHECK(groups.empty() == members.empty());
    }
}

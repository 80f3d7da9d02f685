// Shards: parsing I/N, Slurm's variables, and that the shards of a sweep cover it once.
#include <doctest/doctest.h>

#include <map>
#include <vector>

#include "gpusched/support/input_error.h"
#include "gpusched/sweep/shard.h"

using namespace gpusched;

namespace {
std::map<std::string, std::string> fake_env;
const char* fake_getenv(const char* name) {
    const auto it = fake_env.find(name);
    return it == fake_env.end() ? nullptr : it->second.c_str();
}
}  // namespace

TEST_CASE("--shard I/N parses and rejects what is not a slice") {
    CHECK(sweep::parse_shard("2/5", "--shard") == sweep::Shard{2, 5});
    CHECK(sweep::parse_shard("0/1", "--shard").whole());
    for (const char* bad : {"3/2", "0/0", "2/2", "-1/4", "1", "a/b", "1/4/2", "1/2000000", ""})
        CHECK_THROWS_WITH_AS(sweep::parse_shard(bad, "--shard"), doctest::Contains("--shard:"), InputError);
    CHECK_THROWS_WITH_AS(sweep::parse_shard("3/2", "--shard"), doctest::Contains("0 <= I < N"), InputError);
}

TEST_CASE("the shards of a sweep cover every point exactly once") {
    for (std::uint64_t total : {0ULL, 1ULL, 7ULL, 100ULL, 101ULL}) {
        for (std::uint64_t count : {1ULL, 2ULL, 3ULL, 8ULL, 150ULL}) {
            std::vector<int> hits(total, 0);
            for (std::uint64_t i = 0; i < count; ++i) {
                const sweep::Shard shard{i, count};
                std::uint64_t previous = 0;
                for (std::uint64_t k = 0; k < shard.size(total); ++k) {
                    const std::uint64_t p = shard.point(k);
                    REQUIRE(p < total);
                    CHECK(shard.contains(p));
                    if (k > 0) CHECK(p > previous);
                    previous = p;
                    ++hits[p];
                }
            }
            for (int h : hits) CHECK(h == 1);
        }
    }
}

TEST_CASE("Slurm array variables select the shard unless --shard is given") {
    fake_env.clear();
    CHECK(sweep::select_shard(std::nullopt, fake_getenv).whole());
    fake_env = {{"SLURM_ARRAY_TASK_ID", "2"}, {"SLURM_ARRAY_TASK_COUNT", "4"}};
    CHECK(sweep::select_shard(std::nullopt, fake_getenv) == sweep::Shard{2, 4});
    CHECK(sweep::select_shard(std::string("1/3"), fake_getenv) == sweep::Shard{1, 3});
    fake_env["SLURM_ARRAY_TASK_MIN"] = "1";  // --array=1-4
    CHECK(sweep::select_shard(std::nullopt, fake_getenv) == sweep::Shard{1, 4});
    fake_env["SLURM_ARRAY_TASK_ID"] = "7";
    CHECK_THROWS_WITH_AS(sweep::select_shard(std::nullopt, fake_getenv), doctest::Contains("SLURM_ARRAY_TASK_ID"),
                         InputError);
    fake_env.clear();
}

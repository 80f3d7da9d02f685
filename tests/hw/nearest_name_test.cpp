// Edit distance and the nearest-name suggestion the command line prints for a misspelt flag or command.
#include <doctest/doctest.h>

#include "gpusched/support/nearest_name.h"

using namespace gpusched;

TEST_CASE("edit distance counts insertions, deletions and substitutions") {
    CHECK(edit_distance("", "") == 0);
    CHECK(edit_distance("", "abc") == 3);         // three insertions
    CHECK(edit_distance("gridd", "grid") == 1);   // one deletion
    CHECK(edit_distance("--gpu", "--gpus") == 1); // one insertion
    CHECK(edit_distance("kitten", "sitting") == 3);  // k->s, e->i, +g
    CHECK(edit_distance("simulat", "simulate") == 1);
    CHECK(edit_distance("abc", "abc") == 0);
    CHECK(edit_distance("abc", "cba") == 2);      // a->c and c->a; b stays
}

TEST_CASE("the nearest name is suggested only when it is a likely misspelling") {
    const std::vector<std::string> flags = {"--gpu", "--grid", "--policy", "--trace", "--trace-limit", "--timeline"};
    CHECK(nearest_name("--gridd", flags) == std::optional<std::string>("--grid"));     // 1 edit
    CHECK(nearest_name("--polcy", flags) == std::optional<std::string>("--policy"));   // 1 edit
    CHECK(nearest_name("--timelne", flags) == std::optional<std::string>("--timeline"));
    CHECK(nearest_name("--trace-limt", flags) == std::optional<std::string>("--trace-limit"));
    // "--gp" is 1 edit from --gpu and 3 from --grid: the nearest wins.
    CHECK(nearest_name("--gp", flags) == std::optional<std::string>("--gpu"));
    // 8 characters allow 2 edits; "--frobnicate" is more than 3 (a quarter of 12) from every flag.
    CHECK_FALSE(nearest_name("--frobnicate", flags).has_value());
    CHECK_FALSE(nearest_name("--xyz", flags).has_value());
    // A name of 2 characters is never "near" by 2 edits: every 2-character name would be.
    CHECK_FALSE(nearest_name("ab", {"xy"}).has_value());
    CHECK_FALSE(nearest_name("--gridd", {}).has_value());
}

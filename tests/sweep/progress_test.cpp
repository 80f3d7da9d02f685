// Progress: the bar's text and its redraws on a terminal.
#include <doctest/doctest.h>

#include <sstream>

#include "gpusched/sweep/progress.h"
#include "support/text_checks.h"

using namespace gpusched;

TEST_CASE("the bar shows count, percentage, rate and ETA") {
    CHECK(sweep::Progress::bar(500, 1000, 5.0) ==
          "[###############...............] 500/1000  50%  100.0 points/s  ETA 0:05");
    CHECK(sweep::Progress::bar(0, 10, 0.0).ends_with("0.0 points/s  ETA ?"));
    CHECK(sweep::Progress::bar(1, 100000, 1.0).ends_with("ETA 27:46:39"));
}

TEST_CASE("on a terminal: the bar is redrawn in place, at most every 0.1 s") {
    std::ostringstream out;
    sweep::Progress p(out, 10);
    p.update(1, 0.0);
    p.update(2, 0.05);
    p.update(3, 0.2);
    p.finish(10, 1.0);
    CHECK(test::count_occurrences(out.str(), "\r[") == 3);
    CHECK(out.str().ends_with(" in 1.0 s\n"));
}

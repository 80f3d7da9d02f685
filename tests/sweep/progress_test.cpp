// Progress: the bar's text, plain lines at each tenth off a terminal, and redraws on one.
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

TEST_CASE("off a terminal: a plain line per tenth and a final line") {
    std::ostringstream out;
    sweep::Progress p(out, false, 100);
    for (std::uint64_t done = 1; done <= 100; ++done) p.update(done, static_cast<double>(done));
    p.finish(100, 100.0);
    CHECK(test::count_occurrences(out.str(), "gpusched sweep: [") == 9);
    CHECK(out.str().ends_with("gpusched sweep: 100 points in 100.0 s\n"));
    CHECK(out.str().find('\r') == std::string::npos);
}

TEST_CASE("on a terminal: the bar is redrawn in place, at most every 0.1 s") {
    std::ostringstream out;
    sweep::Progress p(out, true, 10);
    p.update(1, 0.0);
    p.update(2, 0.05);
    p.update(3, 0.2);
    p.finish(10, 1.0);
    CHECK(test::count_occurrences(out.str(), "\r[") == 3);
    CHECK(out.str().ends_with(" in 1.0 s\n"));
}

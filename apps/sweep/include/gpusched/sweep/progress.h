// Progress: a sweep's bar with rate and ETA, redrawn in place (only ever given a terminal).
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>

namespace gpusched::sweep {

class Progress {
public:
    /// `out` is a terminal: the bar is redrawn in place ("\r"), at most every 0.1 s.
    Progress(std::ostream& out, std::uint64_t total);
    /// `done` points finished after `elapsed_s` seconds; draws when due.
    void update(std::uint64_t done, double elapsed_s);
    /// The final line.
    void finish(std::uint64_t done, double elapsed_s);

    /// "[#####.....] 500/1000  50%  123.4 points/s  ETA 0:04" (width-independent).
    static std::string bar(std::uint64_t done, std::uint64_t total, double elapsed_s);

private:
    std::ostream& out_;
    std::uint64_t total_;
    double last_draw_ = -1;
};

}  // namespace gpusched::sweep

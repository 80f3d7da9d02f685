// Progress: a bar with rate and ETA on a terminal, occasional plain lines otherwise.
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>

namespace gpusched::sweep {

class Progress {
public:
    /// `terminal`: redraw one line in place ("\r"); else a line at each tenth of the work.
    Progress(std::ostream& out, bool terminal, std::uint64_t total);
    /// `done` points finished after `elapsed_s` seconds; draws when due.
    void update(std::uint64_t done, double elapsed_s);
    /// The final line.
    void finish(std::uint64_t done, double elapsed_s);

    /// "[#####.....] 500/1000  50%  123.4 points/s  ETA 0:04" (width-independent).
    static std::string bar(std::uint64_t done, std::uint64_t total, double elapsed_s);

private:
    std::ostream& out_;
    bool terminal_;
    std::uint64_t total_;
    double last_draw_ = -1;
    std::uint64_t next_tenth_ = 1;
};

}  // namespace gpusched::sweep

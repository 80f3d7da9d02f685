// Progress bar of sweeps (terminal only).
#include "gpusched/sweep/progress.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace gpusched::sweep {

namespace {

std::string clock_text(double seconds) {
    const auto s = static_cast<long long>(std::llround(std::max(0.0, seconds)));
    char buf[32];
    if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
    else
        std::snprintf(buf, sizeof buf, "%lld:%02lld", s / 60, s % 60);
    return buf;
}

}  // namespace

Progress::Progress(std::ostream& out, std::uint64_t total) : out_(out), total_(total) {}

std::string Progress::bar(std::uint64_t done, std::uint64_t total, double elapsed_s) {
    constexpr int kWidth = 30;
    const double fraction = total == 0 ? 1.0 : static_cast<double>(done) / static_cast<double>(total);
    const int filled = static_cast<int>(fraction * kWidth);
    const double rate = elapsed_s > 0 ? static_cast<double>(done) / elapsed_s : 0;
    char buf[160];
    std::snprintf(buf, sizeof buf, "[%s%s] %llu/%llu %3d%%  %.1f points/s  ETA %s", std::string(filled, '#').c_str(),
                  std::string(kWidth - filled, '.').c_str(), static_cast<unsigned long long>(done),
                  static_cast<unsigned long long>(total), static_cast<int>(fraction * 100), rate,
                  rate > 0 ? clock_text(static_cast<double>(total - done) / rate).c_str() : "?");
    return buf;
}

void Progress::update(std::uint64_t done, double elapsed_s) {
    if (elapsed_s - last_draw_ < 0.1) return;
    last_draw_ = elapsed_s;
    out_ << "\r" << bar(done, total_, elapsed_s) << std::flush;
}

void Progress::finish(std::uint64_t done, double elapsed_s) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " in %.1f s", elapsed_s);
    out_ << "\r" << bar(done, total_, elapsed_s) << buf << "\n" << std::flush;
}

}  // namespace gpusched::sweep

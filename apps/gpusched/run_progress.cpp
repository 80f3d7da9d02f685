// Progress bars of a simulation and of a long command's steps, a run's up-front size and Ctrl-C stop (terminal only for what is drawn).
#include "run_progress.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <utility>

namespace gpusched::cli {

namespace {

volatile std::sig_atomic_t g_interrupt = 0;

extern "C" void on_interrupt_signal(int) { g_interrupt = 1; }

/// 1234 as "1234", large counts as "3.9e+15".
std::string count_text(std::uint64_t n) {
    if (n < 10000000) return std::to_string(n);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", static_cast<double>(n));
    return buf;
}

std::string duration_text(double seconds) {
    char buf[48];
    if (seconds < 3600) {
        const auto s = static_cast<long long>(seconds + 0.5);
        std::snprintf(buf, sizeof buf, "%lld:%02lld", s / 60, s % 60);
    } else if (seconds < 86400 * 2) {
        const auto s = static_cast<long long>(seconds + 0.5);
        std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
    } else if (seconds < 86400 * 365.0 * 2) {
        std::snprintf(buf, sizeof buf, "%.0f days", seconds / 86400);
    } else {
        std::snprintf(buf, sizeof buf, "%.3g years", seconds / (86400 * 365.25));
    }
    return buf;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

InterruptGuard::InterruptGuard() {
    g_interrupt = 0;
    previous_int_ = std::signal(SIGINT, on_interrupt_signal);
    previous_term_ = std::signal(SIGTERM, on_interrupt_signal);
}

InterruptGuard::~InterruptGuard() {
    std::signal(SIGINT, previous_int_ == SIG_ERR ? SIG_DFL : previous_int_);
    std::signal(SIGTERM, previous_term_ == SIG_ERR ? SIG_DFL : previous_term_);
}

bool InterruptGuard::requested() { return g_interrupt != 0; }

RunProgress::RunProgress(std::ostream& out, bool terminal)
    : out_(out), terminal_(terminal), started_(std::chrono::steady_clock::now()) {}

RunProgress::~RunProgress() { erase(); }

void RunProgress::on_begin(const sim::RunInfo& info) {
    started_ = std::chrono::steady_clock::now();
    app_ = info.app;
    total_launches_ = info.app->launches.size();
    for (const auto& launch : info.app->launches) total_blocks_ += launch.blocks();
}

void RunProgress::on_block_completed(const sim::BlockRecord& block) {
    now_ = block.end;
    if (++done_blocks_ >= next_check_) check();
}

void RunProgress::on_launch_repeated(const sim::RepeatedLaunch& repeated) {
    done_blocks_ += repeated.units;
}

void RunProgress::on_kernel_completed(std::size_t launch, Time first_start, Time end) {
    (void)launch, (void)first_start;
    now_ = end;
    ++done_launches_;
    if (done_blocks_ >= next_check_) check();
}

void RunProgress::on_end(Time makespan) {
    now_ = makespan;
    erase();
}

void RunProgress::check() {
    next_check_ = done_blocks_ + kCheckEvery;
    if (InterruptGuard::requested()) {
        erase();
        throw Interrupted(where());
    }
    if (!terminal_) return;
    const double elapsed = seconds_since(started_);
    if (elapsed < 1 || elapsed - last_draw_s_ < 0.25) return;
    last_draw_s_ = elapsed;
    out_ << "\r" << bar(done_blocks_, total_blocks_, elapsed) << "\033[K" << std::flush;
    drawn_ = true;
}

void RunProgress::erase() {
    if (!drawn_) return;
    out_ << "\r\033[K" << std::flush;
    drawn_ = false;
}

std::string RunProgress::where() const {
    const double percent = total_blocks_ == 0 ? 100.0 : 100.0 * static_cast<double>(done_blocks_) /
                                                             static_cast<double>(total_blocks_);
    char buf[256];
    std::snprintf(buf, sizeof buf, "interrupted after %s of %s blocks (%.2f%%), %zu of %zu launches complete, at "
                  "simulated time %.3f us",
                  count_text(done_blocks_).c_str(), count_text(total_blocks_).c_str(), percent, done_launches_,
                  total_launches_, static_cast<double>(now_) / 1e6);
    return buf;
}

std::string RunProgress::bar(std::uint64_t done, std::uint64_t total, double elapsed_s) {
    constexpr int kWidth = 24;
    const double fraction = total == 0 ? 1.0 : std::min(1.0, static_cast<double>(done) / static_cast<double>(total));
    const int filled = static_cast<int>(fraction * kWidth);
    const double rate = elapsed_s > 0 ? static_cast<double>(done) / elapsed_s : 0;
    char buf[200];
    std::snprintf(buf, sizeof buf, "[%s%s] %s / %s blocks  %.2f%%  %.1f M blocks/s  ETA %s",
                  std::string(static_cast<std::size_t>(filled), '#').c_str(),
                  std::string(static_cast<std::size_t>(kWidth - filled), '.').c_str(), count_text(done).c_str(),
                  count_text(total).c_str(), 100 * fraction, rate / 1e6,
                  rate > 0 ? duration_text(static_cast<double>(total - std::min(done, total)) / rate).c_str() : "?");
    return buf;
}

StepProgress::StepProgress(std::ostream& out, bool terminal, std::string command)
    : out_(out), terminal_(terminal), command_(std::move(command)), started_(std::chrono::steady_clock::now()) {}

StepProgress::~StepProgress() { finish(); }

void StepProgress::update(const std::string& step) {
    if (!terminal_) return;
    const double elapsed = seconds_since(started_);
    if (drawn_ && elapsed - last_draw_s_ < 0.25) return;
    last_draw_s_ = elapsed;
    out_ << "\r" << line(command_, step, elapsed) << "\033[K" << std::flush;
    drawn_ = true;
}

void StepProgress::finish() {
    if (!drawn_) return;
    out_ << "\r\033[K" << std::flush;
    drawn_ = false;
}

std::string StepProgress::line(const std::string& command, const std::string& step, double elapsed_s) {
    return "gpusched " + command + ": " + step + "  " + duration_text(elapsed_s);
}

void announce_size(std::ostream& out, bool terminal, const workloads::Application& app, std::uint64_t threshold) {
    if (!terminal) return;
    std::uint64_t blocks = 0;
    for (const auto& launch : app.launches) blocks += launch.blocks();
    if (blocks <= threshold) return;
    out << "gpusched: " << count_text(blocks) << " blocks in " << app.launches.size()
        << (app.launches.size() == 1 ? " launch" : " launches") << " to simulate; progress and an ETA at this machine's measured speed follow, Ctrl-C stops cleanly\n"
        << std::flush;
}

}  // namespace gpusched::cli

// Progress on a terminal (one simulation's blocks, or a long command's steps), a run's up-front size, and a clean stop on Ctrl-C.
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>
#include <stdexcept>
#include <string>

#include "gpusched/sim/observer.h"

namespace gpusched::cli {

/// Thrown out of a run stopped by Ctrl-C (SIGINT) or SIGTERM; main prints it and exits 130.
class Interrupted : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Catches SIGINT and SIGTERM while alive (the previous handlers come back afterwards), so a long
/// run stops between two blocks instead of dying with its outputs' temporary files left behind.
class InterruptGuard {
public:
    InterruptGuard();
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;
    ~InterruptGuard();
    /// Whether a signal arrived since the guard was made.
    [[nodiscard]] static bool requested();

private:
    void (*previous_int_)(int);
    void (*previous_term_)(int);
};

/// An observer counting finished blocks (repeated launches count whole). It never asks for every
/// block, so memoisation stays on.
///
/// States: counting -> (every kCheckEvery blocks) check the clock and the interrupt flag ->
/// draw the bar when `terminal` and at least 1 s has passed (then at most every 0.25 s), or throw
/// Interrupted when a signal came. The bar ("[####......] 1.2e9 / 3.9e15 blocks  0.03%
/// 48.1 M blocks/s  ETA 2.6 years") is erased when the run ends.
class RunProgress final : public sim::SimObserver {
public:
    RunProgress(std::ostream& out, bool terminal);
    ~RunProgress() override;

    [[nodiscard]] bool needs_every_block() const override { return false; }
    void on_begin(const sim::RunInfo& info) override;
    void on_block_completed(const sim::BlockRecord& block) override;
    void on_launch_repeated(const sim::RepeatedLaunch& repeated) override;
    void on_kernel_completed(std::size_t launch, Time first_start, Time end) override;
    void on_end(Time makespan) override;

    /// The bar's text for `done` of `total` blocks after `elapsed_s` seconds.
    static std::string bar(std::uint64_t done, std::uint64_t total, double elapsed_s);

private:
    void check();
    /// "interrupted after 1234 of 5678 blocks (21.70%), 3 of 10 launches complete, at simulated time 12.500 us".
    [[nodiscard]] std::string where() const;
    void erase();

    static constexpr std::uint64_t kCheckEvery = 4096;
    std::ostream& out_;
    bool terminal_;
    std::chrono::steady_clock::time_point started_;
    const workloads::Application* app_ = nullptr;
    std::uint64_t total_blocks_ = 0;
    std::size_t total_launches_ = 0;
    std::uint64_t done_blocks_ = 0;
    std::size_t done_launches_ = 0;
    std::uint64_t next_check_ = kCheckEvery;
    Time now_ = 0;
    double last_draw_s_ = -1;
    bool drawn_ = false;
};

/// The steps of a long command made of many simulations (validate's sections, calibrate's search)
/// on a terminal: "gpusched validate: section 3 of 12: placement  0:04", drawn at the first step,
/// then redrawn in place at most every 0.25 s, and erased when the command is done (or stops with an
/// error). Nothing off a terminal, so piped and redirected output stays as it was.
class StepProgress {
public:
    StepProgress(std::ostream& out, bool terminal, std::string command);
    StepProgress(const StepProgress&) = delete;
    StepProgress& operator=(const StepProgress&) = delete;
    ~StepProgress();

    /// The current step, e.g. "section 3 of 12: placement" or "simulation 42".
    void update(const std::string& step);
    /// Erases the line (before the command prints its result).
    void finish();

    /// The line drawn: "gpusched validate: section 3 of 12: placement  0:04".
    static std::string line(const std::string& command, const std::string& step, double elapsed_s);

private:
    std::ostream& out_;
    bool terminal_;
    std::string command_;
    std::chrono::steady_clock::time_point started_;
    double last_draw_s_ = -1;
    bool drawn_ = false;
};

/// Says, on a terminal, how big a run is before it starts when it has more than `threshold` blocks:
/// "gpusched: 3.9e15 blocks in 62500 launches to simulate; progress and an ETA follow, Ctrl-C stops
/// cleanly". Nothing off a terminal or for smaller runs.
void announce_size(std::ostream& out, bool terminal, const workloads::Application& app, std::uint64_t threshold);

}  // namespace gpusched::cli

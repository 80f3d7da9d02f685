// Sweep runner: worker threads take points by index; rows pass through a bounded reorder window
// and are written in point order as soon as every earlier row is done.
#include "gpusched/sweep/sweep_runner.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "gpusched/support/csv_records.h"
#include "gpusched/sweep/point_runner.h"
#include "gpusched/sweep/point_space.h"
#include "gpusched/sweep/progress.h"
#include "gpusched/sweep/results_file.h"
#include "gpusched/sweep/simulation.h"

namespace gpusched::sweep {

namespace {

/// Rows a worker may run ahead of the first unwritten one, per thread: bounds memory for any
/// number of points while letting a slow point overlap many quick ones.
constexpr std::uint64_t kWindowPerThread = 1024;

}  // namespace

SweepStopped::SweepStopped(std::uint64_t written_rows, std::uint64_t total_rows)
    : std::runtime_error("sweep stopped after " + std::to_string(written_rows) + " of " + std::to_string(total_rows) +
                         " points"),
      written(written_rows),
      total(total_rows) {}

SweepStats run_sweep(const Study& study, const SweepOptions& options, std::ostream& out) {
    const std::uint64_t n = options.shard.size(study.total_points);
    const unsigned threads = static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(options.threads, n)));
    const std::uint64_t window = kWindowPerThread * threads;
    std::vector<std::string> ring(static_cast<std::size_t>(std::min(window, std::max<std::uint64_t>(n, 1))));
    std::vector<char> ready(ring.size(), 0), failed(ring.size(), 0);
    std::mutex mutex;
    std::condition_variable can_take, can_write;
    std::uint64_t next = 0, written = 0;
    std::exception_ptr crash;

    const auto work = [&] {
        try {
            PointRunner runner(study, options.stop_requested);
            while (true) {
                std::uint64_t k = 0;
                {
                    std::unique_lock lock(mutex);
                    can_take.wait(lock, [&] { return next >= n || crash || next < written + ring.size(); });
                    if (next >= n || crash) return;
                    k = next++;
                }
                const std::uint64_t p = options.shard.point(k);
                const std::vector<std::string> values = runner.effective_values(point_values(study, p));
                const std::vector<std::string> metrics = runner.run(values);
                std::vector<std::string> cells{std::to_string(p)};
                cells.insert(cells.end(), values.begin(), values.end());
                cells.insert(cells.end(), metrics.begin(), metrics.end());
                std::string row = csv_row(cells);
                {
                    std::lock_guard lock(mutex);
                    const std::size_t slot = static_cast<std::size_t>(k % ring.size());
                    ring[slot] = std::move(row);
                    failed[slot] = metrics.back().empty() ? 0 : 1;
                    ready[slot] = 1;
                }
                can_write.notify_one();
            }
        } catch (...) {
            std::lock_guard lock(mutex);
            if (!crash) crash = std::current_exception();
            can_write.notify_all();
            can_take.notify_all();
        }
    };

    const auto start = std::chrono::steady_clock::now();
    const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    std::optional<Progress> progress;
    if (options.progress) progress.emplace(*options.progress, n);
    out << results_header(study, options.shard);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(work);

    SweepStats stats;
    std::string batch;
    while (true) {
        {
            std::unique_lock lock(mutex);
            can_write.wait_for(lock, std::chrono::milliseconds(100),
                               [&] { return crash || written == n || ready[written % ring.size()]; });
            if (crash) break;
            while (written < n && ready[written % ring.size()]) {
                const std::size_t slot = static_cast<std::size_t>(written % ring.size());
                batch += ring[slot];
                std::string().swap(ring[slot]);
                stats.errors += failed[slot] ? 1 : 0;
                ready[slot] = 0;
                ++written;
            }
        }
        can_take.notify_all();
        if (!batch.empty()) out << batch << std::flush;  // finished rows reach the file while a slow point runs
        batch.clear();
        if (progress) progress->update(written, elapsed());
        if (written == n) break;
        if (options.stop_requested && options.stop_requested()) {
            std::lock_guard lock(mutex);
            if (!crash) crash = std::make_exception_ptr(SweepStopped(written, n));
            can_take.notify_all();
            break;
        }
    }
    for (auto& t : pool) t.join();
    if (crash) {
        try {
            std::rethrow_exception(crash);
        } catch (const RunStopped&) {
            throw SweepStopped(written, n);
        }
    }
    if (progress) progress->finish(n, elapsed());
    stats.points = n;
    return stats;
}

}  // namespace gpusched::sweep

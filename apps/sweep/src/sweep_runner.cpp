// Sweep runner: worker threads take points by index; rows are collected by index and written in order.
#include "gpusched/sweep/sweep_runner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "gpusched/sweep/csv.h"
#include "gpusched/sweep/point_runner.h"
#include "gpusched/sweep/point_space.h"
#include "gpusched/sweep/progress.h"
#include "gpusched/sweep/results_file.h"

namespace gpusched::sweep {

SweepStats run_sweep(const Study& study, const SweepOptions& options, std::ostream& out) {
    const std::uint64_t n = options.shard.size(study.total_points);
    std::vector<std::string> rows(static_cast<std::size_t>(n));
    std::vector<char> failed(static_cast<std::size_t>(n), 0);
    std::atomic<std::uint64_t> next{0};
    std::atomic<std::uint64_t> done{0};
    std::mutex mutex;
    std::condition_variable finished;
    std::exception_ptr crash;

    const auto work = [&] {
        try {
            PointRunner runner(study);
            for (std::uint64_t k = next++; k < n; k = next++) {
                const std::uint64_t p = options.shard.point(k);
                const std::vector<std::string> values = effective_values(study, point_values(study, p));
                const std::vector<std::string> metrics = runner.run(values);
                failed[k] = metrics.back().empty() ? 0 : 1;
                std::vector<std::string> cells{std::to_string(p)};
                cells.insert(cells.end(), values.begin(), values.end());
                cells.insert(cells.end(), metrics.begin(), metrics.end());
                rows[k] = csv_row(cells);
                if (++done == n) {
                    std::lock_guard lock(mutex);
                    finished.notify_all();
                }
            }
        } catch (...) {
            std::lock_guard lock(mutex);
            if (!crash) crash = std::current_exception();
            next = n;
            finished.notify_all();
        }
    };

    const auto start = std::chrono::steady_clock::now();
    const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    const unsigned threads = static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(options.threads, n)));
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(work);
    std::optional<Progress> progress;
    if (options.progress) progress.emplace(*options.progress, options.progress_terminal, n);
    {
        std::unique_lock lock(mutex);
        while (done < n && !crash) {
            finished.wait_for(lock, std::chrono::milliseconds(100));
            if (progress) progress->update(done, elapsed());
        }
    }
    for (auto& t : pool) t.join();
    if (crash) std::rethrow_exception(crash);
    if (progress) progress->finish(n, elapsed());

    out << results_header(study, options.shard);
    SweepStats stats;
    for (std::size_t k = 0; k < rows.size(); ++k) {
        out << rows[k];
        stats.errors += failed[k] ? 1 : 0;
    }
    stats.points = n;
    return stats;
}

}  // namespace gpusched::sweep

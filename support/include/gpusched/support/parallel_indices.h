// Runs a function for every index of a range on a few worker threads; results go by index, so the outcome never depends on the order.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace gpusched {

/// The worker threads for `n` independent jobs: the machine's hardware threads, at least 1, at most `n`.
inline unsigned worker_threads(std::size_t n) {
    const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    return static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(hardware, n)));
}

/// Calls `job(i)` once for every i in [0, n), on up to worker_threads(n) threads (the caller's thread
/// alone when that is 1). Each job must write only to its own slot of whatever it fills. If jobs throw,
/// the exception of the lowest index is rethrown after every job has ended: the same error whatever the
/// threads' timing.
template <class Job>
void for_each_index(std::size_t n, Job&& job) {
    std::vector<std::exception_ptr> errors(n);
    std::atomic<std::size_t> next{0};
    const auto work = [&] {
        for (std::size_t i = next++; i < n; i = next++) {
            try {
                job(i);
            } catch (...) {
                errors[i] = std::current_exception();
            }
        }
    };
    const unsigned threads = worker_threads(n);
    if (threads <= 1) {
        work();
    } else {
        std::vector<std::thread> pool;
        for (unsigned t = 0; t < threads; ++t) pool.emplace_back(work);
        for (auto& thread : pool) thread.join();
    }
    for (const auto& error : errors)
        if (error) std::rethrow_exception(error);
}

}  // namespace gpusched

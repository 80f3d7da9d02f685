// Auto-tuning by simulated search: one kernel-spec key over candidate values, and the block-size guideline.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/sim/execution/execution_model.h"

namespace gpusched::calibrate {

/// The one-line spec with `key=value` replacing the key's value, or appended when absent
/// (KernelSpec::parse, then with). InputError for a spec that does not parse.
std::string with_spec_key(const std::string& spec, const std::string& key, const std::string& value);

/// Largest `total_threads`: the most blocks a spec may have (2^40) times the most threads a block
/// may have (1024), so that no candidate's block count can exceed a spec's range or wrap.
inline constexpr std::uint64_t kMaxTotalThreads = std::uint64_t{1} << 50;

struct TuneRequest {
    std::string spec;                   ///< the kernel spec (calibration already applied); parsed once by tune
    std::string spec_where = "kernel";  ///< names the spec in messages (KernelSpec::parse's `where`)
    std::string key;                    ///< e.g. "threads", "rake", "streams", "carveout"
    std::vector<std::string> values;    ///< candidates, in the order given
    std::string policy;
    std::string execution{sim::kDefaultExecutionModel};
    /// Block-size searches of kernels without a problem size (synthetic, binomial-series): keep
    /// the total threads fixed by setting blocks = ceil(total_threads / threads).
    std::optional<std::uint64_t> total_threads;
};

/// One simulated candidate; `error` set (and no time) when it cannot run (e.g. too many threads).
struct TuneCandidate {
    std::string value;
    std::string spec;
    std::optional<double> makespan_us;
    std::string error;
    int blocks_per_sm = 0;       ///< of the first launch
    int warps_per_sm = 0;        ///< of the first launch
    double occupancy = 0;        ///< of the first launch
};

struct TuneResult {
    std::vector<TuneCandidate> candidates;
    std::optional<std::size_t> best;  ///< shortest makespan; ties: the earlier candidate
};

/// Simulates every candidate (the `gpusched simulate` code path, summary only). Deterministic.
/// InputError at once when request.spec does not parse; a candidate that cannot run gets its `error`.
TuneResult tune(const hw::GpuSpec& gpu, const TuneRequest& request);

/// The characterisation paper's (seed 002) block-size guideline: the smallest block size that
/// maximises occupancy. Among the runnable candidates (values read as numbers), the smallest
/// whose occupancy equals the largest; nullopt when no candidate ran or values are not numbers.
std::optional<std::size_t> smallest_max_occupancy(const TuneResult& result);

}  // namespace gpusched::calibrate

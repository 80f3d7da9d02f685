// TimelineCsvWriter: streams one CSV row per completed block (the --timeline output).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "gpusched/sim/observer.h"

namespace gpusched::sim {

/// Writes, on on_begin, `#` metadata lines and the header, then one row per block as it
/// completes (completion order), with times in nanoseconds to three decimals:
///
///     # gpusched timeline
///     # gpu=h100 (NVIDIA H100 SXM5 80GB)
///     # sm_count=132
///     # policy=round-robin
///     # execution=fixed
///     # tool_version=0.1.0
///     # workload=synthetic:blocks=3,threads=128,duration=1us
///     # launch.0=synthetic blocks=3 threads=128 stream=0
///     kernel,launch,block,sm,dispatch_ns,start_ns,end_ns
///     synthetic,0,0,0,0.000,0.000,1000.000
///
/// The format is workloads/timeline_csv.h's (write_timeline_head, write_timeline_row): every
/// record is one line: line breaks in names and metadata values become spaces. A kernel name
/// with a comma, a quote or leading/trailing blanks is quoted as in RFC 4180.
/// Keeps no per-block state. The stream is flushed on on_end; the caller owns it and checks
/// it for write errors. load_replay_timeline (--replay) reads the file back.
class TimelineCsvWriter : public SimObserver {
public:
    TimelineCsvWriter(std::ostream& out, std::string tool_version);

    void on_begin(const RunInfo& info) override;
    void on_block_completed(const BlockRecord& block) override;
    void on_end(Time makespan) override;

    /// Rows written so far.
    [[nodiscard]] std::uint64_t rows() const { return rows_; }

private:
    std::ostream& out_;
    std::string tool_version_;
    const workloads::Application* app_ = nullptr;
    std::uint64_t rows_ = 0;
};

}  // namespace gpusched::sim

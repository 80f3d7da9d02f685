// Turns the injection library's spool files into one Chrome trace JSON in the PyTorch Kineto layout.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace gpusched::record {

/// The recorded program and how it ended (the trace's "gpuschedRecorder" object).
struct RecordedRun {
    std::string program;
    std::vector<std::string> args;
    int exit_code = 0;  ///< the program's exit status; 128 + signal when a signal ended it
    int signal = 0;     ///< the signal that ended it, 0 if it exited
};

/// What went into the trace.
struct TraceCounts {
    std::uint64_t kernels = 0;
    std::uint64_t copies = 0;
    std::uint64_t memsets = 0;
    std::uint64_t api_calls = 0;  ///< runtime and driver calls
    std::uint64_t syncs = 0;
    std::uint64_t events = 0;
    std::uint64_t devices = 0;
    std::uint64_t dropped = 0;    ///< records CUPTI reported dropped
    std::uint64_t incomplete = 0; ///< records without start or end (still running when a killed program was flushed)
    std::uint64_t bad_lines = 0;  ///< spool lines that could not be read (a cut last line of a killed process)
    std::vector<std::string> notes;
};

/// Reads every spool file (in the order given) and writes the trace to `out`:
///   {"schemaVersion": 1, "deviceProperties": [...], "traceEvents": [...], "displayTimeUnit": "ms",
///    "baseTimeNanoseconds": B, "gpuschedRecorder": {"version": 1, "program": ..., "exit_code": ...}}
/// Every event has ph "X", ts and dur in microseconds (three decimals) relative to B, the
/// earliest start of any record, and is listed in order of ts. Categories: kernel, gpu_memcpy,
/// gpu_memset, cuda_runtime, cuda_driver, cuda_sync, cuda_event (docs/own-kernels.md lists
/// their args). Records without a start or with an end before it (unfinished when a forced flush
/// delivered them) are left out and counted. A spool file that cannot be opened is a note, not an error.
TraceCounts write_trace(const std::vector<std::string>& spool_files, const RecordedRun& run, std::ostream& out);

/// "Memcpy HtoD (Pinned -> Device)": the Kineto name of a copy from CUPTI's copy and memory kinds.
std::string memcpy_name(int copy_kind, int src_kind, int dst_kind);

/// "Memset (Device)".
std::string memset_name(int memory_kind);

/// A CUPTI callback name without its version suffix: "cudaLaunchKernel_v7000" -> "cudaLaunchKernel".
std::string api_name(const std::string& cupti_name);

}  // namespace gpusched::record

// MeasuredTimeline: a timeline CSV from the CUDA runner (metadata, and per block: launch, SM, start, end).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gpusched/support/time.h"

namespace gpusched::validation {

struct MeasuredBlock {
    std::uint64_t launch = 0;
    std::uint64_t block = 0;
    int sm = 0;
    Time start = 0;
    Time end = 0;
};

struct MeasuredTimeline {
    std::string path;
    std::map<std::string, std::string> metadata;  ///< "# key=value" lines
    std::vector<MeasuredBlock> blocks;

    /// A metadata value; InputError naming the file and key when absent.
    [[nodiscard]] const std::string& meta(const std::string& key) const;
};

/// Reads a timeline CSV with workloads::TimelineCsvReader (columns block, sm, start_ns, end_ns,
/// optional launch, an integer; others ignored; a file cut mid-row refused) and checks its rows
/// against its metadata. InputError with file:line for anything malformed.
MeasuredTimeline read_measured_timeline(const std::string& path);

}  // namespace gpusched::validation

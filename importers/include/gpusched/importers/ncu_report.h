// Nsight Compute CSV reports (ncu --csv --page raw --metrics ...): one row per profiled kernel, values in base units.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/importers/imported_trace.h"

namespace gpusched::importers {

/// The metrics `gpusched import ncu` reads (docs/importing.md gives the ncu command).
constexpr const char* kNcuInstructions = "smsp__inst_executed.sum";
constexpr const char* kNcuDramBytes = "dram__bytes.sum";
constexpr const char* kNcuL2Bytes = "lts__t_bytes.sum";
constexpr const char* kNcuOccupancy = "sm__warps_active.avg.pct_of_peak_sustained_active";
constexpr const char* kNcuCycles = "sm__cycles_elapsed.avg";
constexpr const char* kNcuDuration = "gpu__time_duration.sum";

/// One kernel row of the report.
struct NcuRow {
    std::uint64_t line = 0;  ///< 1-based line in the CSV
    std::string id;          ///< the ID column ("" without one)
    std::string kernel_name;
    std::optional<std::array<std::uint32_t, 3>> grid, block;  ///< "(x, y, z)" cells, when the columns exist
    std::uint64_t instructions = 0;  ///< warp-instructions executed
    std::uint64_t dram_bytes = 0;
    std::uint64_t l2_bytes = 0;      ///< lts__t_bytes: all L2 traffic, DRAM's included
    std::optional<double> occupancy_pct;
    std::optional<std::uint64_t> cycles;
    std::optional<TraceTime> duration;
};

/// Reads the CSV (plain or gzip, at most 256 MiB of text): "==PROF==" lines before the
/// header are skipped; the header is the first row with a "Kernel Name" column; a second row
/// whose ID (or Kernel Name) cell is empty gives each column's unit (byte, Kbyte, Mbyte, Gbyte,
/// Tbyte or B, KB, MB, GB, TB; inst, Kinst, Minst, Ginst; cycle, Kcycle, Mcycle, Gcycle;
/// nsecond, usecond, msecond, second or ns, us, ms, s; %), without it values are in base units. Numbers may have thousands separators ("1,234,567") and are converted
/// exactly, rounded to whole units. The three metrics kNcuInstructions, kNcuDramBytes and
/// kNcuL2Bytes are required. Every problem is InputError "PATH:LINE: ...".
std::vector<NcuRow> read_ncu_csv(const std::string& path);

}  // namespace gpusched::importers

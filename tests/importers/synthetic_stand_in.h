// The imported YAML with each `kernel: kernel` item made a synthetic kernel of its measured duration, for tests run before the kernel generator exists.
#pragma once

#include <sstream>
#include <string>

namespace gpusched::test {

/// `kernel: kernel` -> `kernel: synthetic`, `measured: D` -> `duration: D`; measured_gpu and
/// the ncu totals dropped (one block per kernel lasting the whole measured time: only the
/// structure of the workload is being checked).
inline std::string synthetic_stand_in(const std::string& yaml) {
    std::istringstream in(yaml);
    std::string out, line;
    while (std::getline(in, line)) {
        if (line == "  - kernel: kernel") line = "  - kernel: synthetic";
        if (line.rfind("    measured: ", 0) == 0) line = "    duration: " + line.substr(14);
        if (line.rfind("    measured_gpu:", 0) == 0 || line.rfind("    instructions:", 0) == 0 || line.rfind("    dram_bytes:", 0) == 0 ||
            line.rfind("    l2_bytes:", 0) == 0)
            continue;
        out += line + "\n";
    }
    return out;
}

}  // namespace gpusched::test

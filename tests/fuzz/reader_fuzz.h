// Shared bodies of the YAML and CSV reader fuzz targets: any bytes parse (and round-trip) or throw InputError naming the source.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpusched::fuzz {

/// One reader under fuzzing: `run` feeds it the bytes and checks what must hold of the result.
/// It returns whether they parsed (false: refused with an InputError whose message starts with
/// the source name, or skipped); anything else (another exception, a broken round trip) escapes
/// or aborts, which libFuzzer and the replay test report.
struct ReaderTarget {
    const char* name;  ///< directory under tests/fuzz/corpus and tests/fuzz/regressions
    bool (*run)(std::string_view bytes);
};

/// GPU spec YAML (parse_gpu_spec): a parsed spec survives to_yaml and back unchanged.
bool fuzz_gpu_spec(std::string_view bytes);
/// Workload YAML (parse_workload): streams, copies, events and launches built from kernel keys.
/// Inputs asking for much valid work (a size key of 5 digits or more, sssp or spmv) are skipped.
bool fuzz_workload(std::string_view bytes);
/// Study YAML (parse_study), relative files resolved in an empty folder.
bool fuzz_study(std::string_view bytes);
/// Calibration YAML (parse_calibration): a parsed calibration is written and read back to the same values.
bool fuzz_calibration(std::string_view bytes);
/// Replay timeline CSV (load_replay_timeline), through a temporary file as the command line reads it.
bool fuzz_replay_timeline(std::string_view bytes);

/// Kineto / CUPTI trace (read_kineto_trace, then build_application, imported_workload and write_workload), through a
/// temporary file as the command line reads it, gzip included: a trace that is read and imported
/// gives a workload file the workload reader accepts.
bool fuzz_kineto_trace(std::string_view bytes);

/// The six targets above, in that order.
const std::vector<ReaderTarget>& reader_targets();

}  // namespace gpusched::fuzz

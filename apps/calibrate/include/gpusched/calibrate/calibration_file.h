// Calibration files: fitted kernel-spec keys (and the interval model's f) that other commands merge in as defaults.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/workloads/kernel_spec_value.h"

namespace gpusched::calibrate {

/// The interval paper's calibrated closed form: T = f x T' (T' a prediction with its launch
/// overhead T_launch), or, with launch_us, T = launches x launch_us + f x (T' without T_launch).
struct IntervalFactor {
    double f = 1;
    std::optional<double> launch_us;  ///< per-launch time fitted beside f; unset: the paper's f alone
};

/// One calibration (docs/calibration.md for the YAML schema).
struct Calibration {
    std::string kernel;                               ///< generator name, e.g. "binomial-series"
    std::vector<std::pair<std::string, double>> keys; ///< the generator's own keys, in file order
    std::vector<std::string> key_where;               ///< "FILE:LINE" of each of `keys` (read from a file), for messages
    std::optional<IntervalFactor> interval;           ///< `interval:` section (apsp kernels)
    std::vector<std::string> notes;                   ///< written as `# ` comment lines (how it was fitted)
};

/// Parses a calibration YAML. InputError "SOURCE:LINE: key 'PATH': ..." for a missing or unknown
/// key, an unknown kernel, a key the kernel's generator does not have, or a value out of range
/// (keys 0..10^12, the generator's own range when applied; f in [10^-9, 10^6]; launch_us in
/// [0, 10^6]).
Calibration parse_calibration(const std::string& yaml, const std::string& source);

/// Reads and parses the file at `path` (at most 1 MiB).
Calibration load_calibration(const std::string& path);

/// load_calibration of each path, for commands that take several: KeyError about key
/// "calibration" for an empty path or a second calibration of one kernel (which would
/// silently give way to the first).
std::vector<Calibration> load_calibrations(const std::vector<std::string>& paths);

/// Writes the YAML that parse_calibration reads back to the same values (17 significant digits).
void write_calibration(std::ostream& out, const Calibration& calibration);

/// Adds the calibration's keys (in file order) that the spec does not give, when the spec's
/// generator is the calibration's kernel; leaves any other spec as it is. Each added key keeps
/// its FILE:LINE, so that a value the generator refuses is reported there.
void apply_calibration(workloads::KernelSpec& spec, const Calibration& calibration);

/// As above on one-line text: the edited spec's text, or `spec` unchanged when it is of another
/// kernel, gets no key, or does not parse (its own parse reports that, where the text is used).
/// An added key whose value the generator refuses is an InputError "FILE:LINE: key 'KEY': ..."
/// at its line of the calibration file (the spec is built once to find out).
std::string apply_calibration(const std::string& spec, const Calibration& calibration);

/// A number as the spec and YAML texts hold it: the shortest text that reads back exactly.
std::string exact_number(double value);

}  // namespace gpusched::calibrate

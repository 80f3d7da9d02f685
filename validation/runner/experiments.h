// Registry of gpusched-runner experiments (subcommands): name, one-line summary, entry point.
#pragma once

#include <vector>

namespace runner {

// An experiment receives argv with argv[0] set to its own name and returns the process exit code.
using ExperimentMain = int (*)(int argc, char** argv);

struct Experiment {
  const char* name;
  const char* summary;  // one line, shown by `gpusched-runner --help`
  ExperimentMain main;
};

// Every experiment, in the order `gpusched-runner --help` lists them (experiments.cu).
// To add one: write <name>_experiment.cu (+ its own kernels/helpers; CMake takes every .cu of
// this directory) defining `int runner::<name>_main(int, char**)`, and register it with one
// line in experiments.cu.
const std::vector<Experiment>& experiments();

}  // namespace runner

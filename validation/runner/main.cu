// gpusched-runner entry point: dispatches to the experiments of the registry (experiments.h).
#include <cstdio>
#include <cstring>
#include <string>

#include "experiments.h"
#include "green_context.h"
#include "runner_common.h"

namespace {

void print_help(std::FILE* out) {
  std::fprintf(out,
               "Usage: %s <subcommand> [options]\n"
               "       %s --green-sms K <subcommand> [options]\n"
               "       %s --help | --version\n"
               "\n"
               "Runs validation experiments on a real CUDA GPU and writes CSV files whose\n"
               "'# key=value' header lines describe the device and build.\n"
               "\n"
               "Subcommands:\n",
               runner::kToolName, runner::kToolName, runner::kToolName);
  for (const auto& e : runner::experiments()) std::fprintf(out, "  %-12s %s\n", e.name, e.summary);
  std::fprintf(out,
               "\n--green-sms K runs the subcommand inside a green context (SM partition) of K SMs\n"
               "(the driver rounds K to its granularity, 8 on the H100); the CSV metadata gives\n"
               "green_sms, the SMs granted.\n"
               "\nRun '%s <subcommand> --help' for the options of a subcommand.\n"
               "Exit status: 0 success, 1 CUDA or I/O failure, 2 usage error.\n",
               runner::kToolName);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::strcmp(argv[1], "--green-sms") == 0) {
    int sms = 0;
    if (!runner::parse_int(argv[2], &sms) || sms < 1 || sms > 100000)
      runner::usage_error(nullptr, "--green-sms: expected an SM count 1..100000");
    runner::set_requested_green_sms(sms);
    argc -= 2;
    argv += 2;
  }
  if (argc < 2) {
    print_help(stderr);
    return runner::kExitUsage;
  }
  const std::string first = argv[1];
  if (first == "--help" || first == "-h" || first == "help") {
    print_help(stdout);
    return runner::kExitOk;
  }
  if (first == "--version") {
    std::printf("%s %s\n", runner::kToolName, runner::kToolVersion);
    return runner::kExitOk;
  }
  if (!first.empty() && first[0] == '-') runner::usage_error(nullptr, "unknown option '" + first + "'");
  for (const auto& e : runner::experiments()) {
    if (first == e.name) return e.main(argc - 1, argv + 1);
  }
  runner::usage_error(nullptr, "unknown subcommand '" + first + "'");
}

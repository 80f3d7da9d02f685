// Bodies of the reader fuzz targets (GPU spec, workload, study, calibration, replay timeline, Kineto trace), shared with their replay test.
#include "reader_fuzz.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "gpusched/calibrate/calibration_file.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/importers/imported_application.h"
#include "gpusched/importers/imported_workload.h"
#include "gpusched/importers/kernel_totals.h"
#include "gpusched/importers/kineto_reader.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/key_error.h"
#include "gpusched/sweep/study.h"
#include "gpusched/workloads/replay_timeline.h"
#include "gpusched/workloads/generator_registry.h"
#include "gpusched/workloads/workload_file.h"
#include "gpusched/workloads/workload_writer.h"
#include "importers/synthetic_stand_in.h"

namespace gpusched::fuzz {

namespace {

/// Aborts with `what` on standard error: a property of a parsed input broke (libFuzzer saves the input).
[[noreturn]] void broken(const std::string& what) {
    std::fprintf(stderr, "fuzz property broken: %s\n", what.c_str());
    std::abort();
}

/// An InputError must name where the input came from first ("SOURCE: ..." or "SOURCE:LINE: ...").
void check_names_source(const InputError& e, const std::string& source) {
    const std::string message = e.what();
    if (message.rfind(source + ":", 0) != 0) broken("message does not start with '" + source + ":': " + message);
}

/// Runs `parse` on the text, accepting a refusal that names `source`; whether it parsed.
template <typename Parse>
bool parse_or_refuse(const std::string& source, Parse parse) {
    try {
        parse();
        return true;
    } catch (const InputError& e) {
        check_names_source(e, source);
        return false;
    }
}

/// The most digits following `key` (a whole word) and a ':' or '=' (blanks allowed between); 0 if it is not there so.
std::size_t digits_after_key(std::string_view text, std::string_view key) {
    std::size_t longest = 0;
    for (std::size_t at = text.find(key); at != std::string_view::npos; at = text.find(key, at + 1)) {
        if (at > 0 && (std::isalnum(static_cast<unsigned char>(text[at - 1])) != 0 || text[at - 1] == '_')) continue;
        std::size_t i = at + key.size();
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
        if (i >= text.size() || (text[i] != ':' && text[i] != '=')) continue;
        ++i;
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '"' || text[i] == '\'')) ++i;
        std::size_t digits = 0;
        while (i + digits < text.size() && text[i + digits] >= '0' && text[i + digits] <= '9') ++digits;
        longest = std::max(longest, digits);
    }
    return longest;
}

/// Valid workloads whose size keys ask for much work (10^5 launches, a large generated graph or
/// matrix) only cost time and memory: the fuzzer skips them so that it explores parsing instead.
/// Graph and matrix files have fuzz targets of their own.
bool asks_for_heavy_work(std::string_view text) {
    for (const std::string_view key : {"repeat", "calls", "steps", "nodes", "rows", "n", "sources", "degree", "points"})
        if (digits_after_key(text, key) >= 5) return true;
    return text.find("sssp") != std::string_view::npos || text.find("spmv") != std::string_view::npos;
}

/// An empty folder of this process for the study's relative file names.
const std::string& empty_folder() {
    static const std::string folder = [] {
        const auto path = std::filesystem::temp_directory_path() / ("gpusched-fuzz-" + std::to_string(getpid()));
        std::filesystem::create_directories(path);
        return path.string();
    }();
    return folder;
}

}  // namespace

bool fuzz_gpu_spec(std::string_view bytes) {
    const std::string text(bytes), source = "fuzz_gpu.yaml";
    return parse_or_refuse(source, [&] {
        const hw::GpuSpec spec = hw::parse_gpu_spec(text, source);
        const std::string yaml = hw::to_yaml(spec);
        hw::GpuSpec again;
        try {
            again = hw::parse_gpu_spec(yaml, "to_yaml");
        } catch (const InputError& e) {
            broken(std::string("to_yaml of a parsed spec does not parse: ") + e.what() + "\n" + yaml);
        }
        if (!(again == spec)) broken("to_yaml of a parsed spec reads back different:\n" + yaml);
    });
}

bool fuzz_workload(std::string_view bytes) {
    if (asks_for_heavy_work(bytes)) return false;
    const std::string text(bytes), source = "fuzz_workload.yaml";
    return parse_or_refuse(source, [&] {
        const workloads::Application app = workloads::parse_workload(text, source);
        if (app.launches.empty()) broken("a workload parsed without launches");
        (void)app.issue_order();
        for (std::size_t i = 0; i < app.launches.size() && i < 64; ++i) {
            const workloads::KernelLaunch& launch = app.launches[i];
            if (launch.blocks() == 0 || launch.threads_per_block() <= 0) broken("a launch without blocks or threads");
            if (!launch.work) broken("a launch without work");
            const int warps = (launch.threads_per_block() + 31) / 32;
            for (const std::uint64_t block : {std::uint64_t{0}, launch.blocks() - 1}) {
                const int active = launch.work->active_warps(block, warps);
                if (active < 0 || active > warps) broken("active warps outside 0.." + std::to_string(warps));
                (void)launch.work->warp_work(block);
            }
            (void)launch.work->describe();
        }
    });
}

bool fuzz_study(std::string_view bytes) {
    const std::string text(bytes), source = "fuzz_study.yaml";
    return parse_or_refuse(source, [&] {
        const sweep::Study study = sweep::parse_study(text, source, empty_folder());
        if (study.total_points == 0 || study.total_points > sweep::kMaxStudyPoints)
            broken("a study parsed with " + std::to_string(study.total_points) + " points");
        if (study.params.size() < 4) broken("a study parsed without its four first parameters");
    });
}

bool fuzz_calibration(std::string_view bytes) {
    const std::string text(bytes), source = "fuzz_calibration.yaml";
    return parse_or_refuse(source, [&] {
        const calibrate::Calibration calibration = calibrate::parse_calibration(text, source);
        std::ostringstream written;
        calibrate::write_calibration(written, calibration);
        calibrate::Calibration again;
        try {
            again = calibrate::parse_calibration(written.str(), "written");
        } catch (const InputError& e) {
            broken(std::string("a written calibration does not parse: ") + e.what() + "\n" + written.str());
        }
        if (again.kernel != calibration.kernel || again.keys != calibration.keys ||
            again.interval.has_value() != calibration.interval.has_value() ||
            (again.interval && (again.interval->f != calibration.interval->f ||
                                again.interval->launch_us != calibration.interval->launch_us)))
            broken("a written calibration reads back different:\n" + written.str());
    });
}

bool fuzz_replay_timeline(std::string_view bytes) {
    static const std::string path = empty_folder() + "/timeline.csv";
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    return parse_or_refuse(path, [&] {
        const workloads::Application app = workloads::load_replay_timeline(path, 64, 32, 0, 1u << 16);
        if (app.launches.empty()) broken("a timeline parsed without launches");
        for (const auto& launch : app.launches)
            for (const std::uint64_t block : {std::uint64_t{0}, launch.blocks() - 1})
                (void)launch.work->duration(block);
    });
}

bool fuzz_kineto_trace(std::string_view bytes) {
    static const std::string path = empty_folder() + "/trace.json";
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    importers::ReadLimits limits;  // small caps: the fuzzer explores parsing, not size
    limits.stream.max_text_bytes = std::uint64_t{16} << 20;
    limits.stream.ratio_free_bytes = std::uint64_t{1} << 20;
    limits.trace.max_kept = 100000;
    std::string yaml;
    const bool imported = parse_or_refuse(path, [&] {
        const importers::ImportedTrace trace = importers::read_kineto_trace(path, limits);
        importers::ImportedApplication app;
        try {
            app = importers::build_application(trace, {});
        } catch (const KeyError& e) {  // GPU work on several devices: a choice for the user, named by the trace's path
            if (std::string(e.what()).find(path + ":") == std::string::npos) broken(std::string("a device refusal without the path: ") + e.what());
            throw InputError(e.detail());
        }
        const importers::ImportTotals totals =
            importers::estimate_kernel_totals(trace, app, importers::read_op_shapes(path, limits), hw::resolve_gpu("h100"));
        yaml = workloads::workload_yaml(importers::imported_workload(trace, app, {"torch", path, "h100", "fuzz", 132}, &totals));
    });
    if (!imported) return false;
    const bool have_kernel = workloads::find_kernel_generator("kernel") != nullptr;
    workloads::Application app;
    try {
        app = workloads::parse_workload(have_kernel ? yaml : test::synthetic_stand_in(yaml), "imported.yaml");
    } catch (const InputError& e) {
        broken(std::string("an imported trace gives a workload the reader refuses: ") + e.what() + "\n" + yaml.substr(0, 4000));
    }
    // The host timeline in the engine: an imported workload with host threads runs to its end or is refused
    // with an InputError (a sync that can never end); anything else (a crash, a logic error) is a bug. Kept to
    // a million blocks, so the fuzzer explores the host path rather than long runs.
    std::uint64_t blocks = 0;
    for (const auto& launch : app.launches) blocks += launch.blocks();
    if (!app.host.empty() && blocks <= 1'000'000) {
        try {
            const auto policy = scheduler::make_policy("most-room");
            const hw::GpuSpec gpu = hw::resolve_gpu("h100");  // the run keeps a reference
            sim::Simulation run(gpu, app, *policy, "fixed");
            run.run();
        } catch (const InputError&) {
        }
    }
    return true;
}

const std::vector<ReaderTarget>& reader_targets() {
    static const std::vector<ReaderTarget> targets = {
        {"gpu_spec", fuzz_gpu_spec},         {"workload", fuzz_workload},
        {"study", fuzz_study},               {"calibration", fuzz_calibration},
        {"replay_timeline", fuzz_replay_timeline}, {"kineto_trace", fuzz_kineto_trace},
    };
    return targets;
}

}  // namespace gpusched::fuzz

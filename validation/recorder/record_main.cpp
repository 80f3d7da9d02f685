// gpusched-record: runs a CUDA program with the CUPTI injection library and writes its activity as a Kineto-layout trace JSON.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#include "trace_assembler.h"

namespace {

namespace fs = std::filesystem;

constexpr const char* kVersion = "gpusched-record 1";
constexpr int kExitOk = 0, kExitFailure = 1, kExitUsage = 2;
constexpr const char* kInjectionLibrary = "libgpusched_record_inject.so";

constexpr const char* kUsage = "Usage: gpusched-record [--out DIR] [--keep-spool] [--] PROGRAM [ARGS...]\n"
                               "       gpusched-record --help | --version\n";

void print_help() {
    std::printf("%s\n"
                "Runs PROGRAM with CUPTI activity recording (CUDA_INJECTION64_PATH set to %s next to\n"
                "this binary) and writes DIR/trace.json: a Chrome trace in the PyTorch Kineto layout\n"
                "(deviceProperties; traceEvents of cat kernel with grid, block, registers per thread,\n"
                "static/dynamic shared memory, cluster, stream and stream priority; gpu_memcpy, gpu_memset,\n"
                "cuda_runtime, cuda_driver, cuda_sync and cuda_event) and \"gpuschedRecorder\": {version,\n"
                "program, args, exit_code}. `gpusched import cupti DIR/trace.json` reads it.\n"
                "\n"
                "Options:\n"
                "  --out DIR      output directory, created if missing (default: gpusched-record-out)\n"
                "  --keep-spool   keep DIR/spool/ (the injection library's raw record lines)\n"
                "  --             ends the options: everything after it is PROGRAM and its arguments\n"
                "\n"
                "Exit status: 0 the program exited 0 and the trace is written; 2 a usage error, a program\n"
                "that cannot be started, or a program that exited non-zero or was killed by a signal (the\n"
                "trace then holds what was recorded until it ended); 1 the trace cannot be written.\n",
                kUsage, kInjectionLibrary);
}

[[noreturn]] void usage_error(const std::string& message) {
    std::fprintf(stderr, "gpusched-record: %s\n%s", message.c_str(), kUsage);
    std::exit(kExitUsage);
}

[[noreturn]] void fail(int code, const std::string& message) {
    std::fprintf(stderr, "gpusched-record: %s\n", message.c_str());
    std::exit(code);
}

struct Options {
    std::string out = "gpusched-record-out";
    bool keep_spool = false;
    std::vector<std::string> command;  ///< PROGRAM and its arguments
};

Options parse(int argc, char** argv) {
    Options o;
    int i = 1;
    for (; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--") {
            ++i;
            break;
        }
        if (a == "--help" || a == "-h") {
            print_help();
            std::exit(kExitOk);
        }
        if (a == "--version") {
            std::printf("%s\n", kVersion);
            std::exit(kExitOk);
        }
        if (a == "--keep-spool") {
            o.keep_spool = true;
        } else if (a == "--out" || a.rfind("--out=", 0) == 0) {
            if (a == "--out" && i + 1 >= argc) usage_error("--out needs a directory");
            o.out = a == "--out" ? argv[++i] : a.substr(6);
            if (o.out.empty()) usage_error("--out needs a non-empty directory name");
        } else if (!a.empty() && a[0] == '-') {
            usage_error("unknown option '" + a + "' (put the program after --)");
        } else {
            break;  // the program
        }
    }
    for (; i < argc; ++i) o.command.emplace_back(argv[i]);
    if (o.command.empty()) usage_error("no program to run");
    if (o.command[0].empty()) usage_error("the program name is empty");
    return o;
}

/// The injection library next to this executable.
std::string injection_library() {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (ec) fail(kExitFailure, "cannot find its own executable (/proc/self/exe): " + ec.message());
    const fs::path lib = self.parent_path() / kInjectionLibrary;
    if (!fs::is_regular_file(lib, ec))
        fail(kExitFailure, "the injection library '" + lib.string() + "' is missing (it is built next to gpusched-record)");
    return lib.string();
}

/// Creates DIR/spool/ and removes spool files a previous run left there.
fs::path prepare_spool(const std::string& out) {
    std::error_code ec;
    const fs::path spool = fs::absolute(fs::path(out) / "spool", ec);
    fs::create_directories(spool, ec);
    if (ec || !fs::is_directory(spool)) fail(kExitUsage, "--out: cannot create directory '" + spool.string() + "'");
    for (const auto& e : fs::directory_iterator(spool, ec)) {
        const std::string name = e.path().filename().string();
        if (name.rfind("spool.", 0) == 0 && e.path().extension() == ".tsv") fs::remove(e.path(), ec);
    }
    return spool;
}

/// Runs the program with the injection environment; returns its wait status. A program that
/// cannot be started is a usage error (exit 2).
int run_program(const Options& o, const std::string& library, const fs::path& spool) {
    int pipe_fds[2];
    if (pipe2(pipe_fds, O_CLOEXEC) != 0) fail(kExitFailure, std::string("pipe2: ") + std::strerror(errno));
    struct sigaction ignore {}, old_int {}, old_quit {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGINT, &ignore, &old_int);  // Ctrl-C reaches the program; the trace is still written
    sigaction(SIGQUIT, &ignore, &old_quit);
    const pid_t child = fork();
    if (child < 0) fail(kExitFailure, std::string("fork: ") + std::strerror(errno));
    if (child == 0) {
        sigaction(SIGINT, &old_int, nullptr);
        sigaction(SIGQUIT, &old_quit, nullptr);
        setenv("CUDA_INJECTION64_PATH", library.c_str(), 1);
        setenv("GPUSCHED_RECORD_SPOOL_DIR", spool.c_str(), 1);
        std::vector<char*> args;
        for (const auto& a : o.command) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execvp(args[0], args.data());
        const int error = errno;
        if (write(pipe_fds[1], &error, sizeof(error)) < 0) _exit(127);
        _exit(127);
    }
    close(pipe_fds[1]);
    int exec_error = 0;
    ssize_t got;
    do got = read(pipe_fds[0], &exec_error, sizeof(exec_error));
    while (got < 0 && errno == EINTR);
    close(pipe_fds[0]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGQUIT, &old_quit, nullptr);
    if (got == static_cast<ssize_t>(sizeof(exec_error)))
        fail(kExitUsage, "cannot run '" + o.command[0] + "': " + std::strerror(exec_error));
    return status;
}

std::vector<std::string> spool_files(const fs::path& spool) {
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(spool, ec))
        if (e.path().extension() == ".tsv") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    const std::string library = injection_library();
    const fs::path spool = prepare_spool(o.out);
    if (std::getenv("CUDA_INJECTION64_PATH"))
        std::fprintf(stderr, "gpusched-record: replacing CUDA_INJECTION64_PATH=%s for the program\n",
                     std::getenv("CUDA_INJECTION64_PATH"));
    const int status = run_program(o, library, spool);

    gpusched::record::RecordedRun run;
    run.program = o.command[0];
    run.args.assign(o.command.begin() + 1, o.command.end());
    if (WIFSIGNALED(status)) {
        run.signal = WTERMSIG(status);
        run.exit_code = 128 + run.signal;
    } else {
        run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    }
    const std::string trace = (fs::path(o.out) / "trace.json").string();
    const std::string partial = trace + ".part";
    gpusched::record::TraceCounts counts;
    {
        std::ofstream out(partial, std::ios::out | std::ios::trunc);
        if (!out) fail(kExitFailure, "cannot write '" + partial + "'");
        counts = gpusched::record::write_trace(spool_files(spool), run, out);
        out.flush();
        if (!out) fail(kExitFailure, "writing '" + partial + "' failed");
    }
    std::error_code ec;
    fs::rename(partial, trace, ec);
    if (ec) fail(kExitFailure, "cannot rename '" + partial + "' to '" + trace + "': " + ec.message());
    if (!o.keep_spool) {
        for (const auto& f : spool_files(spool)) fs::remove(f, ec);
        fs::remove(spool, ec);  // only when empty
    }

    for (const auto& n : counts.notes) std::fprintf(stderr, "gpusched-record: note: %s\n", n.c_str());
    if (counts.incomplete > 0)
        std::fprintf(stderr, "gpusched-record: note: %llu records were unfinished when the program ended (left out)\n",
                     static_cast<unsigned long long>(counts.incomplete));
    if (counts.dropped > 0)
        std::fprintf(stderr, "gpusched-record: warning: CUPTI dropped %llu records (the trace misses them)\n",
                     static_cast<unsigned long long>(counts.dropped));
    std::fprintf(stderr,
                 "gpusched-record: %llu kernels, %llu copies, %llu memsets, %llu API calls, %llu syncs, %llu events "
                 "on %llu device(s) -> %s\n",
                 static_cast<unsigned long long>(counts.kernels), static_cast<unsigned long long>(counts.copies),
                 static_cast<unsigned long long>(counts.memsets), static_cast<unsigned long long>(counts.api_calls),
                 static_cast<unsigned long long>(counts.syncs), static_cast<unsigned long long>(counts.events),
                 static_cast<unsigned long long>(counts.devices), trace.c_str());
    if (run.signal != 0)
        fail(kExitUsage, "'" + run.program + "' was killed by signal " + std::to_string(run.signal) + " (" +
                             strsignal(run.signal) + "); " + trace + " holds what was recorded until then");
    if (run.exit_code != 0)
        fail(kExitUsage, "'" + run.program + "' exited with code " + std::to_string(run.exit_code) + "; " + trace +
                             " holds what was recorded until then");
    if (counts.kernels + counts.copies + counts.memsets + counts.api_calls == 0)
        std::fprintf(stderr, "gpusched-record: warning: no CUDA activity was recorded (the program used no CUDA, or "
                             "the driver did not load the injection library)\n");
    return kExitOk;
}

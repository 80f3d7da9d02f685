// peak_rss: runs a command and fails when it fails or its peak resident memory exceeds a limit.
//   peak_rss LIMIT_MB COMMAND [ARG...]     (the command's standard output is discarded)
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: peak_rss LIMIT_MB COMMAND [ARG...]\n");
        return 2;
    }
    const long limit_mb = std::strtol(argv[1], nullptr, 10);
    const pid_t child = fork();
    if (child < 0) {
        std::perror("peak_rss: fork");
        return 1;
    }
    if (child == 0) {
        const int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, STDOUT_FILENO);
        execv(argv[2], argv + 2);
        std::perror("peak_rss: exec");
        _exit(127);
    }
    int status = 0;
    rusage usage{};
    if (wait4(child, &status, 0, &usage) != child) {
        std::perror("peak_rss: wait4");
        return 1;
    }
    const long peak_mb = usage.ru_maxrss / 1024;  // ru_maxrss is in KiB on Linux
    std::printf("peak RSS %ld MiB (limit %ld MiB), exit status %d\n", peak_mb, limit_mb,
                WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 1;
    return peak_mb <= limit_mb ? 0 : 1;
}

// Pending outputs: a signal-safe table of temporary output files and the handler that removes them.
#include "pending_outputs.h"

#include <array>
#include <csignal>
#include <cstring>
#include <unistd.h>

namespace gpusched::cli {

namespace {

constexpr std::size_t kPendingSlots = 32;
constexpr std::size_t kPendingPathBytes = 4096;

struct PendingSlot {
    volatile std::sig_atomic_t held = 0;
    char path[kPendingPathBytes] = {};
};

std::array<PendingSlot, kPendingSlots> g_pending_slots;

void write_to_stderr(const char* text) {
    const std::size_t length = std::strlen(text);
    std::size_t done = 0;
    while (done < length) {
        const ssize_t n = ::write(STDERR_FILENO, text + done, length - done);
        if (n <= 0) return;
        done += static_cast<std::size_t>(n);
    }
}

/// Only async-signal-safe calls: unlink, write, signal, raise.
extern "C" void on_terminating_signal(int signal_number) {
    int removed = 0;
    for (PendingSlot& slot : g_pending_slots)
        if (slot.held != 0 && ::unlink(slot.path) == 0) ++removed;
    write_to_stderr(signal_number == SIGINT ? "gpusched: interrupted by SIGINT" : "gpusched: interrupted by SIGTERM");
    if (removed > 0) {
        char count[] = "; removed 0 unfinished output file(s)";
        count[10] = static_cast<char>('0' + (removed > 9 ? 9 : removed));
        write_to_stderr(count);
    }
    write_to_stderr("; no output file written\n");
    std::signal(signal_number, SIG_DFL);
    std::raise(signal_number);
}

}  // namespace

int add_pending_output(const std::string& temp_path) {
    if (temp_path.size() >= kPendingPathBytes) return -1;
    for (std::size_t i = 0; i < kPendingSlots; ++i) {
        PendingSlot& slot = g_pending_slots[i];
        if (slot.held != 0) continue;
        std::memcpy(slot.path, temp_path.c_str(), temp_path.size() + 1);
        slot.held = 1;
        return static_cast<int>(i);
    }
    return -1;
}

void drop_pending_output(int slot) {
    if (slot >= 0 && static_cast<std::size_t>(slot) < kPendingSlots) g_pending_slots[static_cast<std::size_t>(slot)].held = 0;
}

void install_interrupt_cleanup() {
    std::signal(SIGINT, on_terminating_signal);
    std::signal(SIGTERM, on_terminating_signal);
}

}  // namespace gpusched::cli

// Pending outputs: the temporary files of outputs not yet put in place, removed when a signal ends the process.
#pragma once

#include <string>

namespace gpusched::cli {

/// A fixed table of temporary output paths that an async-signal-safe handler can read.
///
/// States of a slot: free -> held (add_pending_output, the path copied in) -> free
/// (drop_pending_output, after the file was renamed or removed). The handler installed by
/// install_interrupt_cleanup() unlinks every held slot's file, says on stderr that the command was
/// interrupted, then ends the process by the same signal (exit status 130 for SIGINT, 143 for
/// SIGTERM). A command that polls for Ctrl-C itself (InterruptGuard) replaces the handler while it
/// runs and puts it back afterwards, so both ways leave no partial output.
///
///     gpusched: interrupted by SIGINT; removed 1 unfinished output file; no output file written
///
/// Returns a slot number, or -1 when the table is full (the path is then only removed by the
/// OutputFile's destructor, as before).
int add_pending_output(const std::string& temp_path);
void drop_pending_output(int slot);

/// Installs the SIGINT/SIGTERM handler described above (once, at the start of main).
void install_interrupt_cleanup();

}  // namespace gpusched::cli

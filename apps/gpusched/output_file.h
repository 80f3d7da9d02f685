// OutputFile: a file a command writes, checked against its inputs and put in place only when complete.
#pragma once

#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace gpusched::cli {

/// An output named by a flag (--out, --timeline, ...). Before anything is written the path is
/// checked: not empty, not one of the command's inputs or of the files read so far (files_read()),
/// not another output of the same run (the same file also through links or another spelling).
/// commit() checks files_read() again, so a file found inside an input while the run went on (a
/// kernel spec's matrix or graph) is never replaced either. The text goes to a temporary file
/// beside it, renamed over the path by commit(); a run that fails before commit() leaves the
/// path as it was (the temporary file is removed). A path that is a device or a pipe (/dev/null,
/// /dev/stdout) is written in place. Every problem is an InputError naming the flag.
///
///     OutputFile out(o.out, "--out", {o.study});   // "--out: 's.yaml' is also an input (the study file)..."
///     out.stream() << text;
///     out.commit();                                // "--out: cannot finish writing 'r.csv' (disk full?)"
class OutputFile {
public:
    /// `inputs`: paths the command reads (files that do not exist are ignored); `others`: outputs
    /// of the same run opened before this one.
    OutputFile(std::string path, std::string flag, const std::vector<std::string>& inputs,
               const std::vector<const OutputFile*>& others = {});
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;
    ~OutputFile();

    [[nodiscard]] std::ostream& stream() { return out_; }
    [[nodiscard]] const std::string& path() const { return path_; }
    /// Flushes, checks and renames the temporary file over the path.
    void commit();

private:
    std::string path_;
    std::string flag_;
    std::string temp_;
    std::ofstream out_;
    bool committed_ = false;
    int pending_slot_ = -1;  ///< its slot in the signal handler's table (pending_outputs.h)
};

/// Before any work: throws InputError "FLAG2: 'B' is also the file of FLAG1" when two of the
/// given outputs ({path, flag}, empty paths skipped) name one file, existing or not.
void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs);

/// Throws InputError "FLAG: 'PATH' is also an input (...)" when `path` names the same file as one
/// of `inputs` (compared after resolving links; missing files never match).
void check_not_an_input(const std::string& path, const std::string& flag, const std::vector<std::string>& inputs);

}  // namespace gpusched::cli

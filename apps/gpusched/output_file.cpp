// OutputFile: same-file checks against inputs and other outputs, a temporary file, rename on commit.
#include "output_file.h"
#include "pending_outputs.h"

#include <cstdio>
#include <filesystem>
#include <optional>
#include <system_error>
#include <unistd.h>

#include "gpusched/support/input_error.h"
#include "gpusched/support/text_file.h"

namespace gpusched::cli {

namespace {

/// Whether a and b name one existing file (links resolved, other spellings of the same path too).
bool same_file(const std::string& a, const std::string& b) {
    std::error_code ec;
    const bool same = std::filesystem::equivalent(a, b, ec);
    return !ec && same;
}

/// `path` made absolute with its links and dots resolved (it need not exist; a link to a file not
/// yet written resolves to that file); nullopt when it cannot be.
std::optional<std::filesystem::path> resolved(const std::string& path) {
    std::error_code ec;
    std::filesystem::path absolute = std::filesystem::absolute(path, ec);
    if (ec) return std::nullopt;
    for (int hops = 0; hops < 40 && std::filesystem::is_symlink(absolute, ec); ++hops) {
        const std::filesystem::path target = std::filesystem::read_symlink(absolute, ec);
        if (ec) return std::nullopt;
        absolute = target.is_absolute() ? target : absolute.parent_path() / target;
    }
    std::filesystem::path canonical = std::filesystem::weakly_canonical(absolute, ec);
    if (ec) return std::nullopt;
    return canonical;
}

/// Whether two output paths name one file, existing or not (links and spellings such as ./a
/// resolved). A path that cannot be resolved matches only itself.
bool same_target(const std::string& a, const std::string& b) {
    if (a == b || same_file(a, b)) return true;
    const auto resolved_a = resolved(a);
    const auto resolved_b = resolved(b);
    return resolved_a && resolved_b && *resolved_a == *resolved_b;
}

}  // namespace

void check_not_an_input(const std::string& path, const std::string& flag, const std::vector<std::string>& inputs) {
    for (const std::string& input : inputs)
        if (!input.empty() && same_file(path, input))
            throw InputError(flag + ": '" + path + "' is also an input ('" + input +
                             "'); writing it would destroy what the run reads: choose another file");
}

void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs) {
    for (std::size_t i = 0; i < outputs.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (!outputs[i].first.empty() && !outputs[j].first.empty() && same_target(outputs[j].first, outputs[i].first))
                throw InputError(outputs[i].second + ": '" + outputs[i].first + "' is also the file of " +
                                 outputs[j].second + ": give each output its own file");
}

OutputFile::OutputFile(std::string path, std::string flag, const std::vector<std::string>& inputs,
                       const std::vector<const OutputFile*>& others)
    : path_(std::move(path)), flag_(std::move(flag)) {
    if (path_.empty()) throw InputError(flag_ + ": expected a file name, got ''");
    std::error_code ec;
    if (std::filesystem::is_directory(path_, ec)) throw InputError(flag_ + ": '" + path_ + "' is a directory");
    check_not_an_input(path_, flag_, inputs);
    check_not_an_input(path_, flag_, files_read());
    for (const OutputFile* other : others) {
        if (same_target(other->path_, path_)) throw InputError(flag_ + ": '" + path_ + "' is also the file of " + other->flag_ + ": give each output its own file");
    }
    // A device or pipe (/dev/null, /dev/stdout, a FIFO) is written in place: never renamed over.
    const bool special = std::filesystem::exists(path_, ec) && !std::filesystem::is_regular_file(path_, ec);
    const std::filesystem::path target(path_);
    if (!special)
        temp_ = (target.parent_path() / ("." + target.filename().string() + ".tmp-" + std::to_string(::getpid()))).string();
    if (!temp_.empty()) pending_slot_ = add_pending_output(temp_);
    out_.open(special ? path_ : temp_, std::ios::binary | std::ios::trunc);
    if (!out_) {
        drop_pending_output(pending_slot_);
        throw InputError(flag_ + ": cannot write '" + path_ + "'");
    }
}

OutputFile::~OutputFile() {
    if (committed_) return;
    out_.close();
    if (!temp_.empty()) std::remove(temp_.c_str());
    drop_pending_output(pending_slot_);
}

void OutputFile::commit() {
    out_.flush();
    const bool written = static_cast<bool>(out_);
    out_.close();
    if (!written || out_.fail()) throw InputError(flag_ + ": cannot finish writing '" + path_ + "' (disk full?)");
    if (!temp_.empty()) {
        try {  // files read while the run went on (a spec's matrix or graph, a workload's) count too
            check_not_an_input(path_, flag_, files_read());
        } catch (const InputError&) {
            std::remove(temp_.c_str());
            drop_pending_output(pending_slot_);
            throw;
        }
    }
    committed_ = true;
    if (temp_.empty()) return;
    std::error_code ec;
    std::filesystem::rename(temp_, path_, ec);
    drop_pending_output(pending_slot_);
    if (ec) {
        std::remove(temp_.c_str());
        throw InputError(flag_ + ": cannot write '" + path_ + "': " + ec.message());
    }
}

}  // namespace gpusched::cli

// `gpusched lab --out DIR`: writes the browser lab (sliders over the WebAssembly engine) as a static page.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "commands.h"
#include "output_file.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/text_file.h"

#ifndef GPUSCHED_LAB_PAGE_DIR
#define GPUSCHED_LAB_PAGE_DIR ""
#endif

namespace gpusched::cli {

namespace {

/// The page's files, as the build assembles them (lab/CMakeLists.txt, target lab_page).
const std::vector<std::string> kPageFiles = {"index.html", "lab.css", "lab.js", "lab-engine.js"};
/// lab-engine.js holds the engine's WebAssembly (a few MiB); no page file is near this.
constexpr std::size_t kMaxPageFileBytes = std::size_t{64} << 20;

struct LabOptions {
    std::string out;
    std::string from = GPUSCHED_LAB_PAGE_DIR;
    bool from_given = false;  ///< --from on the command line (else this build's own page directory)
};

/// One file of the built page, whole (lab-engine.js is one line of a few MiB, over the line cap of
/// read_text_file): InputError naming --from when it is missing, not a file, or over the cap.
std::string read_page_file(const std::string& path) {
    std::error_code error;
    const auto size = std::filesystem::file_size(path, error);
    if (error || !std::filesystem::is_regular_file(path)) throw InputError("--from: cannot read '" + path + "'");
    if (size > kMaxPageFileBytes)
        throw InputError("--from: '" + path + "' is over " + std::to_string(kMaxPageFileBytes >> 20) + " MiB");
    std::ifstream in = open_input_file(path, "--from");
    std::string text(size, '\0');
    in.read(text.data(), static_cast<std::streamsize>(size));
    if (static_cast<std::uintmax_t>(in.gcount()) != size) throw InputError("--from: cannot read '" + path + "'");
    return text;
}

void write_lab(const LabOptions& o) {
    if (o.out.empty()) throw InputError("--out: expected a directory name, got ''");
    if (o.from.empty() || !std::filesystem::is_regular_file(std::filesystem::path(o.from) / "lab-engine.js")) {
        if (o.from_given)
            throw InputError("--from: no built lab page in '" + o.from +
                             "' (configure with -DGPUSCHED_LAB=ON and build the target lab_page, which needs "
                             "Debian's emscripten: docs/lab.md)");
        throw InputError("this build has no lab page yet ('" + o.from +
                         "' holds none): the README's set-up builds it (bash scripts/test.sh, after scripts/run.sh); "
                         "or configure this build with -DGPUSCHED_LAB=ON and build the target lab_page, which "
                         "needs Debian's emscripten (docs/lab.md); or give --from DIR, a built page");
    }
    std::vector<std::string> texts;
    std::vector<std::string> inputs;
    for (const auto& name : kPageFiles) {
        const std::string path = (std::filesystem::path(o.from) / name).string();
        texts.push_back(read_page_file(path));
        inputs.push_back(path);
    }
    std::error_code error;
    std::filesystem::create_directories(o.out, error);
    if (error || !std::filesystem::is_directory(o.out))
        throw InputError("--out: cannot create the directory '" + o.out + "'" + (error ? ": " + error.message() : ""));
    std::vector<std::unique_ptr<OutputFile>> files;
    for (std::size_t i = 0; i < kPageFiles.size(); ++i) {
        files.push_back(std::make_unique<OutputFile>((std::filesystem::path(o.out) / kPageFiles[i]).string(), "--out", inputs));
        files.back()->stream() << texts[i];
    }
    for (auto& file : files) file->commit();
    std::cout << "gpusched: wrote the lab to " << (std::filesystem::path(o.out) / "index.html").string()
              << " (open it in a browser; no server needed)\n";
}

}  // namespace

void add_lab_command(CLI::App& app) {
    auto o = std::make_shared<LabOptions>();
    auto* cmd = app.add_subcommand("lab", "Write the browser lab: sliders over the simulator, run in the page (WebAssembly)");
    cmd->footer("The page runs the same engine as simulate; each run shows the equivalent simulate command (docs/lab.md)\n\n"
                "Examples:\n"
                "  gpusched lab --out my-lab                        # then open my-lab/index.html in a browser\n"
                "  gpusched lab --out my-lab --from build/lab/page  # a page built in another directory");
    cmd->add_option("--out", o->out, "Directory to write index.html, lab.css, lab.js and lab-engine.js into")->required();
    auto* from = cmd->add_option("--from", o->from, "Directory of the built page (default: this build's lab/page)")
                     ->capture_default_str();
    cmd->callback([o, from] {
        o->from_given = from->count() > 0;
        write_lab(*o);
    });
}

}  // namespace gpusched::cli

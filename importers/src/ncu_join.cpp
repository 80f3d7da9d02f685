// join_ncu: the workload's kernel items found with yaml-cpp marks, matched to ncu rows in order, edited as text.
#include "gpusched/importers/ncu_join.h"

#include <algorithm>
#include <array>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "gpusched/importers/kernel_name.h"
#include "gpusched/importers/workload_writer.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/text.h"

namespace gpusched::importers {

namespace {

/// A `kernel: kernel` item of the workload.
struct KernelItem {
    std::size_t index = 0;  ///< in launches
    std::size_t first_line = 0, last_line = 0;  ///< 0-based lines of its keys
    std::size_t indent = 0;
    std::string name, full_name;
    std::array<std::uint32_t, 3> grid{1, 1, 1}, block{1, 1, 1};
    std::vector<std::size_t> replaced_lines;  ///< earlier instructions / dram_bytes / l2_bytes keys
};

std::array<std::uint32_t, 3> dims_of(const std::string& text) {
    std::array<std::uint32_t, 3> out{1, 1, 1};
    const auto parts = split(text, 'x');
    for (std::size_t d = 0; d < parts.size() && d < 3; ++d) out[d] = static_cast<std::uint32_t>(std::strtoul(parts[d].c_str(), nullptr, 10));
    return out;
}

std::string dims_text(const std::array<std::uint32_t, 3>& d) {
    return "(" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) + ")";
}

/// The base of a sanitized workload name: before the first '[' or '(', after the last "::".
std::string sanitized_base(const std::string& name) {
    std::string out = name.substr(0, name.find_first_of("[("));
    const auto colon = out.rfind("::");
    return colon == std::string::npos ? out : out.substr(colon + 2);
}

/// The last line of `node` and everything inside it (a block sequence under a key spans lines).
std::size_t last_line_of(const YAML::Node& node) {
    std::size_t last = static_cast<std::size_t>(std::max(node.Mark().line, 0));
    if (node.IsSequence())
        for (const auto& child : node) last = std::max(last, last_line_of(child));
    if (node.IsMap())
        for (const auto& entry : node) last = std::max({last, last_line_of(entry.first), last_line_of(entry.second)});
    return last;
}

bool names_match(const NcuRow& row, const KernelItem& item) {
    if (sanitize_kernel_name(row.kernel_name) == item.name) return true;
    const std::string base = kernel_base_name(row.kernel_name);
    if (!item.full_name.empty() && base == kernel_base_name(item.full_name)) return true;
    return base == sanitized_base(item.name);
}

std::vector<KernelItem> kernel_items(const std::string& path, const std::string& text, const std::vector<std::string>& lines) {
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::Exception& e) {
        throw InputError(path + ":" + std::to_string(e.mark.line + 1) + ": YAML syntax error: " + e.msg);
    }
    if (!root.IsMap() || !root["launches"] || !root["launches"].IsSequence())
        throw InputError(path + ": not a workload file: no 'launches' list");
    std::vector<KernelItem> items;
    const YAML::Node launches = root["launches"];
    for (std::size_t i = 0; i < launches.size(); ++i) {
        const YAML::Node item = launches[i];
        if (!item.IsMap() || !item["kernel"] || !item["kernel"].IsScalar() || item["kernel"].Scalar() != "kernel") continue;
        const std::string where = path + ":" + std::to_string(item.Mark().line + 1) + ": launches[" + std::to_string(i) + "]";
        if (item.Style() == YAML::EmitterStyle::Flow)
            throw InputError(where + ": a kernel in flow style {...}; joining needs the block style that gpusched import writes");
        if (item["repeat"]) throw InputError(where + ": a kernel with 'repeat' stands for several launches; give one item per launch");
        KernelItem k;
        k.index = i;
        k.first_line = k.last_line = static_cast<std::size_t>(item.Mark().line);
        k.indent = static_cast<std::size_t>(item.Mark().column);
        for (const auto& entry : item) {
            k.last_line = std::max(k.last_line, last_line_of(entry.second));
            const std::string key = entry.first.Scalar();
            if (!entry.second.IsScalar()) continue;
            if (key == "name") k.name = entry.second.Scalar();
            if (key == "grid") k.grid = dims_of(entry.second.Scalar());
            if (key == "block") k.block = dims_of(entry.second.Scalar());
            if (key == "instructions" || key == "dram_bytes" || key == "l2_bytes")
                k.replaced_lines.push_back(static_cast<std::size_t>(entry.first.Mark().line));
        }
        if (k.name.empty()) k.name = "kernel";
        if (k.first_line > 0) {
            const std::string above = trim(lines[k.first_line - 1]);
            if (above.rfind("# ", 0) == 0 && above.rfind("# ncu:", 0) != 0 && above.rfind("# cluster", 0) != 0) k.full_name = above.substr(2);
            if (k.first_line > 1 && above.rfind("# cluster", 0) == 0) {
                const std::string two_above = trim(lines[k.first_line - 2]);
                if (two_above.rfind("# ", 0) == 0) k.full_name = two_above.substr(2);
            }
        }
        for (std::size_t l = k.first_line; l <= k.last_line; ++l)
            if (trim(lines[l]).rfind("# ncu:", 0) == 0) k.replaced_lines.push_back(l);
        items.push_back(std::move(k));
    }
    if (items.empty()) throw InputError(path + ": no `kernel: kernel` items to join (import the trace with gpusched import first)");
    return items;
}

}  // namespace

std::string join_ncu(const std::string& workload_path, const std::string& workload_text, const std::string& csv_path,
                     const std::vector<NcuRow>& rows) {
    std::vector<std::string> lines = split(workload_text, '\n');
    if (!lines.empty() && lines.back().empty()) lines.pop_back();
    const std::vector<KernelItem> items = kernel_items(workload_path, workload_text, lines);
    if (rows.size() > items.size())
        throw InputError(csv_path + ":" + std::to_string(rows[items.size()].line) + ": kernel row " + std::to_string(items.size() + 1) +
                         " ('" + printable(rows[items.size()].kernel_name).substr(0, 80) + "') has no kernel left to join: " +
                         workload_path + " has " + std::to_string(items.size()) + " kernels");
    if (rows.size() < items.size())
        throw InputError(csv_path + ":" + std::to_string(rows.back().line + 1) + ": the CSV ends after " + std::to_string(rows.size()) +
                         " kernel rows, but " + workload_path + " has " + std::to_string(items.size()) +
                         " kernels (profile every launch of the imported steps, in order)");
    std::vector<std::vector<std::string>> inserted(lines.size());
    std::vector<bool> dropped(lines.size(), false);
    for (std::size_t i = 0; i < items.size(); ++i) {
        const KernelItem& k = items[i];
        const NcuRow& row = rows[i];
        const bool grid_ok = !row.grid || *row.grid == k.grid, block_ok = !row.block || *row.block == k.block;
        if (!names_match(row, k) || !grid_ok || !block_ok)
            throw InputError(csv_path + ":" + std::to_string(row.line) + ": kernel row " + std::to_string(i + 1) +
                             (row.id.empty() ? "" : " (ID " + printable(row.id) + ")") + " '" + printable(row.kernel_name).substr(0, 80) +
                             "'" + (row.grid ? " grid " + dims_text(*row.grid) : "") + (row.block ? " block " + dims_text(*row.block) : "") +
                             " does not match kernel " + std::to_string(i + 1) + " of " + workload_path + ":" +
                             std::to_string(k.first_line + 1) + " ('" + k.name + "' grid " + dims_text(k.grid) + " block " +
                             dims_text(k.block) + "); rows join the workload's kernels in order");
        for (const std::size_t l : k.replaced_lines) dropped[l] = true;
        const std::string pad(k.indent, ' ');
        std::ostringstream comment;
        if (row.occupancy_pct || row.cycles || row.duration) {
            comment << pad << "# ncu:";
            if (row.occupancy_pct) comment << " achieved occupancy " << *row.occupancy_pct << "%";
            if (row.cycles) comment << (row.occupancy_pct ? "," : "") << " " << *row.cycles << " cycles";
            if (row.duration) comment << ((row.occupancy_pct || row.cycles) ? "," : "") << " " << format_us(*row.duration);
            inserted[k.last_line].push_back(comment.str());
        }
        inserted[k.last_line].push_back(pad + "instructions: " + std::to_string(row.instructions));
        inserted[k.last_line].push_back(pad + "dram_bytes: " + std::to_string(row.dram_bytes));
        inserted[k.last_line].push_back(pad + "l2_bytes: " + std::to_string(row.l2_bytes > row.dram_bytes ? row.l2_bytes - row.dram_bytes : 0));
    }
    std::string out = "# Nsight Compute metrics joined by `gpusched import ncu` from " + printable(csv_path) + " (" +
                      std::to_string(rows.size()) + " kernels).\n";
    for (std::size_t l = 0; l < lines.size(); ++l) {
        if (!dropped[l]) out += lines[l] + "\n";
        for (const auto& added : inserted[l]) out += added + "\n";
    }
    return out;
}

}  // namespace gpusched::importers

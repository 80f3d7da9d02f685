// join_ncu: the workload's `kernel: kernel` items matched to ncu rows in order, their keys and notes edited as data.
#include "gpusched/importers/ncu_join.h"

#include <algorithm>
#include <array>
#include <sstream>

#include "gpusched/importers/imported_workload.h"
#include "gpusched/importers/kernel_name.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/text.h"

namespace gpusched::importers {

namespace {

using workloads::KernelKey;
using workloads::WorkloadItem;

/// What the join reads of a `kernel: kernel` item.
struct KernelItem {
    WorkloadItem* item = nullptr;
    std::string name, full_name;
    std::array<std::uint32_t, 3> grid{1, 1, 1}, block{1, 1, 1};
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

bool names_match(const NcuRow& row, const KernelItem& item) {
    if (sanitize_kernel_name(row.kernel_name) == item.name) return true;
    const std::string base = kernel_base_name(row.kernel_name);
    if (!item.full_name.empty() && base == kernel_base_name(item.full_name)) return true;
    return base == sanitized_base(item.name);
}

bool is_ncu_note(const std::string& note) { return note.rfind("ncu:", 0) == 0; }

bool is_metric_key(const KernelKey& k) { return k.key == "instructions" || k.key == "dram_bytes" || k.key == "l2_bytes"; }

std::vector<KernelItem> kernel_items(workloads::WorkloadDocument& workload) {
    std::vector<KernelItem> items;
    for (WorkloadItem& item : workload.items) {
        if (item.kind != workloads::Operation::Kind::kernel || item.kernel != "kernel") continue;
        if (item.repeat)
            throw InputError(item.where + ": " + item.path + ": a kernel with 'repeat' stands for several launches; give one item per launch");
        KernelItem k;
        k.item = &item;
        for (const KernelKey& key : item.keys) {
            if (key.key == "name") k.name = key.value;
            if (key.key == "grid") k.grid = dims_of(key.value);
            if (key.key == "block") k.block = dims_of(key.value);
        }
        if (k.name.empty()) k.name = "kernel";
        const auto full = std::find_if(item.notes.begin(), item.notes.end(), [](const std::string& n) { return !is_ncu_note(n); });
        if (full != item.notes.end() && full->rfind("cluster ", 0) != 0) k.full_name = *full;
        items.push_back(k);
    }
    if (items.empty())
        throw InputError(workload.source + ": no `kernel: kernel` items to join (import the trace with gpusched import first)");
    return items;
}

/// "ncu: achieved occupancy X%, N cycles, Dus" of the row's optional columns; "" without them.
std::string ncu_note(const NcuRow& row) {
    if (!row.occupancy_pct && !row.cycles && !row.duration) return "";
    std::ostringstream note;
    note << "ncu:";
    if (row.occupancy_pct) note << " achieved occupancy " << *row.occupancy_pct << "%";
    if (row.cycles) note << (row.occupancy_pct ? "," : "") << " " << *row.cycles << " cycles";
    if (row.duration) note << ((row.occupancy_pct || row.cycles) ? "," : "") << " " << format_us(*row.duration);
    return note.str();
}

void check_match(const std::string& csv_path, std::size_t i, const NcuRow& row,
                 const KernelItem& k) {
    const bool grid_ok = !row.grid || *row.grid == k.grid, block_ok = !row.block || *row.block == k.block;
    if (names_match(row, k) && grid_ok && block_ok) return;
    throw InputError(csv_path + ":" + std::to_string(row.line) + ": kernel row " + std::to_string(i + 1) +
                     (row.id.empty() ? "" : " (ID " + printable(row.id) + ")") + " '" + printable(row.kernel_name).substr(0, 80) + "'" +
                     (row.grid ? " grid " + dims_text(*row.grid) : "") + (row.block ? " block " + dims_text(*row.block) : "") +
                     " does not match kernel " + std::to_string(i + 1) + " of " + k.item->where + " ('" + k.name + "' grid " +
                     dims_text(k.grid) + " block " + dims_text(k.block) + "); rows join the workload's kernels in order");
}

}  // namespace

void join_ncu(workloads::WorkloadDocument& workload, const std::string& csv_path, const std::vector<NcuRow>& rows) {
    const std::vector<KernelItem> items = kernel_items(workload);
    const std::string& path = workload.source;
    if (rows.size() > items.size())
        throw InputError(csv_path + ":" + std::to_string(rows[items.size()].line) + ": kernel row " + std::to_string(items.size() + 1) +
                         " ('" + printable(rows[items.size()].kernel_name).substr(0, 80) + "') has no kernel left to join: " + path +
                         " has " + std::to_string(items.size()) + " kernels");
    if (rows.size() < items.size())
        throw InputError(csv_path + ":" + std::to_string(rows.back().line + 1) + ": the CSV ends after " + std::to_string(rows.size()) +
                         " kernel rows, but " + path + " has " + std::to_string(items.size()) +
                         " kernels (profile every launch of the imported steps, in order)");
    for (std::size_t i = 0; i < items.size(); ++i) check_match(csv_path, i, rows[i], items[i]);
    for (std::size_t i = 0; i < items.size(); ++i) {
        WorkloadItem& item = *items[i].item;
        const NcuRow& row = rows[i];
        // FLOPs the efficiency rule estimated from the duration give way to the measured totals; FLOPs from
        // shapes or the profiler are data and stay.
        const bool ruled_flops = std::any_of(item.keys.begin(), item.keys.end(),
                                             [](const KernelKey& k) { return k.key == "work_from" && k.value == "efficiency-rule"; });
        if (ruled_flops) std::erase_if(item.keys, [](const KernelKey& k) { return k.key == "flops" || k.key == "dtype"; });
        std::erase_if(item.keys, is_metric_key);
        std::erase_if(item.notes, is_ncu_note);
        if (const std::string note = ncu_note(row); !note.empty()) item.notes.push_back(note);
        // The totals are Nsight Compute's now: work_from says so, in place when the import wrote it.
        const auto from = std::find_if(item.keys.begin(), item.keys.end(), [](const KernelKey& k) { return k.key == "work_from"; });
        if (from != item.keys.end()) from->value = "ncu";
        else item.keys.push_back({"work_from", "ncu", false, ""});
        item.keys.push_back({"instructions", std::to_string(row.instructions), false, ""});
        item.keys.push_back({"dram_bytes", std::to_string(row.dram_bytes), false, ""});
        item.keys.push_back({"l2_bytes", std::to_string(row.l2_bytes > row.dram_bytes ? row.l2_bytes - row.dram_bytes : 0), false, ""});
    }
    workload.notes.insert(workload.notes.begin(), "Nsight Compute metrics joined by `gpusched import ncu` from " + printable(csv_path) +
                                                      " (" + std::to_string(rows.size()) + " kernels).");
}

}  // namespace gpusched::importers

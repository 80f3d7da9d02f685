// write_workload: a WorkloadDocument as YAML in one canonical layout, read back to an equal document.
#include "gpusched/workloads/workload_writer.h"

#include <sstream>

#include "host_section.h"

namespace gpusched::workloads {

namespace {

bool plain_safe(const std::string& text) {
    if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") return false;
    for (const char c : text) {
        const bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
                          c == '+' || c == '/' || c == '-';
        if (!word) return false;
    }
    return true;
}

/// A double-quoted YAML scalar: quotes and backslashes escaped, control bytes as \xHH.
std::string yaml_quoted(const std::string& text) {
    static const char* const hex = "0123456789ABCDEF";
    std::string out = "\"";
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out.push_back('\\');
            out.push_back(c);
        } else if (byte < 0x20 || byte == 0x7f) {
            out += "\\x";
            out.push_back(hex[byte >> 4]);
            out.push_back(hex[byte & 0xf]);
        } else {
            out.push_back(c);
        }
    }
    return out + "\"";
}

std::string scalar(const std::string& text, bool force_quotes = false) {
    return !force_quotes && plain_safe(text) ? text : yaml_quoted(text);
}

std::string flow_list(const std::vector<std::string>& items, bool force_quotes) {
    std::string out = "[";
    for (std::size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : ", ") + scalar(items[i], force_quotes);
    return out + "]";
}

/// The SM mask with runs as "A-B": [0, 1, 2, 5] -> [0-2, 5].
std::string sm_ranges(const std::vector<int>& sms) {
    std::vector<std::string> parts;
    for (std::size_t i = 0; i < sms.size();) {
        std::size_t j = i;
        while (j + 1 < sms.size() && sms[j + 1] == sms[j] + 1) ++j;
        parts.push_back(j == i ? std::to_string(sms[i]) : std::to_string(sms[i]) + "-" + std::to_string(sms[j]));
        i = j + 1;
    }
    return flow_list(parts, false);
}

void write_stream(std::ostream& out, const StreamConfig& stream) {
    out << "  - {id: " << stream.id;
    if (stream.priority.greatest)
        out << ", priority: high";
    else if (stream.priority.value != 0)
        out << ", priority: " << stream.priority.value;
    if (!stream.sm_mask.empty()) out << ", sms: " << sm_ranges(stream.sm_mask);
    if (stream.partition >= 0) out << ", partition: " << stream.partition;
    out << "}\n";
}

/// `, id: X, after: [...], notes: [...]` of a flow-style operation.
void write_flow_names(std::ostream& out, const WorkloadItem& item) {
    if (!item.id.empty()) out << ", id: " << scalar(item.id);
    if (!item.after.empty()) out << ", after: " << flow_list(item.after, false);
    if (!item.notes.empty()) out << ", notes: " << flow_list(item.notes, true);
}

void write_kernel(std::ostream& out, const WorkloadItem& item) {
    out << "  - kernel: " << scalar(item.kernel) << "\n";
    if (!item.notes.empty()) out << "    notes: " << flow_list(item.notes, true) << "\n";
    if (item.repeat) out << "    repeat: " << *item.repeat << "\n";
    if (!item.id.empty()) out << "    id: " << scalar(item.id) << "\n";
    if (!item.after.empty()) out << "    after: " << flow_list(item.after, false) << "\n";
    for (const KernelKey& k : item.keys) out << "    " << scalar(k.key) << ": " << scalar(k.value, k.quoted) << "\n";
}

void write_operation(std::ostream& out, const WorkloadItem& item) {
    out << "  - {";
    switch (item.kind) {
        case Operation::Kind::copy:
            out << "copy: " << (item.copy.direction == CopyDirection::host_to_device ? "h2d" : "d2h") << ", bytes: " << item.copy.bytes
                << ", memory: " << (item.copy.pinned ? "pinned" : "pageable");
            break;
        case Operation::Kind::delay:
            out << "delay: " << exact_microseconds(item.delay);
            break;
        case Operation::Kind::record:
            out << "record: " << scalar(item.event);
            break;
        default:
            out << "wait: " << scalar(item.event);
            break;
    }
    out << ", stream: " << item.stream;
    write_flow_names(out, item);
    out << "}\n";
}

}  // namespace

std::string exact_microseconds(Time ps) {
    std::string fraction = std::to_string(ps % 1'000'000);
    fraction.insert(0, 6 - fraction.size(), '0');
    while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
    return std::to_string(ps / 1'000'000) + (fraction.empty() ? "" : "." + fraction) + "us";
}

void write_workload(std::ostream& out, const WorkloadDocument& document) {
    if (!document.notes.empty()) {
        out << "notes:\n";
        for (const auto& note : document.notes) out << "  - " << yaml_quoted(note) << "\n";
    }
    if (document.description) out << "description: " << yaml_quoted(*document.description) << "\n";
    if (document.issue)
        out << "issue: "
            << (*document.issue == HostIssue::calls ? "host-calls" : *document.issue == HostIssue::graph ? "graph" : "queued") << "\n";
    if (document.iterations) out << "iterations: " << *document.iterations << "\n";
    if (!document.partitions.empty()) {
        out << "partitions: [";
        for (std::size_t i = 0; i < document.partitions.size(); ++i) out << (i == 0 ? "" : ", ") << document.partitions[i];
        out << "]\n";
    }
    if (document.partition) out << "partition: " << *document.partition << "\n";
    if (!document.streams.empty()) {
        out << "streams:\n";
        for (const StreamConfig& stream : document.streams) write_stream(out, stream);
    }
    out << "launches:\n";
    for (const WorkloadItem& item : document.items) {
        if (item.kind == Operation::Kind::kernel)
            write_kernel(out, item);
        else
            write_operation(out, item);
    }
    write_host_section(out, document.host);
}

std::string workload_yaml(const WorkloadDocument& document) {
    std::ostringstream out;
    write_workload(out, document);
    return out.str();
}

}  // namespace gpusched::workloads

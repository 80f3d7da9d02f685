// The recorder's trace writer: spool lines -> Kineto-layout Chrome trace JSON, events in time order.
#include "trace_assembler.h"

#include <cxxabi.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <tuple>
#include <utility>

#include "json_text.h"
#include "spool_format.h"

namespace gpusched::record {

namespace {

/// One spool record: its type letter, the numeric fields and the one text field (name, note).
struct Record {
    char type = 0;
    std::vector<std::int64_t> n;
    std::string text;
};

/// Fields after the type letter, and which of them is text (-1: none).
struct Layout {
    std::size_t fields;
    int text_field;
};

Layout layout_of(char type) {
    switch (type) {
        case spool::kKernel: return {20, 19};
        case spool::kMemcpy: return {10, -1};
        case spool::kMemset: return {9, -1};
        case spool::kRuntime:
        case spool::kDriver: return {7, 6};
        case spool::kSync: return {7, -1};
        case spool::kEvent: return {6, -1};
        case spool::kStream: return {5, -1};
        case spool::kDevice: return {14, 1};
        case spool::kDropped: return {1, -1};
        case spool::kNote: return {1, 0};
        default: return {0, -2};
    }
}

/// The record of one spool line, or false when the line is not one (unknown type, wrong field
/// count, a number that does not parse).
bool parse_line(const std::string& line, Record& r) {
    const auto f = spool_fields(line);
    if (f.empty() || f[0].size() != 1) return false;
    const Layout l = layout_of(f[0][0]);
    if (l.text_field == -2 || f.size() != l.fields + 1) return false;
    r.type = f[0][0];
    r.n.clear();
    for (std::size_t k = 0; k < l.fields; ++k) {
        const std::string& s = f[k + 1];
        if (static_cast<int>(k) == l.text_field) {
            r.text = spool_unescape(s);
            r.n.push_back(0);
            continue;
        }
        std::int64_t v = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return false;
        r.n.push_back(v);
    }
    return true;
}

bool timed(char type) {
    return type == spool::kKernel || type == spool::kMemcpy || type == spool::kMemset || type == spool::kRuntime ||
           type == spool::kDriver || type == spool::kSync;
}

std::string demangled(const std::string& name) {
    if (name.rfind("_Z", 0) != 0) return name;
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
    return status == 0 && d ? std::string(d.get()) : name;
}

/// CUPTI writes "not applicable" as the all-ones 32-bit value; the trace says -1.
std::int64_t id32(std::int64_t v) { return v == 0xFFFFFFFFll ? -1 : v; }

std::string dim3_json(std::int64_t x, std::int64_t y, std::int64_t z) {
    return "[" + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) + "]";
}

const char* sync_name(std::int64_t type) {
    switch (type) {
        case 1: return "Event Sync";
        case 2: return "Stream Wait Event";
        case 3: return "Stream Sync";
        case 4: return "Context Sync";
        default: return "Unknown Sync";
    }
}

/// A trace event before it is written: its sort key and its JSON text.
struct Event {
    std::int64_t ts = 0;
    int rank = 0;
    std::int64_t correlation = 0;
    std::size_t sequence = 0;
    std::string json;
};

std::string head(const char* cat, const std::string& name, std::int64_t pid, std::int64_t tid, std::int64_t ts,
                 std::int64_t dur) {
    std::string h = "{\"ph\": \"X\", \"cat\": \"" + std::string(cat) + "\", \"name\": ";
    append_json_string(h, name);
    h += ", \"pid\": " + std::to_string(pid) + ", \"tid\": " + std::to_string(tid) + ", \"ts\": " +
         micros(static_cast<std::uint64_t>(ts)) + ", \"dur\": " + micros(static_cast<std::uint64_t>(std::max<std::int64_t>(dur, 0)));
    return h;
}

const char* memory_kind_name(int kind) {
    static const char* const kMemory[] = {"Unknown", "Pageable", "Pinned", "Device", "Array",
                                          "Managed", "Device Static", "Managed Static"};
    return kind >= 0 && kind <= 7 ? kMemory[kind] : "Unknown";
}

struct Device {
    std::string name;
    std::vector<std::int64_t> n;
};

std::string device_json(std::int64_t id, const Device& d) {
    static const char* const kKeys[] = {"totalGlobalMem", "computeMajor", "computeMinor", "maxThreadsPerBlock",
                                        "maxThreadsPerMultiprocessor", "regsPerBlock", "regsPerMultiprocessor",
                                        "warpSize", "sharedMemPerBlock", "sharedMemPerMultiprocessor", "numSms",
                                        "sharedMemPerBlockOptin"};
    std::string j = "    {\"id\": " + std::to_string(id) + ", \"name\": " + json_string(d.name);
    for (std::size_t k = 0; k < 12; ++k)
        if (d.n[k + 2] >= 0) j += ", \"" + std::string(kKeys[k]) + "\": " + std::to_string(d.n[k + 2]);
    return j + "}";
}

}  // namespace

std::string memcpy_name(int copy_kind, int src_kind, int dst_kind) {
    static const char* const kCopy[] = {"Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
                                        "AtoD",    "DtoA", "DtoD", "HtoH", "PtoP"};
    const char* copy = copy_kind >= 0 && copy_kind <= 10 ? kCopy[copy_kind] : "Unknown";
    return std::string("Memcpy ") + copy + " (" + memory_kind_name(src_kind) + " -> " + memory_kind_name(dst_kind) + ")";
}

std::string memset_name(int memory_kind) { return std::string("Memset (") + memory_kind_name(memory_kind) + ")"; }

std::string api_name(const std::string& cupti_name) {
    const std::size_t v = cupti_name.rfind("_v");
    if (v == std::string::npos || v + 2 == cupti_name.size()) return cupti_name;
    for (std::size_t k = v + 2; k < cupti_name.size(); ++k)
        if (cupti_name[k] < '0' || cupti_name[k] > '9') return cupti_name;
    return cupti_name.substr(0, v);
}

TraceCounts write_trace(const std::vector<std::string>& spool_files, const RecordedRun& run, std::ostream& out) {
    TraceCounts counts;
    std::vector<Record> records;
    for (const auto& path : spool_files) {
        std::ifstream in(path);
        if (!in) {
            counts.notes.push_back("cannot read spool file " + path);
            continue;
        }
        std::string line;
        Record r;
        while (std::getline(in, line)) {
            if (line.empty()) continue;
            if (!parse_line(line, r)) ++counts.bad_lines;
            else if (timed(r.type) && (r.n[0] == 0 || r.n[1] < r.n[0])) ++counts.incomplete;  // a forced flush's unfinished record
            else records.push_back(r);
        }
    }
    std::int64_t base = -1;
    std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> priority;  // (context, stream) -> priority
    std::map<std::int64_t, std::int64_t> context_device;
    std::map<std::int64_t, std::int64_t> api_start;  // correlation -> start of its runtime call
    std::map<std::int64_t, Device> devices;
    for (const Record& r : records) {
        if (timed(r.type) && (base < 0 || r.n[0] < base)) base = r.n[0];
        if (r.type == spool::kStream) priority[{r.n[0], r.n[1]}] = r.n[2];
        if (r.type == spool::kKernel || r.type == spool::kMemcpy || r.type == spool::kMemset)
            context_device[r.n[3]] = r.n[2];
        if (r.type == spool::kRuntime) api_start.emplace(r.n[4], r.n[0]);
        if (r.type == spool::kDropped) counts.dropped += static_cast<std::uint64_t>(std::max<std::int64_t>(r.n[0], 0));
        if (r.type == spool::kNote) counts.notes.push_back(r.text);
        if (r.type == spool::kDevice) {
            Device& d = devices[r.n[0]];
            const std::int64_t known_optin = d.n.empty() ? -1 : d.n[13];
            d = Device{r.text, r.n};
            if (d.n[13] < 0) d.n[13] = known_optin;
        }
    }
    if (base < 0) base = 0;
    std::vector<Event> events;
    for (const Record& r : records) {
        const auto& n = r.n;
        Event e;
        e.sequence = events.size();
        switch (r.type) {
            case spool::kKernel: {
                const auto p = priority.find({n[3], n[4]});
                e.ts = n[0] - base, e.rank = 2, e.correlation = n[5];
                e.json = head("kernel", demangled(r.text), n[2], n[4], e.ts, n[1] - n[0]) +
                         ", \"args\": {\"device\": " + std::to_string(n[2]) + ", \"context\": " + std::to_string(n[3]) +
                         ", \"stream\": " + std::to_string(n[4]) + ", \"correlation\": " + std::to_string(n[5]) +
                         ", \"registers per thread\": " + std::to_string(n[6]) +
                         ", \"shared memory\": " + std::to_string(n[7] + n[8]) +
                         ", \"static shared memory\": " + std::to_string(n[7]) +
                         ", \"dynamic shared memory\": " + std::to_string(n[8]) +
                         ", \"grid\": " + dim3_json(n[9], n[10], n[11]) + ", \"block\": " + dim3_json(n[12], n[13], n[14]) +
                         ", \"cluster\": " + dim3_json(std::max<std::int64_t>(n[15], 1), std::max<std::int64_t>(n[16], 1),
                                                       std::max<std::int64_t>(n[17], 1)) +
                         ", \"stream priority\": " + std::to_string(p == priority.end() ? 0 : p->second) +
                         ", \"graph id\": " + std::to_string(n[18]) + "}}";
                ++counts.kernels;
                break;
            }
            case spool::kMemcpy:
            case spool::kMemset: {
                const bool copy = r.type == spool::kMemcpy;
                e.ts = n[0] - base, e.rank = 2, e.correlation = n[5];
                const std::string name = copy ? memcpy_name(static_cast<int>(n[7]), static_cast<int>(n[8]), static_cast<int>(n[9]))
                                              : memset_name(static_cast<int>(n[7]));
                e.json = head(copy ? "gpu_memcpy" : "gpu_memset", name, n[2], n[4], e.ts, n[1] - n[0]) +
                         ", \"args\": {\"device\": " + std::to_string(n[2]) + ", \"context\": " + std::to_string(n[3]) +
                         ", \"stream\": " + std::to_string(n[4]) + ", \"correlation\": " + std::to_string(n[5]) +
                         ", \"bytes\": " + std::to_string(n[6]) + "}}";
                ++(copy ? counts.copies : counts.memsets);
                break;
            }
            case spool::kRuntime:
            case spool::kDriver:
                e.ts = n[0] - base, e.rank = 0, e.correlation = n[4];
                e.json = head(r.type == spool::kRuntime ? "cuda_runtime" : "cuda_driver", api_name(r.text), n[2], n[3],
                              e.ts, n[1] - n[0]) +
                         ", \"args\": {\"cbid\": " + std::to_string(n[5]) + ", \"correlation\": " + std::to_string(n[4]) + "}}";
                ++counts.api_calls;
                break;
            case spool::kSync: {
                const auto dev = context_device.find(n[3]);
                e.ts = n[0] - base, e.rank = 1, e.correlation = n[5];
                e.json = head("cuda_sync", sync_name(n[2]), dev == context_device.end() ? 0 : dev->second,
                              std::max<std::int64_t>(id32(n[4]), 0), e.ts, n[1] - n[0]) +
                         ", \"args\": {\"context\": " + std::to_string(n[3]) + ", \"stream\": " + std::to_string(id32(n[4])) +
                         ", \"correlation\": " + std::to_string(n[5]) + ", \"cuda event\": " + std::to_string(id32(n[6])) + "}}";
                ++counts.syncs;
                break;
            }
            case spool::kEvent: {
                const auto call = api_start.find(n[0]);
                if (n[5] <= 0 && call == api_start.end()) continue;  // no time known for it
                e.ts = (n[5] > 0 ? n[5] : call->second) - base, e.rank = 3, e.correlation = n[0];
                if (e.ts < 0) e.ts = 0;
                e.json = head("cuda_event", "Event Record", n[4], n[2], e.ts, 0) + ", \"args\": {\"event\": " +
                         std::to_string(n[3]) + ", \"context\": " + std::to_string(n[1]) + ", \"stream\": " +
                         std::to_string(n[2]) + ", \"correlation\": " + std::to_string(n[0]) +
                         ", \"device timestamp\": " + (n[5] > 0 ? "true" : "false") + "}}";
                ++counts.events;
                break;
            }
            default: continue;
        }
        events.push_back(std::move(e));
    }
    std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
        return std::tie(a.ts, a.rank, a.correlation, a.sequence) < std::tie(b.ts, b.rank, b.correlation, b.sequence);
    });
    counts.devices = devices.size();

    out << "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [";
    bool first = true;
    for (const auto& [id, d] : devices) {
        out << (first ? "\n" : ",\n") << device_json(id, d);
        first = false;
    }
    out << (devices.empty() ? "],\n" : "\n  ],\n") << "  \"traceEvents\": [";
    first = true;
    for (const Event& e : events) {
        out << (first ? "\n    " : ",\n    ") << e.json;
        first = false;
    }
    out << (events.empty() ? "],\n" : "\n  ],\n");
    out << "  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": " << base << ",\n";
    std::string args = "[";
    for (std::size_t k = 0; k < run.args.size(); ++k) args += (k ? ", " : "") + json_string(run.args[k]);
    std::string notes = "[";
    for (std::size_t k = 0; k < counts.notes.size(); ++k) notes += (k ? ", " : "") + json_string(counts.notes[k]);
    out << "  \"gpuschedRecorder\": {\"version\": 1, \"program\": " << json_string(run.program) << ", \"args\": " << args
        << "], \"exit_code\": " << run.exit_code << ", \"signal\": " << run.signal
        << ", \"complete\": " << (run.exit_code == 0 && run.signal == 0 && counts.bad_lines == 0 ? "true" : "false")
        << ", \"dropped_records\": " << counts.dropped << ", \"incomplete_records\": " << counts.incomplete
        << ", \"unreadable_spool_lines\": " << counts.bad_lines
        << ", \"notes\": " << notes << "]}\n}\n";
    return counts;
}

}  // namespace gpusched::record

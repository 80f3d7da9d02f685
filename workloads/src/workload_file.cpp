// Workload YAML files read as data: streams (priority, SM masks), partitions, notes and launch items (kernels with their keys, operations).
#include "gpusched/workloads/workload_file.h"

#include <algorithm>
#include <memory>
#include <set>

#include "gpusched/support/input_error.h"
#include "gpusched/support/yaml_fields.h"
#include "gpusched/workloads/generator_registry.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/support/text_file.h"
#include "host_section.h"
#include "partition_keys.h"

namespace gpusched::workloads {

namespace {

constexpr std::size_t kMaxYamlNodes = 10'000'000;
constexpr std::int64_t kLowestStreamPriority = -1024;  ///< CUDA numbers below any GPU's range

/// yaml-cpp keeps the first of two equal keys silently; reject them everywhere. Counts nodes
/// visited so alias-expansion bombs stop with an error instead of a hang.
void check_duplicate_keys(const YAML::Node& node, const std::string& source, std::size_t& visited) {
    if (++visited > kMaxYamlNodes)
        throw InputError(source + ": too many YAML nodes (more than " + std::to_string(kMaxYamlNodes) +
                         " after expanding aliases)");
    if (node.IsSequence()) {
        for (const auto& item : node) check_duplicate_keys(item, source, visited);
    } else if (node.IsMap()) {
        std::set<std::string> keys;
        for (auto it = node.begin(); it != node.end(); ++it) {
            if (it->first.IsScalar() && !keys.insert(it->first.Scalar()).second)
                throw InputError(yaml_location(it->first, source) + ": key '" + it->first.Scalar() +
                                 "' is given twice in one mapping");
            check_duplicate_keys(it->second, source, visited);
        }
    }
}

/// An SM id or "A-B" range (inclusive) from one list item; `seen` catches SMs listed twice.
void add_sms(const YAML::Node& item, const std::string& where, const std::string& key, std::vector<bool>& seen,
             std::vector<int>& out) {
    const auto bad = [&]() {
        throw InputError(where + ": key '" + key + "': expected an SM id in [0, " + std::to_string(kMaxSmId) +
                         "] or a range \"A-B\" with A <= B, got " +
                         (item.IsScalar() ? "'" + item.Scalar().substr(0, 40) + "'" : std::string("a non-scalar")));
    };
    if (!item.IsScalar()) bad();
    const std::string text = item.Scalar();
    const std::size_t dash = text.find('-', 1);
    const auto lo = parse_integer(dash == std::string::npos ? text : text.substr(0, dash));
    const auto hi = dash == std::string::npos ? lo : parse_integer(text.substr(dash + 1));
    if (!lo || !hi || *lo < 0 || *hi > kMaxSmId || *lo > *hi) bad();
    for (std::int64_t sm = *lo; sm <= *hi; ++sm) {
        if (seen[static_cast<std::size_t>(sm)])
            throw InputError(where + ": key '" + key + "': SM " + std::to_string(sm) + " is listed twice");
        seen[static_cast<std::size_t>(sm)] = true;
        out.push_back(static_cast<int>(sm));
    }
}

/// `priority`: normal, high or a CUDA priority number (0 or below; the GPU's range is checked when simulated).
StreamPriority parse_stream_priority(YamlFields& f) {
    const std::string text = f.string("priority");
    if (text == "normal") return StreamPriority::normal;
    if (text == "high") return StreamPriority::high;
    const auto number = parse_integer(text);
    if (!number || *number > 0 || *number < kLowestStreamPriority)
        f.fail("priority", "expected normal, high or a CUDA priority (an integer in [" +
                               std::to_string(kLowestStreamPriority) + ", 0], lower is higher), got '" + text + "'");
    return StreamPriority::cuda(static_cast<int>(*number));
}

StreamConfig parse_stream(const YAML::Node& node, const std::string& source, const std::string& path) {
    YamlFields f(node, source, path);
    StreamConfig stream;
    stream.id = static_cast<int>(f.integer("id", 0, kMaxStreamId));
    if (f.optional_child("priority")) stream.priority = parse_stream_priority(f);
    if (const auto node_sms = f.optional_child("sms")) {
        const YAML::Node& sms = *node_sms;
        if (!sms.IsSequence() || sms.size() == 0)
            f.fail("sms", "expected a non-empty list of SM ids or \"A-B\" ranges (leave it out for all SMs)");
        std::vector<bool> seen(static_cast<std::size_t>(kMaxSmId) + 1, false);
        for (std::size_t i = 0; i < sms.size(); ++i)
            add_sms(sms[i], yaml_location(sms[i], source), f.key_path(indexed("sms", i)), seen, stream.sm_mask);
        std::sort(stream.sm_mask.begin(), stream.sm_mask.end());
    }
    stream.partition = parse_stream_partition(f, !stream.sm_mask.empty());
    f.finish();
    return stream;
}

std::vector<StreamConfig> parse_streams(const YAML::Node& node, const std::string& source) {
    if (!node.IsSequence())
        throw InputError(yaml_location(node, source) + ": key 'streams': expected a list of {id, priority, sms}");
    std::vector<StreamConfig> streams;
    std::set<int> ids;
    for (std::size_t i = 0; i < node.size(); ++i) {
        streams.push_back(parse_stream(node[i], source, indexed("streams", i)));
        if (!ids.insert(streams.back().id).second)
            throw InputError(yaml_location(node[i]["id"], source) + ": key '" + indexed("streams", i) +
                             ".id': stream " + std::to_string(streams.back().id) + " is listed twice");
    }
    return streams;
}

/// `notes`: a list of texts the simulation ignores (where an imported workload came from).
std::vector<std::string> read_notes(YamlFields& f) {
    std::vector<std::string> notes;
    if (const auto node = f.optional_child("notes")) {
        if (!node->IsSequence() || node->size() == 0) f.fail("notes", "expected a non-empty list of texts");
        for (const auto& note : *node) {
            if (!note.IsScalar()) f.fail("notes", "expected a list of texts, got a list with a non-text entry");
            notes.push_back(note.Scalar());
        }
    }
    return notes;
}

/// `id`, `after` and `notes` of any item (the DAG edges beyond stream order and events, and what the simulation ignores).
void read_item_names(YamlFields& f, const std::string& source, WorkloadItem& item) {
    if (const auto id = f.optional_string("id")) {
        if (id->empty()) f.fail("id", "expected a non-empty name");
        item.id = *id;
        item.id_where = yaml_location(*f.optional_child("id"), source);
    }
    if (const auto after = f.optional_child("after")) {
        if (after->IsScalar()) {
            item.after.push_back(after->Scalar());
        } else if (after->IsSequence() && after->size() > 0) {
            for (const auto& entry : *after) {
                if (!entry.IsScalar() || entry.Scalar().empty()) f.fail("after", "expected ids (names) of operations");
                item.after.push_back(entry.Scalar());
            }
        } else {
            f.fail("after", "expected an id or a non-empty list of ids of operations that must finish first");
        }
    }
    item.notes = read_notes(f);
}

constexpr std::int64_t kMaxCopyBytes = std::int64_t{1} << 50;

/// A `copy`, `delay`, `record` or `wait` item.
WorkloadItem read_operation(const YAML::Node& node, const std::string& source, const std::string& path) {
    YamlFields f(node, source, path);
    WorkloadItem item;
    item.where = yaml_location(node, source);
    item.path = path;
    item.stream = static_cast<int>(f.optional_integer("stream", 0, kMaxStreamId).value_or(0));
    if (node["copy"]) {
        item.kind = Operation::Kind::copy;
        item.copy.direction = f.choice("copy", {"h2d", "d2h"}) == "h2d" ? CopyDirection::host_to_device
                                                                       : CopyDirection::device_to_host;
        item.copy.bytes = static_cast<std::uint64_t>(f.integer("bytes", 1, kMaxCopyBytes));
        if (f.optional_child("memory"))
            item.copy.pinned = f.choice("memory", {"pinned", "pageable"}) == "pinned";
    } else if (node["delay"]) {
        item.kind = Operation::Kind::delay;
        const std::string text = f.string("delay");
        try {
            item.delay = parse_duration(text, "delay");
        } catch (const InputError& e) {
            f.fail("delay", e.what());
        }
    } else if (node["record"]) {
        item.kind = Operation::Kind::record;
        item.event = f.string("record");
    } else {
        item.kind = Operation::Kind::wait;
        item.event = f.string("wait");
    }
    if ((item.kind == Operation::Kind::record || item.kind == Operation::Kind::wait) && item.event.empty())
        f.fail(item.kind == Operation::Kind::record ? "record" : "wait", "expected an event name");
    read_item_names(f, source, item);
    f.finish();
    return item;
}

bool is_operation_item(const YAML::Node& node) {
    return node.IsMap() && !node["kernel"] && (node["copy"] || node["delay"] || node["record"] || node["wait"]);
}

/// One launch mapping: `kernel`, `repeat`, `id`, `after`, `notes`, and the generator's keys as written.
WorkloadItem read_kernel_item(const YAML::Node& node, const std::string& source, const std::string& path) {
    YamlFields f(node, source, path);
    WorkloadItem item;
    item.where = yaml_location(node, source);
    item.path = path;
    item.kernel = f.string("kernel");
    if (find_kernel_generator(item.kernel) == nullptr)
        f.fail("kernel", "unknown kernel '" + item.kernel + "' (known kernels: " + kernel_generator_names() + ")");
    if (const auto repeat = f.optional_integer("repeat", 1, kMaxRepeat)) {
        item.repeat = static_cast<std::size_t>(*repeat);
        item.repeat_where = yaml_location(node["repeat"], source);
    }
    for (auto it = node.begin(); it != node.end(); ++it) {
        if (!it->first.IsScalar())
            throw InputError(yaml_location(it->first, source) + ": key in '" + path + "': expected a plain key name");
        const std::string key = it->first.Scalar();
        if (key == "kernel" || key == "repeat" || key == "id" || key == "after" || key == "notes") continue;
        const YAML::Node value = it->second;
        if (!value.IsScalar() || value.Scalar().empty())
            throw InputError(yaml_location(value.IsNull() ? it->first : value, source) + ": key '" + path + "." + key +
                             "': expected a single value, got " +
                             (value.IsSequence() ? "a list" : value.IsMap() ? "a mapping" : "nothing"));
        item.keys.push_back({key, value.Scalar(), value.Tag() == "!", yaml_location(value, source)});
    }
    read_item_names(f, source, item);
    return item;
}

HostIssue read_issue(YamlFields& top) {
    const std::string issue = top.choice("issue", {"queued", "host-calls", "graph"});
    return issue == "host-calls" ? HostIssue::calls : issue == "graph" ? HostIssue::graph : HostIssue::queued;
}

}  // namespace

WorkloadDocument read_workload_document(const std::string& yaml, const std::string& source) {
    try {
        const YAML::Node root = parse_yaml_document(yaml, source);
        std::size_t visited = 0;
        check_duplicate_keys(root, source, visited);
        YamlFields top(root, source, "");
        WorkloadDocument document;
        document.source = source;
        document.notes = read_notes(top);
        document.description = top.optional_string("description");
        if (const auto streams = top.optional_child("streams")) document.streams = parse_streams(*streams, source);
        parse_partitions(top, root, source, document);
        if (top.has("issue")) document.issue = read_issue(top);
        if (top.has("iterations")) {
            document.iterations_where = yaml_location(root["iterations"], source);
            document.iterations = static_cast<std::uint64_t>(top.integer("iterations", 1, static_cast<std::int64_t>(kMaxWorkloadLaunches)));
        }
        const YAML::Node launches = top.child("launches");
        if (!launches.IsSequence() || launches.size() == 0)
            top.fail("launches", "expected a non-empty list of launches (each a mapping with 'kernel: NAME')");
        bool any_kernel = false;
        for (std::size_t i = 0; i < launches.size(); ++i) {
            if (is_operation_item(launches[i])) {
                document.items.push_back(read_operation(launches[i], source, indexed("launches", i)));
            } else {
                document.items.push_back(read_kernel_item(launches[i], source, indexed("launches", i)));
                any_kernel = true;
            }
        }
        if (!any_kernel)
            top.fail("launches", "expected at least one kernel launch (copies, delays and events alone run nothing)");
        if (const auto host = top.optional_child("host")) document.host = read_host_section(*host, source, document.items.size());
        if (document.iterations && *document.iterations > 1)
            for (const WorkloadItem& item : document.items)
                if (!item.id.empty() || !item.after.empty() || !item.event.empty())
                    throw InputError(document.iterations_where + ": key 'iterations': " + item.path + " (" + item.where +
                                     ") names an event or an id, which each iteration would repeat; iterations take items "
                                     "without ids, `after` and events");
        top.finish();
        return document;
    } catch (const YAML::Exception& e) {
        throw InputError(source + ":" + std::to_string(e.mark.line + 1) + ": invalid workload file: " + e.msg);
    }
}

WorkloadDocument load_workload_document(const std::string& path) {
    return read_workload_document(read_text_file(path, "workload file", kMaxWorkloadFileBytes), path);
}

Application parse_workload(const std::string& yaml, const std::string& source) {
    return build_application(read_workload_document(yaml, source));
}

Application load_workload_file(const std::string& path) {
    return parse_workload(read_text_file(path, "workload file", kMaxWorkloadFileBytes), path);
}

}  // namespace gpusched::workloads

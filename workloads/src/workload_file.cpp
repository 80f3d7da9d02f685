// Workload YAML files: streams (priority, SM masks) and launches built through the kernel-spec code.
#include "gpusched/workloads/workload_file.h"

#include <algorithm>
#include <memory>
#include <set>

#include "gpusched/support/input_error.h"
#include "gpusched/support/yaml_fields.h"
#include "gpusched/workloads/generator_registry.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/support/text_file.h"
#include "partition_keys.h"

namespace gpusched::workloads {

namespace {

std::string indexed(const std::string& key, std::size_t i) { return key + "[" + std::to_string(i) + "]"; }

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

/// `id` and `after` of any item (the DAG edges beyond stream order and events).
void read_dependencies(YamlFields& f, Operation& op) {
    if (const auto id = f.optional_string("id")) {
        if (id->empty()) f.fail("id", "expected a non-empty name");
        op.set_id(*id);
    }
    if (const auto after = f.optional_child("after")) {
        if (after->IsScalar()) {
            op.add_after(after->Scalar());
        } else if (after->IsSequence() && after->size() > 0) {
            for (const auto& item : *after) {
                if (!item.IsScalar() || item.Scalar().empty()) f.fail("after", "expected ids (names) of operations");
                op.add_after(item.Scalar());
            }
        } else {
            f.fail("after", "expected an id or a non-empty list of ids of operations that must finish first");
        }
    }
}

constexpr std::int64_t kMaxCopyBytes = std::int64_t{1} << 50;

/// A `copy`, `delay`, `record` or `wait` item.
Operation parse_operation(const YAML::Node& node, const std::string& source, const std::string& path) {
    YamlFields f(node, source, path);
    Operation op;
    op.set_where(yaml_location(node, source));
    op.stream = static_cast<int>(f.optional_integer("stream", 0, kMaxStreamId).value_or(0));
    if (node["copy"]) {
        op.kind = Operation::Kind::copy;
        op.copy.direction = f.choice("copy", {"h2d", "d2h"}) == "h2d" ? CopyDirection::host_to_device
                                                                     : CopyDirection::device_to_host;
        op.copy.bytes = static_cast<std::uint64_t>(f.integer("bytes", 1, kMaxCopyBytes));
        if (f.optional_child("memory"))
            op.copy.pinned = f.choice("memory", {"pinned", "pageable"}) == "pinned";
    } else if (node["delay"]) {
        op.kind = Operation::Kind::delay;
        const std::string text = f.string("delay");
        try {
            op.delay = parse_duration(text, "delay");
        } catch (const InputError& e) {
            f.fail("delay", e.what());
        }
    } else if (node["record"]) {
        op.kind = Operation::Kind::record;
        op.set_event(f.string("record"));
    } else {
        op.kind = Operation::Kind::wait;
        op.set_event(f.string("wait"));
    }
    if ((op.kind == Operation::Kind::record || op.kind == Operation::Kind::wait) && op.event().empty())
        f.fail(op.kind == Operation::Kind::record ? "record" : "wait", "expected an event name");
    read_dependencies(f, op);
    f.finish();
    return op;
}

bool is_operation_item(const YAML::Node& node) {
    return node.IsMap() && !node["kernel"] && (node["copy"] || node["delay"] || node["record"] || node["wait"]);
}

/// One launch mapping: `kernel`, `repeat`, `id`, `after`, and the kernel-spec keys as key=value pairs.
/// Returns whether the generator added operations after its launches (streamcluster's copies).
bool parse_launch(const YAML::Node& node, const std::string& source, const std::string& path, Application& app) {
    YamlFields f(node, source, path);
    const std::string kernel = f.string("kernel");
    if (find_kernel_generator(kernel) == nullptr)
        f.fail("kernel", "unknown kernel '" + kernel + "' (known kernels: " + kernel_generator_names() + ")");
    const auto repeat = static_cast<std::size_t>(f.optional_integer("repeat", 1, kMaxRepeat).value_or(1));

    std::vector<SpecEntry> entries;
    for (auto it = node.begin(); it != node.end(); ++it) {
        if (!it->first.IsScalar())
            throw InputError(yaml_location(it->first, source) + ": key in '" + path + "': expected a plain key name");
        const std::string key = it->first.Scalar();
        if (key == "kernel" || key == "repeat" || key == "id" || key == "after") continue;
        const YAML::Node value = it->second;
        if (!value.IsScalar() || value.Scalar().empty())
            throw InputError(yaml_location(value.IsNull() ? it->first : value, source) + ": key '" + path + "." + key +
                             "': expected a single value, got " +
                             (value.IsSequence() ? "a list" : value.IsMap() ? "a mapping" : "nothing"));
        entries.push_back({key, value.Scalar(), yaml_location(value, source)});
    }
    SpecArgs args(kernel, yaml_location(node, source), path, std::move(entries));
    const SpecLaunches built = build_kernel_launches(args);  // count > 1: a multi-launch kernel (apsp-minplus)
    if (built.total() > kMaxWorkloadLaunches || app.launches.size() + repeat * built.total() > kMaxWorkloadLaunches)
        f.fail(f.has("repeat") ? "repeat" : "", "the workload would have more than " +
                                                   std::to_string(kMaxWorkloadLaunches) + " launches (after repeats)");
    Operation op;
    op.set_where(yaml_location(node, source));
    read_dependencies(f, op);
    const std::size_t first = app.launches.size();
    for (std::size_t i = 0; i < repeat; ++i) built.append_to(app.launches);
    if (!op.id().empty() && app.launches.size() - first != 1)
        f.fail("id", "an id names one operation, but this item stands for " + std::to_string(app.launches.size() - first) +
                         " launches (give the id to a `record` after them instead)");
    // The generator's operations written by this item: one shared names record when they have none.
    OperationNames item_where;
    item_where.where = op.where();
    const SharedNames where_only(std::move(item_where));
    for (std::size_t i = first; i < app.launches.size(); ++i) {
        op.launch = i;
        op.stream = app.launches[i].stream;
        app.operations.push_back(op);
        for (Operation extra : built.after_each) {
            extra.stream = op.stream;
            if (extra.has_names())
                extra.set_where(op.where());
            else
                extra.share_names(where_only);
            app.operations.push_back(std::move(extra));
        }
    }
    return !built.after_each.empty();
}

}  // namespace

Application parse_workload(const std::string& yaml, const std::string& source) {
    try {
        const YAML::Node root = parse_yaml_document(yaml, source);
        std::size_t visited = 0;
        check_duplicate_keys(root, source, visited);
        YamlFields top(root, source, "");
        Application app;
        app.description = top.optional_string("description").value_or(source);
        if (const auto streams = top.optional_child("streams")) app.streams = parse_streams(*streams, source);
        parse_partitions(top, root, source, app);
        if (top.has("issue")) {
            const std::string issue = top.choice("issue", {"queued", "host-calls", "graph"});
            app.host_issue = issue == "host-calls" ? HostIssue::calls : issue == "graph" ? HostIssue::graph : HostIssue::queued;
        }
        const YAML::Node launches = top.child("launches");
        if (!launches.IsSequence() || launches.size() == 0)
            top.fail("launches", "expected a non-empty list of launches (each a mapping with 'kernel: NAME')");
        bool plain = true;  // only kernels, no ids or `after`: leave `operations` empty (launch order)
        for (std::size_t i = 0; i < launches.size(); ++i) {
            if (is_operation_item(launches[i])) {
                app.operations.push_back(parse_operation(launches[i], source, indexed("launches", i)));
                plain = false;
            } else {
                const bool extra = parse_launch(launches[i], source, indexed("launches", i), app);
                plain = plain && !extra && !launches[i]["id"].IsDefined() && !launches[i]["after"].IsDefined();
            }
        }
        if (plain) std::vector<Operation>().swap(app.operations);  // frees them: a million launches need none
        if (app.launches.empty())
            top.fail("launches", "expected at least one kernel launch (copies, delays and events alone run nothing)");
        top.finish();
        return app;
    } catch (const YAML::Exception& e) {
        throw InputError(source + ":" + std::to_string(e.mark.line + 1) + ": invalid workload file: " + e.msg);
    }
}

Application load_workload_file(const std::string& path) {
    return parse_workload(read_text_file(path, "workload file", kMaxWorkloadFileBytes), path);
}

}  // namespace gpusched::workloads

// The workload file's `host` section: host threads and their launch and sync calls, read and written.
#include "host_section.h"

#include "gpusched/support/input_error.h"
#include "gpusched/support/yaml_fields.h"
#include "gpusched/workloads/workload_writer.h"

namespace gpusched::workloads {

namespace {

constexpr int kMaxStream = 1023;

Time read_time(YamlFields& f, const std::string& key) {
    const auto text = f.optional_string(key);
    if (!text) return 0;
    try {
        return parse_duration(*text, key);
    } catch (const InputError& e) {
        f.fail(key, e.what());
    }
}

std::size_t read_index(const YAML::Node& node, YamlFields& f, std::size_t items) {
    const auto value = node.IsScalar() ? parse_integer(node.Scalar()) : std::nullopt;
    if (!value || *value < 0 || static_cast<std::size_t>(*value) >= items)
        f.fail("launch", "expected an index into launches, 0.." + std::to_string(items - 1) + ", or a non-empty list of them");
    return static_cast<std::size_t>(*value);
}

HostCall read_call(const YAML::Node& node, const std::string& source, const std::string& path, std::size_t items) {
    YamlFields f(node, source, path);
    HostCall call;
    call.where = yaml_location(node, source);
    if (f.has("launch")) {
        const YAML::Node launch = f.child("launch");
        if (launch.IsSequence()) {
            if (launch.size() == 0) f.fail("launch", "expected a non-empty list of indices into launches");
            for (const auto& entry : launch) call.ops.push_back(read_index(entry, f, items));
        } else {
            call.ops.push_back(read_index(launch, f, items));
        }
    } else if (f.has("sync")) {
        call.kind = HostCall::Kind::sync;
        const std::string target = f.string("sync");
        if (target != "device") {
            const auto stream = parse_integer(target);
            if (!stream || *stream < 0 || *stream > kMaxStream) f.fail("sync", "expected a stream 0..1023 or 'device', got '" + target + "'");
            call.stream = static_cast<int>(*stream);
        }
    } else {
        f.fail("", "expected a call: {launch: ITEM, gap, cpu[, submit]} or {sync: STREAM|device, gap, cpu}");
    }
    call.gap = read_time(f, "gap");
    call.cpu = read_time(f, "cpu");
    if (f.has("submit")) {
        if (call.kind != HostCall::Kind::launch) f.fail("submit", "only a launch call submits work (a sync has no 'submit')");
        call.submit = read_time(f, "submit");
        if (*call.submit > call.cpu)
            f.fail("submit", "expected at most the call's cpu (" + exact_microseconds(call.cpu) + "): the work is submitted "
                             "within the call, got " + exact_microseconds(*call.submit));
    }
    f.finish();
    return call;
}

}  // namespace

std::vector<HostThread> read_host_section(const YAML::Node& node, const std::string& source, std::size_t items) {
    if (!node.IsSequence() || node.size() == 0)
        throw InputError(yaml_location(node, source) + ": key 'host': expected a non-empty list of threads ({thread, calls})");
    std::vector<HostThread> threads;
    for (std::size_t t = 0; t < node.size(); ++t) {
        YamlFields f(node[t], source, indexed("host", t));
        HostThread thread;
        thread.where = yaml_location(node[t], source);
        thread.name = f.string("thread");
        for (const char c : thread.name)
            if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) f.fail("thread", "expected a name without control characters");
        const YAML::Node calls = f.child("calls");
        if (!calls.IsSequence() || calls.size() == 0) f.fail("calls", "expected a non-empty list of calls");
        for (std::size_t c = 0; c < calls.size(); ++c)
            thread.calls.push_back(read_call(calls[c], source, indexed("host", t) + "." + indexed("calls", c), items));
        f.finish();
        threads.push_back(std::move(thread));
    }
    return threads;
}

void write_host_section(std::ostream& out, const std::vector<HostThread>& threads) {
    if (threads.empty()) return;
    out << "host:\n";
    for (const HostThread& thread : threads) {
        out << "  - thread: \"";
        for (const char c : thread.name) {
            if (c == '"' || c == '\\') out << '\\';
            out << c;
        }
        out << "\"\n    calls:\n";
        for (const HostCall& call : thread.calls) {
            out << "      - {";
            if (call.kind == HostCall::Kind::launch) {
                out << "launch: ";
                if (call.ops.size() == 1) {
                    out << call.ops[0];
                } else {
                    out << "[";
                    for (std::size_t i = 0; i < call.ops.size(); ++i) out << (i == 0 ? "" : ", ") << call.ops[i];
                    out << "]";
                }
            } else {
                out << "sync: " << (call.stream < 0 ? std::string("device") : std::to_string(call.stream));
            }
            out << ", gap: " << exact_microseconds(call.gap) << ", cpu: " << exact_microseconds(call.cpu);
            if (call.submit) out << ", submit: " << exact_microseconds(*call.submit);
            out << "}\n";
        }
    }
}

}  // namespace gpusched::workloads

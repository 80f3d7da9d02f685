// The shapes pass: a streamed read of a Kineto trace's cpu_op events (Input Dims, Input type, Concrete Inputs, flops) and the kernel -> operator links.
#include "gpusched/importers/op_shapes.h"

#include <algorithm>
#include <istream>
#include <map>

#include <nlohmann/json.hpp>

#include "gpusched/importers/json_stream_buf.h"
#include "gpusched/support/input_error.h"

namespace gpusched::importers {

namespace {

using json = nlohmann::json;

/// Builds each traceEvents element as a small JSON value and hands it on; skips everything else.
class EventSax {
public:
    EventSax(std::string path, int max_depth, OpShapes& shapes, std::vector<KernelLink>& kernels, std::vector<RuntimeLink>& runtime)
        : path_(std::move(path)), max_depth_(max_depth), shapes_(shapes), kernels_(kernels), runtime_(runtime) {}

    bool null() { return value(json(nullptr)); }
    bool boolean(bool v) { return value(json(v)); }
    bool number_integer(json::number_integer_t v) { return value(json(v)); }
    bool number_unsigned(json::number_unsigned_t v) { return value(json(v)); }
    bool number_float(json::number_float_t v, const json::string_t&) { return value(json(v)); }
    bool string(json::string_t& v) { return value(json(v)); }
    bool binary(json::binary_t&) { return value(json(nullptr)); }

    bool start_object(std::size_t) { return open(json::object()); }
    bool start_array(std::size_t) {
        if (depth_ == 1 && key_ == "traceEvents") {
            in_events_ = true;
            ++depth_;
            return true;
        }
        return open(json::array());
    }
    bool end_object() { return close(); }
    bool end_array() {
        if (in_events_ && depth_ == 2) {
            in_events_ = false;
            --depth_;
            return true;
        }
        return close();
    }
    bool key(json::string_t& k) {
        key_ = k;
        return true;
    }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) {
        throw InputError(path_ + ": not valid JSON at text byte " + std::to_string(position) + ": " + e.what());
    }

private:
    [[nodiscard]] bool building() const { return in_events_ && depth_ >= 2; }

    bool value(json v) {
        if (!building() || stack_.empty()) {
            if (in_events_ && depth_ == 2) ++index_;  // a non-object element of traceEvents
            return true;
        }
        json& top = *stack_.back();
        if (top.is_array()) top.push_back(std::move(v));
        else top[key_] = std::move(v);
        return true;
    }

    bool open(json container) {
        if (++depth_ > max_depth_) throw InputError(path_ + ": JSON nested deeper than " + std::to_string(max_depth_) + " levels");
        if (!building()) return true;
        if (stack_.empty()) {
            event_ = std::move(container);
            stack_.push_back(&event_);
            return true;
        }
        json& top = *stack_.back();
        if (top.is_array()) {
            top.push_back(std::move(container));
            stack_.push_back(&top.back());
        } else {
            top[key_] = std::move(container);
            stack_.push_back(&top[key_]);
        }
        return true;
    }

    bool close() {
        --depth_;
        if (stack_.empty()) return true;
        stack_.pop_back();
        if (stack_.empty()) {
            take(event_, index_++);
            event_ = json();
        }
        return true;
    }

    static std::optional<std::int64_t> integer(const json& object, const char* key) {
        const auto it = object.find(key);
        if (it == object.end() || !it->is_number()) return std::nullopt;
        if (it->is_number_integer()) return it->get<std::int64_t>();
        const double v = it->get<double>();
        if (!(v > -9e18 && v < 9e18)) return std::nullopt;
        return static_cast<std::int64_t>(v);
    }

    static std::string text_of(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

    /// A string field, "" when absent or of another type (the first pass has checked what it uses).
    static std::string string_field(const json& object, const char* key) {
        const auto it = object.find(key);
        return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
    }

    void take(const json& e, std::uint64_t index) {
        if (!e.is_object() || string_field(e, "ph") != "X") return;
        const std::string cat = string_field(e, "cat");
        const json empty = json::object();
        const json& args = e.contains("args") && e["args"].is_object() ? e["args"] : empty;
        if (cat == "kernel") {
            kernels_.push_back({index, integer(args, "External id").value_or(-1), integer(args, "correlation").value_or(-1)});
        } else if (cat == "cuda_runtime" || cat == "cuda_driver") {
            if (const auto corr = integer(args, "correlation"); corr && e.contains("ts") && e["ts"].is_number())
                runtime_.push_back({*corr, thread_of(e), e["ts"].get<double>()});
        } else if (cat == "cpu_op") {
            take_op(e, args);
        }
    }

    static std::string thread_of(const json& e) {
        return (e.contains("pid") ? text_of(e["pid"]) : std::string()) + "/" + (e.contains("tid") ? text_of(e["tid"]) : std::string());
    }

    void take_op(const json& e, const json& args) {
        if (!e.contains("ts") || !e["ts"].is_number() || !e.contains("dur") || !e["dur"].is_number()) return;
        CpuOp op;
        op.name = string_field(e, "name");
        op.thread = thread_of(e);
        op.start_us = e["ts"].get<double>();
        op.end_us = op.start_us + e["dur"].get<double>();
        op.external_id = integer(args, "External id").value_or(-1);
        if (const auto it = args.find("flops"); it != args.end() && it->is_number() && it->get<double>() >= 0) op.flops = it->get<double>();
        const auto dims = args.find("Input Dims");
        const auto types = args.find("Input type");
        const auto concrete = args.find("Concrete Inputs");
        if (dims != args.end() && dims->is_array()) {
            op.has_shapes = true;
            ++shapes_.ops_with_shapes;
            for (std::size_t i = 0; i < dims->size(); ++i) {
                OpInput input;
                const json& d = (*dims)[i];
                input.dims_are_list = d.is_array() && std::all_of(d.begin(), d.end(), [](const json& x) { return x.is_number_integer(); });
                if (input.dims_are_list)
                    for (const json& x : d) input.dims.push_back(x.get<std::int64_t>());
                if (types != args.end() && types->is_array() && i < types->size()) input.type = text_of((*types)[i]);
                if (concrete != args.end() && concrete->is_array() && i < concrete->size()) input.concrete = text_of((*concrete)[i]);
                op.inputs.push_back(std::move(input));
            }
        }
        shapes_.ops.push_back(std::move(op));
    }

    std::string path_;
    int max_depth_;
    OpShapes& shapes_;
    std::vector<KernelLink>& kernels_;
    std::vector<RuntimeLink>& runtime_;
    std::vector<json*> stack_;
    json event_;
    std::string key_;
    int depth_ = 0;
    bool in_events_ = false;
    std::uint64_t index_ = 0;
};

}  // namespace

void link_op_shapes(OpShapes& shapes, const std::vector<KernelLink>& kernels, const std::vector<RuntimeLink>& runtime) {
    // Parents: per thread, operators by start (the longer first at a tie), a stack of the open ones.
    std::map<std::string, std::vector<int>> by_thread;
    for (std::size_t i = 0; i < shapes.ops.size(); ++i) by_thread[shapes.ops[i].thread].push_back(static_cast<int>(i));
    for (auto& [thread, list] : by_thread) {
        std::stable_sort(list.begin(), list.end(), [&](int a, int b) {
            const CpuOp& x = shapes.ops[a];
            const CpuOp& y = shapes.ops[b];
            return x.start_us != y.start_us ? x.start_us < y.start_us : x.end_us > y.end_us;
        });
        std::vector<int> open;
        for (const int i : list) {
            while (!open.empty() && shapes.ops[open.back()].end_us < shapes.ops[i].end_us) open.pop_back();
            shapes.ops[i].parent = open.empty() ? -1 : open.back();
            open.push_back(i);
        }
    }
    std::unordered_map<std::int64_t, int> by_external;
    for (std::size_t i = 0; i < shapes.ops.size(); ++i)
        if (shapes.ops[i].external_id >= 0) by_external.emplace(shapes.ops[i].external_id, static_cast<int>(i));
    std::unordered_map<std::int64_t, const RuntimeLink*> calls;
    for (const RuntimeLink& call : runtime) calls.emplace(call.correlation, &call);
    for (const KernelLink& kernel : kernels) {
        if (const auto it = by_external.find(kernel.external_id); kernel.external_id >= 0 && it != by_external.end()) {
            shapes.kernel_op[kernel.event_index] = it->second;
            continue;
        }
        const auto call = calls.find(kernel.correlation);
        if (kernel.correlation < 0 || call == calls.end()) continue;
        const auto thread = by_thread.find(call->second->thread);
        if (thread == by_thread.end()) continue;
        int innermost = -1;
        for (const int i : thread->second) {
            const CpuOp& op = shapes.ops[i];
            if (op.start_us > call->second->start_us) break;
            if (op.end_us >= call->second->start_us) innermost = i;  // later starts enclosing it are deeper
        }
        if (innermost >= 0) shapes.kernel_op[kernel.event_index] = innermost;
    }
}

OpShapes read_op_shapes(const std::string& path, const ReadLimits& limits) {
    OpShapes shapes;
    std::vector<KernelLink> kernels;
    std::vector<RuntimeLink> runtime;
    GzipStream source(path, limits.stream);
    JsonStreamBuf buffer(source);
    std::istream in(&buffer);
    EventSax sax(path, limits.max_depth, shapes, kernels, runtime);
    json::sax_parse(in, &sax, nlohmann::detail::input_format_t::json, true);
    link_op_shapes(shapes, kernels, runtime);
    return shapes;
}

}  // namespace gpusched::importers

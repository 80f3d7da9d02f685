// Kineto trace reader: a SAX handler over the streamed JSON that fills PendingEvents and hands them to the TraceBuilder.
#include "gpusched/importers/kineto_reader.h"

#include <istream>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusched/importers/decimal_number.h"
#include "gpusched/importers/json_stream_buf.h"
#include "gpusched/support/input_error.h"

namespace gpusched::importers {

namespace {

using json = nlohmann::json;

/// What a JSON object or array is to the importer.
enum class Role { root, trace_events, event, args, dims, device_props, device, recorder, skip };

/// The keys read; everything else is skipped.
enum class Field {
    none, trace_events, device_properties, recorder,                          // top level
    ph, cat, name, ts, dur, args, tid,                                        // event
    device, stream, correlation, regs, shared, static_shared, dynamic_shared,  // args
    priority, bytes, wait_on_stream, record_correlation, grid, block, cluster,
    id, compute_major, compute_minor, sm_count,                               // deviceProperties
    version,                                                                  // gpuschedRecorder
};

Field field_of(Role role, std::string_view key) {
    switch (role) {
        case Role::root:
            if (key == "traceEvents") return Field::trace_events;
            if (key == "deviceProperties") return Field::device_properties;
            if (key == "gpuschedRecorder") return Field::recorder;
            return Field::none;
        case Role::event:
            if (key == "ph") return Field::ph;
            if (key == "cat") return Field::cat;
            if (key == "name") return Field::name;
            if (key == "ts") return Field::ts;
            if (key == "dur") return Field::dur;
            if (key == "args") return Field::args;
            if (key == "tid") return Field::tid;
            return Field::none;
        case Role::args:
            if (key == "device") return Field::device;
            if (key == "stream") return Field::stream;
            if (key == "correlation") return Field::correlation;
            if (key == "registers per thread") return Field::regs;
            if (key == "shared memory") return Field::shared;
            if (key == "static shared memory") return Field::static_shared;
            if (key == "dynamic shared memory") return Field::dynamic_shared;
            if (key == "stream priority" || key == "priority") return Field::priority;  // recorder; Kineto (CUDA 13.1+)
            if (key == "bytes") return Field::bytes;
            if (key == "wait_on_stream") return Field::wait_on_stream;
            if (key == "wait_on_cuda_event_record_corr_id") return Field::record_correlation;
            if (key == "grid") return Field::grid;
            if (key == "block") return Field::block;
            if (key == "cluster") return Field::cluster;
            return Field::none;
        case Role::device:
            if (key == "id") return Field::id;
            if (key == "name") return Field::name;
            if (key == "computeMajor") return Field::compute_major;
            if (key == "computeMinor") return Field::compute_minor;
            if (key == "numSms") return Field::sm_count;
            return Field::none;
        case Role::recorder:
            return key == "version" ? Field::version : Field::none;
        default:
            return Field::none;
    }
}

/// A number as the parser saw it: an integer, or a float with its text.
struct Number {
    bool integer = true;
    std::int64_t value = 0;
    bool too_big = false;  ///< an unsigned integer above int64
    const std::string* text = nullptr;
};

class KinetoSax {
public:
    KinetoSax(ImportedTrace& trace, const ReadLimits& limits) : trace_(trace), limits_(limits), builder_(trace, limits.trace) {}

    bool null() { return scalar(); }
    bool boolean(bool) { return scalar(); }
    bool number_integer(json::number_integer_t value) { return number({true, value, false, nullptr}); }
    bool number_unsigned(json::number_unsigned_t value) {
        const bool big = value > static_cast<std::uint64_t>(INT64_MAX);
        return number({true, big ? 0 : static_cast<std::int64_t>(value), big, nullptr});
    }
    bool number_float(json::number_float_t, const json::string_t& text) { return number({false, 0, false, &text}); }
    bool binary(json::binary_t&) { return scalar(); }

    bool string(json::string_t& value) {
        if (!element_starts()) return true;
        const Role role = top();
        if (role == Role::trace_events || role == Role::device_props) fail_element("is not an object");
        if (role == Role::root && (field_ == Field::trace_events || field_ == Field::device_properties))
            throw InputError(trace_.path + ": '" + key_ + "' is not an array (not a Kineto trace)");
        if (role == Role::event) {
            if (field_ == Field::ph) pending_.ph = value;
            else if (field_ == Field::cat) pending_.cat = value;
            else if (field_ == Field::name) pending_.name = value;
            else if (field_ == Field::ts || field_ == Field::dur) fail_event("'" + key_name() + "' must be a number");
        } else if (role == Role::device && field_ == Field::name) {
            device_.name = value;
        } else if (role == Role::recorder && field_ == Field::version) {
            trace_.recorder_version = value.substr(0, 64);
        } else if (role == Role::args && field_ != Field::none) {
            fail_event("'args." + key_ + "' must be a number");
        } else if (role == Role::dims) {
            fail_event("'args." + key_ + "' must hold numbers");
        }
        return true;
    }

    bool start_object(std::size_t) {
        Role role = Role::skip;
        if (stack_.empty()) role = Role::root;
        else if (!element_starts()) role = Role::skip;
        else if (top() == Role::trace_events) role = Role::event;
        else if (top() == Role::event && field_ == Field::args) role = Role::args;
        else if (top() == Role::device_props) role = Role::device;
        else if (top() == Role::root && field_ == Field::recorder) role = Role::recorder, trace_.has_recorder = true;
        else if (top() == Role::root && (field_ == Field::trace_events || field_ == Field::device_properties))
            throw InputError(trace_.path + ": '" + key_ + "' is not an array (not a Kineto trace)");
        push(role);
        if (role == Role::event) pending_.reset();
        if (role == Role::device) device_ = TraceDevice{}, device_.event_index = device_index_ - 1;
        return true;
    }

    bool end_object() {
        const Role role = pop();
        if (role == Role::event) builder_.finish_event(pending_, event_index_ - 1);
        if (role == Role::device) finish_device();
        return true;
    }

    bool start_array(std::size_t) {
        if (stack_.empty())
            throw InputError(trace_.path + ": not a Kineto trace: the top level is a JSON array (a plain Chrome trace "
                                           "without deviceProperties); expected an object with a traceEvents array");
        Role role = Role::skip;
        if (element_starts()) {
            if (top() == Role::root && field_ == Field::trace_events) role = Role::trace_events, seen_trace_events_ = true;
            else if (top() == Role::root && field_ == Field::device_properties) role = Role::device_props;
            else if (top() == Role::args && (field_ == Field::grid || field_ == Field::block || field_ == Field::cluster)) {
                role = Role::dims;
                dims_field_ = field_;
                dims_count_ = 0;
            } else if (top() == Role::trace_events || top() == Role::device_props) {
                fail_element("is an array, expected an object");
            }
        }
        push(role);
        return true;
    }

    bool end_array() {
        if (pop() == Role::dims) {
            int& size = dims_field_ == Field::grid ? pending_.grid_size : dims_field_ == Field::block ? pending_.block_size : pending_.cluster_size;
            size = dims_count_;
        }
        return true;
    }

    bool key(json::string_t& key) {
        const Role role = top();
        field_ = field_of(role, key);
        if (field_ != Field::none) key_ = key;
        if (role == Role::root && field_ == Field::trace_events && seen_trace_events_)
            throw InputError(trace_.path + ": 'traceEvents' is given twice");
        return true;
    }

    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) {
        std::string detail = e.what();
        const auto bracket = detail.find("] ");
        if (bracket != std::string::npos) detail = detail.substr(bracket + 2);
        std::string where = trace_.path + ": not valid JSON at text byte " + std::to_string(position);
        if (in_trace_events()) where += " (in traceEvents[" + std::to_string(event_index_ == 0 ? 0 : event_index_ - 1) + "])";
        throw InputError(where + ": " + detail);
    }

    void finish() const {
        if (!seen_trace_events_)
            throw InputError(trace_.path + ": not a Kineto trace: no 'traceEvents' array at the top level");
    }

private:
    [[nodiscard]] Role top() const { return stack_.empty() ? Role::skip : stack_.back(); }
    [[nodiscard]] bool in_trace_events() const {
        for (const Role r : stack_)
            if (r == Role::trace_events) return true;
        return false;
    }
    [[nodiscard]] std::string key_name() const { return key_; }

    void push(Role role) {
        if (static_cast<int>(stack_.size()) >= limits_.max_depth)
            throw InputError(trace_.path + ": JSON nested deeper than " + std::to_string(limits_.max_depth) + " levels" +
                             (in_trace_events() ? " in traceEvents[" + std::to_string(event_index_ - 1) + "]" : std::string()));
        stack_.push_back(role);
        field_ = Field::none;
    }
    Role pop() {
        const Role role = stack_.back();
        stack_.pop_back();
        field_ = Field::none;
        return role;
    }

    /// Counts an element of traceEvents / deviceProperties as it starts; false for values to skip.
    bool element_starts() {
        const Role role = top();
        if (role == Role::skip) return false;
        if (role == Role::trace_events) {
            if (++event_index_ > limits_.trace.max_events)
                throw InputError(trace_.path + ": more than " + std::to_string(limits_.trace.max_events) +
                                 " trace events (the importer's cap)");
            trace_.event_count = event_index_;
        } else if (role == Role::device_props) {
            ++device_index_;
        }
        return true;
    }

    [[noreturn]] void fail_event(const std::string& detail) const {
        throw InputError(builder_.where(event_index_ - 1) + ": " + detail);
    }
    [[noreturn]] void fail_element(const std::string& detail) const {
        if (top() == Role::device_props)
            throw InputError(trace_.path + ": deviceProperties[" + std::to_string(device_index_ - 1) + "] " + detail);
        throw InputError(builder_.where(event_index_ - 1) + " " + detail);
    }

    bool scalar() {
        if (!element_starts()) return true;
        if (top() == Role::trace_events || top() == Role::device_props) fail_element("is not an object");
        if (top() == Role::root && (field_ == Field::trace_events || field_ == Field::device_properties))
            throw InputError(trace_.path + ": '" + key_ + "' is not an array (not a Kineto trace)");
        if ((top() == Role::event && (field_ == Field::ts || field_ == Field::dur)) || (top() == Role::args && field_ != Field::none) ||
            top() == Role::dims)
            fail_event("'" + std::string(top() == Role::event ? "" : "args.") + key_ + "' must be a number");
        return true;
    }

    /// An integer field's value, or an InputError naming it.
    std::int64_t integer(const Number& n, const std::string& where) const {
        if (n.too_big) throw InputError(where + ": '" + key_ + "' is too large");
        if (n.integer) return n.value;
        const auto value = scaled_decimal(*n.text, 0);
        if (!value || *scaled_decimal(*n.text, 3) != *value * 1000) throw InputError(where + ": '" + key_ + "' must be an integer, got " + *n.text);
        return *value;
    }

    /// ts (microseconds since an arbitrary origin, maybe the epoch) as ps after the first ts seen.
    TraceTime timestamp(const Number& n) {
        std::optional<std::int64_t> ns;
        if (n.integer && !n.too_big && n.value > INT64_MIN / 1000 && n.value < INT64_MAX / 1000) ns = n.value * 1000;
        else if (!n.integer) ns = scaled_decimal(*n.text, 3);
        if (!ns) fail_event("'ts' is out of range");
        if (!base_ns_) base_ns_ = *ns;
        std::int64_t relative = 0;
        constexpr std::int64_t kMaxRelativeNs = (std::int64_t{1} << 62) / 1000;
        if (__builtin_sub_overflow(*ns, *base_ns_, &relative) || relative > kMaxRelativeNs || relative < -kMaxRelativeNs)
            fail_event("'ts' is more than 2^62 ps (about 53 days) from the first event's");
        return relative * 1000;
    }

    TraceTime duration(const Number& n) {
        std::optional<std::int64_t> ps;
        if (n.integer && !n.too_big && n.value >= 0 && n.value < (std::int64_t{1} << 62) / 1'000'000) ps = n.value * 1'000'000;
        else if (!n.integer) ps = scaled_decimal(*n.text, 6);
        if (!ps || *ps < 0 || *ps >= (std::int64_t{1} << 62)) fail_event("'dur' must be 0..2^62 ps (about 53 days)");
        return *ps;
    }

    bool number(const Number& n) {
        if (!element_starts()) return true;
        const Role role = top();
        if (role == Role::trace_events || role == Role::device_props) fail_element("is not an object");
        if (role == Role::root && (field_ == Field::trace_events || field_ == Field::device_properties))
            throw InputError(trace_.path + ": '" + key_ + "' is not an array (not a Kineto trace)");
        const std::string where = role == Role::device ? trace_.path + ": deviceProperties[" + std::to_string(device_index_ - 1) + "]"
                                                       : builder_.where(event_index_ == 0 ? 0 : event_index_ - 1);
        if (role == Role::event) {
            if (field_ == Field::ts) pending_.ts = timestamp(n);
            else if (field_ == Field::dur) pending_.dur = duration(n);
            else if (field_ == Field::tid && n.integer && !n.too_big) pending_.tid = n.value;
            else if (field_ == Field::name) fail_event("'name' must be a string");
        } else if (role == Role::args) {
            std::optional<std::int64_t>* target = nullptr;
            switch (field_) {
                case Field::device: target = &pending_.device; break;
                case Field::stream: target = &pending_.stream; break;
                case Field::correlation: target = &pending_.correlation; break;
                case Field::regs: target = &pending_.regs; break;
                case Field::shared: target = &pending_.shared; break;
                case Field::static_shared: target = &pending_.static_shared; break;
                case Field::dynamic_shared: target = &pending_.dynamic_shared; break;
                case Field::priority: target = &pending_.priority; break;
                case Field::bytes: target = &pending_.bytes; break;
                case Field::wait_on_stream: target = &pending_.wait_on_stream; break;
                case Field::record_correlation: target = &pending_.record_correlation; break;
                default: break;
            }
            if (target != nullptr) *target = integer(n, where);
        } else if (role == Role::dims) {
            if (dims_count_ >= 3) fail_event("'args." + key_ + "' has more than 3 values");
            auto& dims = dims_field_ == Field::grid ? pending_.grid : dims_field_ == Field::block ? pending_.block : pending_.cluster;
            dims[dims_count_++] = integer(n, where);
        } else if (role == Role::device) {
            const auto bounded = [&](std::int64_t lo, std::int64_t hi) {
                const std::int64_t v = integer(n, where);
                if (v < lo || v > hi) throw InputError(where + ": '" + key_ + "' " + std::to_string(v) + " is outside " + std::to_string(lo) + ".." + std::to_string(hi));
                return static_cast<int>(v);
            };
            if (field_ == Field::id) device_.id = integer(n, where);
            else if (field_ == Field::compute_major) device_.cc_major = bounded(0, 100);
            else if (field_ == Field::compute_minor) device_.cc_minor = bounded(0, 100);
            else if (field_ == Field::sm_count) device_.sm_count = bounded(1, 100000);
        } else if (role == Role::recorder && field_ == Field::version) {
            trace_.recorder_version = n.integer ? std::to_string(n.value) : n.text->substr(0, 64);
        }
        return true;
    }

    void finish_device() {
        const std::string where = trace_.path + ": deviceProperties[" + std::to_string(device_.event_index) + "]";
        if (device_.name.empty()) throw InputError(where + ": missing 'name'");
        if (device_.sm_count == 0) throw InputError(where + ": missing 'numSms'");
        for (const auto& d : trace_.devices)
            if (d.id == device_.id) throw InputError(where + ": device id " + std::to_string(d.id) + " is listed twice");
        if (trace_.devices.size() >= 1024) throw InputError(where + ": more than 1024 devices");
        trace_.devices.push_back(device_);
    }

    ImportedTrace& trace_;
    const ReadLimits& limits_;
    TraceBuilder builder_;
    std::vector<Role> stack_;
    Field field_ = Field::none;
    std::string key_;
    Field dims_field_ = Field::none;
    int dims_count_ = 0;
    PendingEvent pending_;
    TraceDevice device_;
    std::uint64_t event_index_ = 0;
    std::uint64_t device_index_ = 0;
    bool seen_trace_events_ = false;
    std::optional<std::int64_t> base_ns_;
};

}  // namespace

ImportedTrace read_kineto_trace(const std::string& path, const ReadLimits& limits) {
    ImportedTrace trace;
    trace.path = path;
    GzipStream source(path, limits.stream);
    JsonStreamBuf buffer(source);
    std::istream in(&buffer);
    KinetoSax sax(trace, limits);
    json::sax_parse(in, &sax, nlohmann::detail::input_format_t::json, true);
    sax.finish();
    return trace;
}

}  // namespace gpusched::importers

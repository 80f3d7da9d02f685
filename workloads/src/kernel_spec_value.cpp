// Parsing, editing and printing of one-line kernel specs.
#include "gpusched/workloads/kernel_spec_value.h"

#include <algorithm>
#include <set>
#include <utility>

#include "gpusched/support/input_error.h"
#include "gpusched/support/text.h"
#include "gpusched/workloads/generator_registry.h"

namespace gpusched::workloads {

namespace {

std::string hex_byte(unsigned char c) {
    static constexpr char digits[] = "0123456789abcdef";
    return std::string("0x") + digits[c >> 4] + digits[c & 15];
}

bool printable(const std::string& text) {
    return std::all_of(text.begin(), text.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u >= 0x20 && u <= 0x7e;
    });
}

}  // namespace

std::string unknown_kernel_message(const std::string& where, const std::string& name) {
    return where + ": unknown kernel '" + name + "' (known kernels: " + kernel_generator_names() + ")";
}

KernelSpec::KernelSpec(std::string name, std::string where) : name_(std::move(name)), where_(std::move(where)) {}

std::string KernelSpec::name_of(const std::string& text) { return trim(text.substr(0, text.find(':'))); }

KernelSpec KernelSpec::parse(const std::string& spec, const std::string& where) {
    if (spec.size() > kMaxSpecLength)
        throw InputError(where + ": kernel spec is " + std::to_string(spec.size()) + " characters long; at most " +
                         std::to_string(kMaxSpecLength) + " are allowed");
    for (std::size_t i = 0; i < spec.size(); ++i) {
        const auto c = static_cast<unsigned char>(spec[i]);
        if (c < 0x20 || c > 0x7e)
            throw InputError(where + ": kernel spec must be printable ASCII; found byte " + hex_byte(c) +
                             " at character " + std::to_string(i + 1));
    }
    const std::string text = trim(spec);
    const std::size_t colon = text.find(':');
    KernelSpec out(name_of(text), where);
    if (out.name_.empty())
        throw InputError(where + ": expected NAME or NAME:key=value,key=value,... (kernels: " +
                         kernel_generator_names() + "), got '" + spec + "'");
    if (find_kernel_generator(out.name_) == nullptr) throw InputError(unknown_kernel_message(where, out.name_));

    if (colon != std::string::npos && !trim(text.substr(colon + 1)).empty()) {
        for (const std::string& piece : split(text.substr(colon + 1), ',')) {
            const std::string item = trim(piece);
            const std::size_t equals = item.find('=');
            if (item.empty())
                throw InputError(where + ": empty item in kernel spec '" + spec + "' (expected key=value between commas)");
            if (equals == std::string::npos) throw InputError(where + ": key '" + item + "': expected key=value");
            std::string key = trim(item.substr(0, equals));
            std::string value = trim(item.substr(equals + 1));
            if (key.empty()) throw InputError(where + ": expected key=value, got '" + item + "'");
            if (value.empty()) throw InputError(where + ": key '" + key + "': empty value");
            out.entries_.push_back({std::move(key), std::move(value), ""});
        }
    }
    std::set<std::string> seen;
    for (const auto& entry : out.entries_)
        if (!seen.insert(entry.key).second) throw InputError(where + ": key '" + entry.key + "' is given twice");
    out.written_ = spec;
    return out;
}

std::vector<SpecEntry>::const_iterator KernelSpec::find(const std::string& key) const {
    return std::find_if(entries_.begin(), entries_.end(), [&](const SpecEntry& e) { return e.key == key; });
}

bool KernelSpec::has(const std::string& key) const { return find(key) != entries_.end(); }

std::optional<std::string> KernelSpec::get(const std::string& key) const {
    const auto it = find(key);
    if (it == entries_.end()) return std::nullopt;
    return it->value;
}

KernelSpec& KernelSpec::set(const std::string& key_text, const std::string& value_text, const std::string& entry_where) {
    const std::string key = trim(key_text);
    const std::string value = trim(value_text);
    if (key.empty() || !printable(key) || key.find_first_of(",=") != std::string::npos)
        throw InputError(where_ + ": key '" + key + "': a spec key is printable ASCII without ',' or '='");
    if (value.empty()) throw InputError(where_ + ": key '" + key + "': empty value");
    if (!printable(value) || value.find(',') != std::string::npos)
        throw InputError(where_ + ": key '" + key + "': expected a value of printable ASCII without ',', got '" + value +
                         "'");
    const auto it = find(key);
    if (it == entries_.end()) {
        entries_.push_back({key, value, entry_where});
    } else {
        if (it->value == value) return *this;
        entries_[static_cast<std::size_t>(it - entries_.cbegin())].value = value;
    }
    written_.reset();
    return *this;
}

KernelSpec& KernelSpec::add(const std::string& key, const std::string& value) {
    if (has(trim(key))) throw InputError(where_ + ": key '" + trim(key) + "' is given twice");
    return set(key, value);
}

bool KernelSpec::erase(const std::string& key) {
    const auto it = find(key);
    if (it == entries_.end()) return false;
    entries_.erase(it);
    written_.reset();
    return true;
}

KernelSpec KernelSpec::with(const std::string& key, const std::string& value) const {
    KernelSpec out = *this;
    out.set(key, value);
    return out;
}

KernelSpec KernelSpec::without(const std::string& key) const {
    KernelSpec out = *this;
    out.erase(key);
    return out;
}

std::string KernelSpec::to_string() const {
    std::string out = name_;
    for (std::size_t i = 0; i < entries_.size(); ++i)
        out += (i == 0 ? ":" : ",") + entries_[i].key + "=" + entries_[i].value;
    return out;
}

std::string KernelSpec::as_written() const { return written_ ? *written_ : to_string(); }

bool KernelSpec::operator==(const KernelSpec& other) const {
    return name_ == other.name_ &&
           std::equal(entries_.begin(), entries_.end(), other.entries_.begin(), other.entries_.end(),
                      [](const SpecEntry& a, const SpecEntry& b) { return a.key == b.key && a.value == b.value; });
}

}  // namespace gpusched::workloads

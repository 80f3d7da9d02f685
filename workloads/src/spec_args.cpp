// Strict typed access to the key=value pairs of one kernel spec.
#include "gpusched/workloads/spec_args.h"

#include <set>
#include <utility>

#include "gpusched/support/input_error.h"
#include "gpusched/support/yaml_fields.h"

namespace gpusched::workloads {

namespace {

std::string shown_quoted(const std::string& text) {
    std::string shown = text.size() > 40 ? text.substr(0, 40) + "..." : text;
    return "'" + shown + "'";
}

std::string range(std::int64_t min, std::int64_t max) {
    std::string out = "[";
    out += std::to_string(min);
    out += ", ";
    out += std::to_string(max);
    out += "]";
    return out;
}

bool is_label_char(char c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
    for (const char allowed : std::string("-_.+/#:()[]"))
        if (c == allowed) return true;
    return false;
}

}  // namespace

SpecArgs::SpecArgs(std::string kernel, std::string where, std::string path, std::vector<SpecEntry> entries)
    : kernel_(std::move(kernel)), where_(std::move(where)), path_(std::move(path)), entries_(std::move(entries)) {
    std::set<std::string> seen;
    for (const auto& entry : entries_)
        if (!seen.insert(entry.key).second)
            throw InputError((entry.where.empty() ? where_ : entry.where) + ": key '" + key_path(entry.key) +
                             "' is given twice");
}

SpecArgs::SpecArgs(const KernelSpec& spec, std::string path)
    : SpecArgs(spec.name(), spec.where(), std::move(path), spec.entries()) {}

const SpecEntry* SpecArgs::find(const std::string& key) const {
    for (const auto& entry : entries_)
        if (entry.key == key) return &entry;
    return nullptr;
}

bool SpecArgs::has(const std::string& key) const { return find(key) != nullptr; }

std::string SpecArgs::key_path(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

std::string SpecArgs::where(const std::string& key) const {
    const SpecEntry* entry = find(key);
    return entry != nullptr && !entry->where.empty() ? entry->where : where_;
}

void SpecArgs::fail(const std::string& key, const std::string& what) const {
    throw InputError(where(key) + ": key '" + key_path(key) + "': " + what);
}

void SpecArgs::fail_spec(const std::string& what) const {
    throw InputError(where_ + ": " + (path_.empty() ? "" : "'" + path_ + "': ") + "kernel '" + kernel_ + "': " + what);
}

std::string SpecArgs::text(const std::string& key) {
    const SpecEntry* entry = find(key);
    if (entry == nullptr) fail_spec("required key '" + key + "' is missing");
    return entry->value;
}

std::optional<std::string> SpecArgs::optional_text(const std::string& key) {
    if (!has(key)) return std::nullopt;
    return text(key);
}

std::int64_t SpecArgs::integer(const std::string& key, std::int64_t min, std::int64_t max) {
    const std::string value = text(key);
    const auto parsed = parse_integer(value);
    if (!parsed || *parsed < min || *parsed > max)
        fail(key, "expected an integer in " + range(min, max) + ", got " + shown_quoted(value));
    return *parsed;
}

std::optional<std::int64_t> SpecArgs::optional_integer(const std::string& key, std::int64_t min, std::int64_t max) {
    if (!has(key)) return std::nullopt;
    return integer(key, min, max);
}

Dim3 SpecArgs::dims(const std::string& key, std::uint64_t max_each, std::uint64_t max_product) {
    const std::string value = text(key);
    const auto bad = [&]() {
        fail(key, "expected X, XxY or XxYxZ with each factor in [1, " + std::to_string(max_each) +
                      "] and the product at most " + std::to_string(max_product) + ", got " + shown_quoted(value));
    };
    std::vector<std::uint64_t> factors;
    std::size_t start = 0;
    while (true) {
        const std::size_t x = value.find('x', start);
        const std::string part = value.substr(start, x == std::string::npos ? std::string::npos : x - start);
        const auto parsed = parse_integer(part);
        if (!parsed || *parsed < 1 || static_cast<std::uint64_t>(*parsed) > max_each) bad();
        factors.push_back(static_cast<std::uint64_t>(*parsed));
        if (factors.size() > 3) bad();
        if (x == std::string::npos) break;
        start = x + 1;
    }
    std::uint64_t product = 1;
    for (const auto f : factors) {
        if (product > max_product / f) bad();
        product *= f;
    }
    Dim3 d;
    d.x = static_cast<std::uint32_t>(factors[0]);
    if (factors.size() > 1) d.y = static_cast<std::uint32_t>(factors[1]);
    if (factors.size() > 2) d.z = static_cast<std::uint32_t>(factors[2]);
    return d;
}

std::string SpecArgs::label(const std::string& key) {
    const std::string value = text(key);
    bool ok = !value.empty() && value.size() <= 64;
    for (const char c : value) ok = ok && is_label_char(c);
    if (!ok)
        fail(key, "expected 1-64 characters from letters, digits and -_.+/#:()[], got " + shown_quoted(value));
    return value;
}

void SpecArgs::reject_unknown(const std::vector<std::string>& allowed) const {
    for (const auto& entry : entries_) {
        bool known = false;
        for (const auto& key : allowed) known = known || key == entry.key;
        if (known) continue;
        std::string list;
        for (const auto& key : allowed) list += (list.empty() ? "" : ", ") + key;
        fail(entry.key, "unknown key for kernel '" + kernel_ + "' (allowed: " + list + ")");
    }
}

void SpecArgs::reject_both(const std::string& a, const std::string& b) const {
    if (has(a) && has(b)) fail(b, "give either '" + a + "' or '" + b + "', not both");
}

}  // namespace gpusched::workloads

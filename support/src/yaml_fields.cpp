// Strict typed reading of YAML mappings with errors that name file, line and key.
#include "gpusched/support/yaml_fields.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>
#include <string_view>

#include "gpusched/support/input_error.h"

namespace gpusched {

namespace {

std::string describe(const YAML::Node& node) {
    if (!node.IsDefined() || node.IsNull()) return "nothing";
    if (node.IsMap()) return "a mapping";
    if (node.IsSequence()) return "a list";
    std::string text = node.Scalar();
    if (text.size() > 40) text = text.substr(0, 40) + "...";
    return "'" + text + "'";
}

std::string format_range(std::int64_t min, std::int64_t max) {
    std::ostringstream out;
    out << "[" << min << ", " << max << "]";
    return out.str();
}

std::string format_range(double min, double max) {
    std::ostringstream out;
    out << "[" << min << ", " << max << "]";
    return out.str();
}

}  // namespace

std::optional<std::int64_t> parse_integer(const std::string& text) {
    std::int64_t value = 0;
    const char* begin = text.data();
    const char* end = text.data() + text.size();
    if (begin != end && *begin == '+') ++begin;
    auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec != std::errc() || ptr != end || begin == end) return std::nullopt;
    return value;
}

std::optional<double> parse_number(const std::string& text) {
    double value = 0;
    const char* begin = text.data();
    const char* end = text.data() + text.size();
    if (begin != end && *begin == '+') ++begin;
    auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec != std::errc() || ptr != end || begin == end || !std::isfinite(value)) return std::nullopt;
    return value;
}

std::string yaml_location(const YAML::Node& node, const std::string& source) {
    const YAML::Mark mark = node.Mark();
    if (mark.line < 0) return source;
    return source + ":" + std::to_string(mark.line + 1);
}

namespace {

/// Whether `line` is the marker `marker` ("---" or "..."), alone or followed by a blank.
bool is_marker(std::string_view line, std::string_view marker) {
    return line.substr(0, 3) == marker && (line.size() == 3 || line[3] == ' ' || line[3] == '\t');
}

/// Refuses a second document: a "---" line after content, or content after a "..." line. (A
/// document marker is always at the start of a line; yaml-cpp's Load keeps the first document
/// silently, and its LoadAll loops forever on some malformed text.)
void check_one_document(const std::string& text, const std::string& source) {
    bool content = false, ended = false;
    std::size_t line_number = 0;
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::string_view line(text.data() + start, end - start);
        start = end + 1;
        ++line_number;
        const std::size_t first = line.find_first_not_of(" \t\r");
        const bool blank = first == std::string_view::npos || line[first] == '#';
        const bool second = (is_marker(line, "---") && content) || (ended && !blank && !is_marker(line, "..."));
        if (second)
            throw InputError(source + ":" + std::to_string(line_number) +
                             ": a second YAML document: the file must hold one document");
        if (is_marker(line, "...")) ended = content;
        else if (is_marker(line, "---") || (!blank && line[0] != '%')) content = true;
    }
}

}  // namespace

YAML::Node parse_yaml_document(const std::string& text, const std::string& source) {
    if (text.find('\0') != std::string::npos)
        throw InputError(source + ": not a YAML text file (contains NUL bytes)");
    try {
        check_one_document(text, source);
        YAML::Node root = YAML::Load(text);
        if (!root.IsDefined() || root.IsNull())
            throw InputError(source + ": empty YAML document (expected a mapping of keys)");
        if (!root.IsMap())
            throw InputError(yaml_location(root, source) + ": expected a mapping of keys at the top level, got " +
                             describe(root));
        return root;
    } catch (const YAML::Exception& e) {
        throw InputError(source + ":" + std::to_string(e.mark.line + 1) + ": YAML syntax error: " + e.msg);
    }
}

YamlFields::YamlFields(const YAML::Node& mapping, std::string source, std::string path)
    : node_(mapping), source_(std::move(source)), path_(std::move(path)) {
    if (!node_.IsMap()) {
        throw InputError(yaml_location(node_, source_) + ": " +
                         (path_.empty() ? std::string("document") : "key '" + path_ + "'") +
                         ": expected a mapping, got " + describe(node_));
    }
    // yaml-cpp keeps the first of two equal keys silently; a repeated key is almost always a mistake.
    std::set<std::string> seen;
    for (auto it = node_.begin(); it != node_.end(); ++it) {
        const std::string key = it->first.IsScalar() ? it->first.Scalar() : std::string();
        if (!seen.insert(key).second)
            throw InputError(yaml_location(it->first, source_) + ": key '" + key_path(key) + "' appears twice");
    }
}

std::string YamlFields::key_path(const std::string& key) const {
    if (path_.empty()) return key;
    if (key.empty()) return path_;
    return path_ + "." + key;
}

void YamlFields::fail(const std::string& key, const std::string& what) const {
    YAML::Node at = node_;
    if (!key.empty() && node_[key].IsDefined()) at = node_[key];
    throw InputError(yaml_location(at, source_) + ": key '" + key_path(key) + "': " + what);
}

bool YamlFields::has(const std::string& key) const {
    const YAML::Node value = node_[key];
    return value.IsDefined() && !value.IsNull();
}

YAML::Node YamlFields::child(const std::string& key) {
    used_.insert(key);
    if (!has(key)) fail(key, "required key is missing");
    return node_[key];
}

std::optional<YAML::Node> YamlFields::optional_child(const std::string& key) {
    used_.insert(key);
    if (!has(key)) return std::nullopt;
    return node_[key];
}

YAML::Node YamlFields::scalar(const std::string& key) {
    YAML::Node value = child(key);
    if (!value.IsScalar()) fail(key, "expected a single value, got " + describe(value));
    return value;
}

std::int64_t YamlFields::integer(const std::string& key, std::int64_t min, std::int64_t max) {
    const YAML::Node value = scalar(key);
    const auto parsed = parse_integer(value.Scalar());
    if (!parsed || *parsed < min || *parsed > max)
        fail(key, "expected an integer in " + format_range(min, max) + ", got " + describe(value));
    return *parsed;
}

std::optional<std::int64_t> YamlFields::optional_integer(const std::string& key, std::int64_t min,
                                                         std::int64_t max) {
    if (!has(key)) {
        used_.insert(key);
        return std::nullopt;
    }
    return integer(key, min, max);
}

double YamlFields::number(const std::string& key, double min, double max) {
    const YAML::Node value = scalar(key);
    const auto parsed = parse_number(value.Scalar());
    if (!parsed || *parsed < min || *parsed > max)
        fail(key, "expected a number in " + format_range(min, max) + ", got " + describe(value));
    return *parsed;
}

std::optional<double> YamlFields::optional_number(const std::string& key, double min, double max) {
    if (!has(key)) {
        used_.insert(key);
        return std::nullopt;
    }
    return number(key, min, max);
}

std::string YamlFields::string(const std::string& key) {
    const YAML::Node value = scalar(key);
    if (value.Scalar().empty()) fail(key, "expected a non-empty string");
    return value.Scalar();
}

std::optional<std::string> YamlFields::optional_string(const std::string& key) {
    if (!has(key)) {
        used_.insert(key);
        return std::nullopt;
    }
    return string(key);
}

std::string YamlFields::choice(const std::string& key, const std::vector<std::string>& allowed) {
    const std::string value = string(key);
    for (const auto& option : allowed)
        if (option == value) return value;
    std::string list;
    for (const auto& option : allowed) list += (list.empty() ? "" : ", ") + option;
    fail(key, "expected one of " + list + ", got '" + value + "'");
}

std::vector<std::int64_t> YamlFields::integer_list(const std::string& key, std::int64_t min, std::int64_t max) {
    const YAML::Node value = child(key);
    if (!value.IsSequence()) fail(key, "expected a list of integers, got " + describe(value));
    std::vector<std::int64_t> out;
    out.reserve(value.size());
    for (std::size_t i = 0; i < value.size(); ++i) {
        const YAML::Node item = value[i];
        const auto parsed = item.IsScalar() ? parse_integer(item.Scalar()) : std::nullopt;
        if (!parsed || *parsed < min || *parsed > max) {
            throw InputError(yaml_location(item, source_) + ": key '" + key_path(key) + "[" + std::to_string(i) +
                             "]': expected an integer in " + format_range(min, max) + ", got " + describe(item));
        }
        out.push_back(*parsed);
    }
    return out;
}

void YamlFields::finish() const {
    for (auto it = node_.begin(); it != node_.end(); ++it) {
        if (!it->first.IsScalar())
            throw InputError(yaml_location(it->first, source_) + ": key " +
                             (path_.empty() ? std::string("at the top level") : "in '" + path_ + "'") +
                             ": expected a plain key name, got " + describe(it->first));
        const std::string key = it->first.Scalar();
        if (used_.count(key) == 0) {
            std::string known;
            for (const auto& k : used_) known += (known.empty() ? "" : ", ") + k;
            throw InputError(yaml_location(it->first, source_) + ": unknown key '" + key_path(key) +
                             "' (known keys here: " + known + ")");
        }
    }
}

}  // namespace gpusched

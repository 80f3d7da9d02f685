// YamlFields: strict, typed access to the keys of one YAML mapping, with file:line:key errors.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace gpusched {

/// Parses a whole YAML document; a syntax error or a second document ("---") becomes an InputError naming source and line.
/// `source` is the file name used in messages.
YAML::Node parse_yaml_document(const std::string& text, const std::string& source);

/// Reads the keys of one mapping node. Every getter checks type and range and throws
/// InputError("FILE:LINE: key 'path.key': expected ..., got '...'"). `finish()` rejects
/// keys that were never asked for, so typos are caught instead of silently ignored.
///
///     YamlFields f(node, "gpu.yaml", "limits");
///     int warps = f.integer("max_warps_per_sm", 1, 1024);
///     auto clock = f.optional_number("clock_mhz", 1.0, 1e5);
///     f.finish();
class YamlFields {
public:
    YamlFields(const YAML::Node& mapping, std::string source, std::string path);

    [[nodiscard]] bool has(const std::string& key) const;
    [[nodiscard]] YAML::Node child(const std::string& key);              ///< required sub-node
    [[nodiscard]] std::optional<YAML::Node> optional_child(const std::string& key);

    std::int64_t integer(const std::string& key, std::int64_t min, std::int64_t max);
    std::optional<std::int64_t> optional_integer(const std::string& key, std::int64_t min, std::int64_t max);
    double number(const std::string& key, double min, double max);
    std::optional<double> optional_number(const std::string& key, double min, double max);
    std::string string(const std::string& key);
    std::optional<std::string> optional_string(const std::string& key);
    /// One of `allowed`; the message lists them.
    std::string choice(const std::string& key, const std::vector<std::string>& allowed);
    std::vector<std::int64_t> integer_list(const std::string& key, std::int64_t min, std::int64_t max);

    /// Throws for the first key not read by any getter.
    void finish() const;

    /// Error at this mapping's key (or at the mapping itself if key is empty).
    [[noreturn]] void fail(const std::string& key, const std::string& what) const;
    [[nodiscard]] const std::string& source() const { return source_; }
    [[nodiscard]] std::string key_path(const std::string& key) const;

private:
    YAML::Node scalar(const std::string& key);

    YAML::Node node_;
    std::string source_;
    std::string path_;
    std::set<std::string> used_;
};

/// "FILE:LINE" for a node (1-based line), or just FILE when the node has no position.
std::string yaml_location(const YAML::Node& node, const std::string& source);

/// Strict integer parse of a whole string (decimal, optional sign); nullopt otherwise.
std::optional<std::int64_t> parse_integer(const std::string& text);
/// Strict finite floating-point parse of a whole string; nullopt otherwise.
std::optional<double> parse_number(const std::string& text);

}  // namespace gpusched

// Graph files: strict DIMACS `.gr` and edge-list readers over files or in-memory text, errors as PATH:LINE.
#include "gpusched/workloads/graph_file.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "gpusched/support/input_error.h"
#include "gpusched/support/yaml_fields.h"
#include "gpusched/support/text_file.h"

namespace gpusched::workloads {

namespace {

constexpr std::size_t kMaxLine = std::size_t{1} << 16;
constexpr std::size_t kMaxReserve = std::size_t{1} << 20;
constexpr std::size_t kQuote = 40;  // characters of a bad token quoted in a message

const char* format_name(GraphFormat format) { return format == GraphFormat::dimacs ? "DIMACS graph" : "edge list"; }

/// Lines of text held in memory, checked as TextLineReader checks a file's.
class StringLines {
public:
    StringLines(const std::string& text, std::string source, std::string what)
        : text_(text), source_(std::move(source)), what_(std::move(what)) {}

    bool next(std::string& line) {
        if (pos_ >= text_.size()) return false;
        const std::size_t newline = std::min(text_.find('\n', pos_), text_.size());
        ++line_number_;
        if (newline - pos_ > kMaxLine)
            throw InputError(where() + ": line longer than " + std::to_string(kMaxLine) + " bytes in " + what_);
        line.assign(text_, pos_, newline - pos_);
        unterminated_ = newline == text_.size();
        pos_ = newline + 1;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line_number_ == 1 && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);
        const std::string problem = text_line_problem(line);
        if (!problem.empty()) throw InputError(where() + ": not a text " + what_ + " (" + problem + ")");
        return true;
    }
    [[nodiscard]] std::string where() const { return source_ + ":" + std::to_string(line_number_); }
    [[nodiscard]] std::uint64_t line_number() const { return line_number_; }
    [[nodiscard]] bool line_unterminated() const { return unterminated_; }

private:
    bool unterminated_ = false;
    const std::string& text_;
    std::string source_;
    std::string what_;
    std::size_t pos_ = 0;
    std::uint64_t line_number_ = 0;
};

/// Splits on spaces and tabs.
void split_fields(const std::string& line, std::vector<std::string_view>& tokens) {
    tokens.clear();
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
        const std::size_t begin = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
        if (i > begin) tokens.emplace_back(line.data() + begin, i - begin);
    }
}

std::string quote(std::string_view token) { return "'" + std::string(token.substr(0, kQuote)) + "'"; }

/// A whole-token integer in [min, max], else InputError naming `what` and the range.
std::uint64_t integer(std::string_view token, std::uint64_t min, std::uint64_t max, const std::string& where,
                      const std::string& what) {
    const auto value = parse_integer(std::string(token.substr(0, kQuote)));
    if (token.size() > kQuote || !value)
        throw InputError(where + ": " + what + ": expected an integer in [" + std::to_string(min) + ", " +
                         std::to_string(max) + "], got " + quote(token));
    if (*value < 0 || static_cast<std::uint64_t>(*value) < min || static_cast<std::uint64_t>(*value) > max)
        throw InputError(where + ": " + what + " " + std::to_string(*value) + " is outside [" + std::to_string(min) +
                         ", " + std::to_string(max) + "]");
    return static_cast<std::uint64_t>(*value);
}

std::uint32_t weight(std::string_view token, const std::string& where) {
    const auto value = parse_integer(std::string(token.substr(0, kQuote)));
    if (token.size() <= kQuote && value && *value < 0)
        throw InputError(where + ": negative weight " + std::to_string(*value) +
                         " (shortest paths need weights in [0, " + std::to_string(kMaxEdgeWeight) + "])");
    return static_cast<std::uint32_t>(integer(token, 0, kMaxEdgeWeight, where, "weight"));
}

template <typename Lines>
Graph parse_dimacs(Lines& lines, const std::string& source) {
    std::vector<WeightedEdge> edges;
    std::optional<std::uint64_t> nodes, arcs;
    std::uint64_t header_line = 0;
    std::string line;
    std::vector<std::string_view> t;
    while (lines.next(line)) {
        split_fields(line, t);
        if (t.empty() || t[0] == "c") continue;
        const std::string at = lines.where();
        if (t[0] == "p") {
            if (nodes)
                throw InputError(at + ": a second problem line (the first is at line " + std::to_string(header_line) +
                                 ")");
            if (t.size() != 4 || t[1] != "sp")
                throw InputError(at + ": expected the problem line 'p sp NODES ARCS', got '" +
                                 line.substr(0, kQuote) + "'");
            nodes = integer(t[2], 1, kMaxGraphNodes, at, "node count");
            arcs = integer(t[3], 0, kMaxGraphEdges, at, "arc count");
            header_line = lines.line_number();
            edges.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(*arcs, kMaxReserve)));
        } else if (t[0] == "a") {
            if (!nodes) throw InputError(at + ": arc before the problem line 'p sp NODES ARCS'");
            if (t.size() != 4) throw InputError(at + ": expected an arc 'a U V WEIGHT', got '" + line.substr(0, kQuote) + "'");
            if (edges.size() == *arcs)
                throw InputError(at + ": more arcs than the " + std::to_string(*arcs) + " announced at line " +
                                 std::to_string(header_line));
            const auto u = integer(t[1], 1, *nodes, at, "node id");
            const auto v = integer(t[2], 1, *nodes, at, "node id");
            edges.push_back({static_cast<std::uint32_t>(u - 1), static_cast<std::uint32_t>(v - 1), weight(t[3], at)});
        } else {
            throw InputError(at + ": expected a 'c', 'p' or 'a' line, got '" + line.substr(0, kQuote) + "'");
        }
    }
    const std::string end = source + ":" + std::to_string(std::max<std::uint64_t>(lines.line_number(), 1));
    if (!nodes) throw InputError(end + ": no problem line 'p sp NODES ARCS' in the DIMACS graph");
    if (edges.size() != *arcs)
        throw InputError(end + ": the file ends after " + std::to_string(edges.size()) + " of the " +
                         std::to_string(*arcs) + " arcs announced at line " + std::to_string(header_line) +
                         " (truncated?)");
    return Graph(static_cast<std::uint32_t>(*nodes), std::move(edges));
}

/// What a comment such as the runner's `# nodes=4096 degree=8 seed=... edges=32839` announces
/// (the first comment with `edges=`): the rows are then checked against it.
struct EdgeListMetadata {
    std::optional<std::uint64_t> nodes, edges;
    std::uint64_t line = 0;

    void read(std::string_view comment, std::uint64_t at) {
        if (edges) return;
        std::optional<std::uint64_t> n, e;
        std::size_t pos = 0;
        while (pos < comment.size()) {
            const std::size_t stop = std::min(comment.find(' ', pos), comment.size());
            const std::string_view token = comment.substr(pos, stop - pos);
            const auto value = [&](std::string_view key) -> std::optional<std::uint64_t> {
                if (!token.starts_with(key)) return std::nullopt;
                const auto v = parse_integer(std::string(token.substr(key.size())));
                return v && *v >= 0 ? std::optional<std::uint64_t>(static_cast<std::uint64_t>(*v)) : std::nullopt;
            };
            if (const auto v = value("nodes=")) n = v;
            if (const auto v = value("edges=")) e = v;
            pos = stop + 1;
        }
        if (!e) return;
        edges = e;
        nodes = n;
        line = at;
    }
};

template <typename Lines>
Graph parse_edge_list(Lines& lines, const std::string& source) {
    std::vector<WeightedEdge> edges;
    std::uint64_t max_id = 0;
    std::string line;
    std::vector<std::string_view> t;
    EdgeListMetadata announced;
    while (lines.next(line)) {
        const std::size_t hash = line.find('#');
        if (hash != std::string::npos) {
            announced.read(std::string_view(line).substr(hash + 1), lines.line_number());
            line.resize(hash);
        }
        split_fields(line, t);
        if (t.empty()) continue;
        const std::string at = lines.where();
        if (announced.edges && lines.line_unterminated())
            throw InputError(at + ": the last line ends without a line break: the file was cut mid-line (its "
                                  "comment at line " + std::to_string(announced.line) + " announces " +
                             std::to_string(*announced.edges) + " edges)");
        if (t.size() != 3)
            throw InputError(at + ": expected an edge 'U V WEIGHT' (3 fields), got " + std::to_string(t.size()) +
                             " fields");
        if (edges.size() == kMaxGraphEdges)
            throw InputError(at + ": more than " + std::to_string(kMaxGraphEdges) + " edges");
        const auto u = integer(t[0], 0, kMaxGraphNodes - 1, at, "node id");
        const auto v = integer(t[1], 0, kMaxGraphNodes - 1, at, "node id");
        max_id = std::max({max_id, u, v});
        edges.push_back({static_cast<std::uint32_t>(u), static_cast<std::uint32_t>(v), weight(t[2], at)});
    }
    const std::string end = source + ":" + std::to_string(std::max<std::uint64_t>(lines.line_number(), 1));
    if (edges.empty()) throw InputError(end + ": no edges in the edge list (expected lines 'U V WEIGHT')");
    if (announced.edges && edges.size() != *announced.edges)
        throw InputError(end + ": the edge list ends after " + std::to_string(edges.size()) + " edges, but its comment at line " +
                         std::to_string(announced.line) + " announces edges=" + std::to_string(*announced.edges));
    if (announced.nodes && max_id >= *announced.nodes)
        throw InputError(end + ": node id " + std::to_string(max_id) + " is beyond the nodes=" +
                         std::to_string(*announced.nodes) + " of the comment at line " + std::to_string(announced.line));
    return Graph(static_cast<std::uint32_t>(max_id + 1), std::move(edges));
}

template <typename Lines>
Graph parse(Lines& lines, const std::string& source, GraphFormat format) {
    return format == GraphFormat::dimacs ? parse_dimacs(lines, source) : parse_edge_list(lines, source);
}

}  // namespace

GraphFormat graph_format_for(const std::string& path) {
    return path.size() >= 3 && path.compare(path.size() - 3, 3, ".gr") == 0 ? GraphFormat::dimacs
                                                                             : GraphFormat::edge_list;
}

Graph read_graph_file(const std::string& path, GraphFormat format) {
    TextLineReader lines(path, format_name(format), kMaxLine);
    return parse(lines, path, format);
}

Graph read_graph_file(const std::string& path) { return read_graph_file(path, graph_format_for(path)); }

Graph parse_graph_text(const std::string& text, const std::string& source, GraphFormat format) {
    StringLines lines(text, source, format_name(format));
    return parse(lines, source, format);
}

}  // namespace gpusched::workloads

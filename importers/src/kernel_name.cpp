// Deterministic workload names for demangled kernel names, and their base names for matching.
#include "gpusched/importers/kernel_name.h"

#include <cstdint>
#include <cstdio>

namespace gpusched::importers {

namespace {

constexpr std::size_t kMaxName = 64;

/// Step 1: no leading "void ", no trailing top-level argument list.
std::string_view strip_signature(std::string_view name) {
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (name.substr(0, 5) == "void ") name.remove_prefix(5);
    if (!name.empty() && name.back() == ')') {
        int depth = 0;
        for (std::size_t i = name.size(); i-- > 0;) {
            if (name[i] == ')') ++depth;
            else if (name[i] == '(' && --depth == 0) {
                if (i > 0) name = name.substr(0, i);
                break;
            }
        }
    }
    return name;
}

/// The name without the scopes of the function itself: what follows the last "::" outside
/// template arguments and parentheses ("at::native::k<a::b>" -> "k<a::b>").
std::string_view strip_scopes(std::string_view name) {
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i + 1 < name.size(); ++i) {
        const char c = name[i];
        if (c == '<' || c == '(') ++depth;
        else if ((c == '>' || c == ')') && depth > 0) --depth;
        else if (depth == 0 && c == ':' && name[i + 1] == ':') start = i + 2;
    }
    return start < name.size() ? name.substr(start) : name;
}

bool allowed(char c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
    for (const char a : std::string_view("-_.+/#:()[]"))
        if (c == a) return true;
    return false;
}

std::uint32_t fnv1a(std::string_view text) {
    std::uint32_t hash = 2166136261u;
    for (const char c : text) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 16777619u;
    }
    return hash;
}

}  // namespace

std::string sanitize_kernel_name(std::string_view full) {
    std::string out;
    for (const char c : strip_scopes(strip_signature(full))) {
        char mapped = c;
        if (c == ' ' || c == '\t') continue;
        if (c == '<') mapped = '[';
        else if (c == '>') mapped = ']';
        else if (c == ',') mapped = '+';
        else if (!allowed(c)) mapped = '_';
        if (mapped == '_' && !out.empty() && out.back() == '_') continue;
        out.push_back(mapped);
    }
    if (out.empty()) return "kernel";
    if (out.size() > kMaxName) {
        char hash[10];
        std::snprintf(hash, sizeof hash, "#%08x", fnv1a(full));
        out = out.substr(0, kMaxName - 9) + hash;
    }
    return out;
}

std::string kernel_base_name(std::string_view full) {
    const std::string_view name = strip_signature(full);
    std::string out;
    int depth = 0;
    for (const char c : name) {
        if (c == '<') ++depth;
        else if (c == '>') depth = depth > 0 ? depth - 1 : 0;
        else if (depth == 0) out.push_back(c);
    }
    const auto colon = out.rfind("::");
    if (colon != std::string::npos) out = out.substr(colon + 2);
    while (!out.empty() && out.front() == ' ') out.erase(out.begin());
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

std::string printable(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
    return out;
}

}  // namespace gpusched::importers

// A tiny XML well-formedness check for the report tests: balanced tags, quoted attributes, known entities.
#pragma once

#include <cctype>
#include <string>
#include <vector>

namespace gpusched::test {

/// Empty if `doc` is well-formed enough for an SVG viewer: an optional <?xml ...?> declaration,
/// one root element, properly nested and closed tags, attributes name="value" with no '<' or
/// raw '&' in values, only &amp; &lt; &gt; &quot; &apos; and numeric references in text, and
/// no comments, CDATA, doctype or processing instructions elsewhere. Otherwise a message with
/// the byte offset of the first problem.
inline std::string xml_problem(const std::string& doc) {
    std::vector<std::string> open;
    int roots = 0;
    std::size_t i = 0;
    const auto fail = [&](const std::string& what) { return what + " at byte " + std::to_string(i); };
    const auto is_name = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':' || c == '.';
    };
    const auto check_entity = [&](std::size_t at) -> bool {
        const std::size_t semi = doc.find(';', at);
        if (semi == std::string::npos || semi - at > 10) return false;
        const std::string name = doc.substr(at + 1, semi - at - 1);
        if (name == "amp" || name == "lt" || name == "gt" || name == "quot" || name == "apos") return true;
        if (name.size() >= 2 && name[0] == '#') {
            for (std::size_t k = 1; k < name.size(); ++k)
                if (!std::isdigit(static_cast<unsigned char>(name[k]))) return false;
            return true;
        }
        return false;
    };
    if (doc.rfind("<?xml", 0) == 0) {
        i = doc.find("?>");
        if (i == std::string::npos) return "unterminated XML declaration";
        i += 2;
    }
    while (i < doc.size()) {
        const char c = doc[i];
        if (c != '<') {
            if (c == '&' && !check_entity(i)) return fail("bad entity");
            if (c == '>') return fail("raw '>' in text");
            if (open.empty() && !std::isspace(static_cast<unsigned char>(c))) return fail("text outside the root");
            ++i;
            continue;
        }
        ++i;
        const bool closing = i < doc.size() && doc[i] == '/';
        if (closing) ++i;
        std::size_t start = i;
        while (i < doc.size() && is_name(doc[i])) ++i;
        if (i == start) return fail("bad tag name");
        const std::string name = doc.substr(start, i - start);
        if (closing) {
            while (i < doc.size() && std::isspace(static_cast<unsigned char>(doc[i]))) ++i;
            if (i >= doc.size() || doc[i] != '>') return fail("bad closing tag");
            if (open.empty() || open.back() != name) return fail("</" + name + "> does not close the open tag");
            open.pop_back();
            ++i;
            continue;
        }
        std::vector<std::string> attributes;
        for (;;) {
            while (i < doc.size() && std::isspace(static_cast<unsigned char>(doc[i]))) ++i;
            if (i >= doc.size()) return fail("unterminated tag");
            if (doc[i] == '>' || doc[i] == '/') break;
            start = i;
            while (i < doc.size() && is_name(doc[i])) ++i;
            if (i == start) return fail("bad attribute name");
            const std::string attribute = doc.substr(start, i - start);
            for (const auto& a : attributes)
                if (a == attribute) return fail("duplicate attribute " + attribute);
            attributes.push_back(attribute);
            if (i + 1 >= doc.size() || doc[i] != '=' || (doc[i + 1] != '"' && doc[i + 1] != '\'')) return fail("unquoted attribute");
            const char quote = doc[i + 1];
            i += 2;
            while (i < doc.size() && doc[i] != quote) {
                if (doc[i] == '<') return fail("'<' in an attribute value");
                if (doc[i] == '&' && !check_entity(i)) return fail("bad entity in an attribute value");
                ++i;
            }
            if (i >= doc.size()) return fail("unterminated attribute value");
            ++i;
        }
        const bool empty = doc[i] == '/';
        if (empty && (i + 1 >= doc.size() || doc[i + 1] != '>')) return fail("bad empty tag");
        i += empty ? 2 : 1;
        if (open.empty()) ++roots;
        if (roots > 1) return fail("a second root element");
        if (!empty) open.push_back(name);
    }
    if (!open.empty()) return "unclosed <" + open.back() + ">";
    if (roots != 1) return "no root element";
    return {};
}

}  // namespace gpusched::test

// A double-quoted YAML scalar, as the GPU spec writers print names and rules.
#pragma once

#include <string>

namespace gpusched::hw {

/// `text` in double quotes with backslashes and quotes escaped.
inline std::string yaml_quoted(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

}  // namespace gpusched::hw

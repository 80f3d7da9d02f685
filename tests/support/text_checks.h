// Small text helpers for tests that inspect generated documents (SVG, HTML).
#pragma once

#include <cstddef>
#include <string>

namespace gpusched::test {

/// How often `what` occurs in `text` (overlapping occurrences count).
inline std::size_t count_occurrences(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace gpusched::test

// Small text helpers every module may use: trimming blanks and splitting at a separator.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpusched {

/// A blank: a space or a tab (the characters trim() removes).
inline bool is_blank(char c) { return c == ' ' || c == '\t'; }

/// `text` without leading and trailing blanks (spaces and tabs; other whitespace is kept).
std::string trim(std::string_view text);

/// The pieces of `text` between the separators, in order, untrimmed, empty pieces kept:
/// split("a,,b", ',') == {"a", "", "b"}; split("", ',') == {""}.
std::vector<std::string> split(std::string_view text, char separator);

}  // namespace gpusched

// The known name nearest a misspelt one by edit distance, for "did you mean ...?" suggestions.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpusched {

/// Levenshtein distance: the fewest single-character insertions, deletions and substitutions
/// that turn `a` into `b` (edit_distance("gridd", "grid") == 1).
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The name of `known` nearest `given`, when it is near enough to be a likely misspelling: at most
/// 2 edits for a name of up to 8 characters, else at most a quarter of `given`'s length, and
/// fewer edits than `given` has characters. Ties go to the first in `known`. nullopt when none is near.
std::optional<std::string> nearest_name(std::string_view given, const std::vector<std::string>& known);

}  // namespace gpusched

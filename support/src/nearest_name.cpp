// Edit distance and the nearest known name, for the command line's "did you mean ...?".
#include "gpusched/support/nearest_name.h"

#include <algorithm>
#include <numeric>

namespace gpusched {

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    std::iota(row.begin(), row.end(), std::size_t{0});
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::optional<std::string> nearest_name(std::string_view given, const std::vector<std::string>& known) {
    const std::size_t allowed = std::max<std::size_t>(2, given.size() / 4);
    std::optional<std::string> best;
    std::size_t best_distance = 0;
    for (const auto& name : known) {
        const std::size_t d = edit_distance(given, name);
        if (d > allowed || d >= given.size()) continue;
        if (!best || d < best_distance) best = name, best_distance = d;
    }
    return best;
}

}  // namespace gpusched

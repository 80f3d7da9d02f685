// The charts' colour-blind-safe palette (Okabe & Ito) and a text colour readable on each entry.
#pragma once

#include <cstddef>
#include <string>

namespace gpusched::charts {

/// Number of distinct colours; indices wrap around.
constexpr std::size_t kPaletteSize = 8;

/// "#rrggbb" of colour `index` (mod kPaletteSize): blue, vermillion, bluish green, reddish
/// purple, orange, sky blue, black, yellow (Okabe & Ito, "Color Universal Design", 2008).
/// Yellow comes last: it is the least visible on white.
std::string palette_colour(std::size_t index);

/// "#000000" or "#ffffff", whichever reads better on palette_colour(index).
std::string palette_text_colour(std::size_t index);

}  // namespace gpusched::charts

// The Okabe-Ito colour-blind-safe palette.
#include "gpusched/charts/palette.h"

#include <array>

namespace gpusched::charts {

namespace {

struct Entry {
    const char* fill;
    bool dark;  ///< white text reads better than black on it
};

constexpr std::array<Entry, kPaletteSize> kPalette = {{
    {"#0072b2", true},   // blue
    {"#d55e00", true},   // vermillion
    {"#009e73", true},   // bluish green
    {"#cc79a7", false},  // reddish purple
    {"#e69f00", false},  // orange
    {"#56b4e9", false},  // sky blue
    {"#000000", true},   // black
    {"#f0e442", false},  // yellow
}};

}  // namespace

std::string palette_colour(std::size_t index) { return kPalette[index % kPaletteSize].fill; }

std::string palette_text_colour(std::size_t index) {
    return kPalette[index % kPaletteSize].dark ? "#ffffff" : "#000000";
}

}  // namespace gpusched::charts

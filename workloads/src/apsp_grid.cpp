// The APSP kernels' tiled grid: block categories, exact active warps, and the shared n/block keys.
#include "gpusched/workloads/apsp_grid.h"

#include <algorithm>
#include <stdexcept>

#include "gpusched/support/yaml_fields.h"

namespace gpusched::workloads {

std::uint64_t active_warps_in_tile(std::uint64_t width, std::uint64_t cols, std::uint64_t rows,
                                   std::uint64_t warp_size) {
    if (width == 0 || cols == 0 || rows == 0 || warp_size == 0) return 0;
    cols = std::min(cols, width);
    std::uint64_t count = 0;
    std::uint64_t next = 0;  // first warp not counted yet; the rows' warp ranges never move back
    for (std::uint64_t y = 0; y < rows; ++y) {
        const std::uint64_t lo = std::max(y * width / warp_size, next);
        const std::uint64_t hi = (y * width + cols - 1) / warp_size;
        if (hi >= lo) {
            count += hi - lo + 1;
            next = hi + 1;
        }
    }
    return count;
}

ApspGrid::ApspGrid(std::uint64_t n, std::uint32_t block_size) : n_(n), block_size_(block_size) {
    if (n == 0 || block_size == 0 || block_size > kMaxApspBlockSize)
        throw std::logic_error("ApspGrid: n and the block size must be positive, the block size at most 1024");
    width_ = (n + block_size - 1) / block_size;
    if (width_ > kMaxApspGridWidth) throw std::logic_error("ApspGrid: GridWidth above 2^20");
    remainder_ = static_cast<std::uint32_t>(n % block_size);
    const std::uint64_t threads = std::uint64_t{block_size} * block_size;
    warps_per_block32_ = static_cast<int>((threads + kApspWarpSize - 1) / kApspWarpSize);
    for (const Category c : {Category::full, Category::right, Category::bottom, Category::last})
        warps32_[static_cast<std::size_t>(c)] =
            static_cast<int>(active_warps_in_tile(block_size, active_columns(c), active_rows(c), kApspWarpSize));
}

ApspGrid::Category ApspGrid::category(std::uint64_t block) const {
    if (remainder_ == 0) return Category::full;
    const bool right = block % width_ == width_ - 1;
    const bool bottom = block / width_ == width_ - 1;
    if (right && bottom) return Category::last;
    if (right) return Category::right;
    if (bottom) return Category::bottom;
    return Category::full;
}

std::uint64_t ApspGrid::blocks_in(Category c) const {
    if (remainder_ == 0) return c == Category::full ? blocks() : 0;
    switch (c) {
        case Category::full: return (width_ - 1) * (width_ - 1);
        case Category::right:
        case Category::bottom: return width_ - 1;
        case Category::last: return 1;
    }
    return 0;
}

std::uint32_t ApspGrid::active_columns(Category c) const {
    return (c == Category::right || c == Category::last) && remainder_ != 0 ? remainder_ : block_size_;
}

std::uint32_t ApspGrid::active_rows(Category c) const {
    return (c == Category::bottom || c == Category::last) && remainder_ != 0 ? remainder_ : block_size_;
}

int ApspGrid::active_warps(Category c, int warps_per_block) const {
    if (warps_per_block <= 0) return 0;
    if (warps_per_block == warps_per_block32_) return warps32_[static_cast<std::size_t>(c)];
    const std::uint64_t threads = std::uint64_t{block_size_} * block_size_;
    const std::uint64_t warp_size = (threads + static_cast<std::uint64_t>(warps_per_block) - 1) /
                                    static_cast<std::uint64_t>(warps_per_block);
    const std::uint64_t warps = active_warps_in_tile(block_size_, active_columns(c), active_rows(c), warp_size);
    return static_cast<int>(std::min<std::uint64_t>(warps, static_cast<std::uint64_t>(warps_per_block)));
}

const char* ApspGrid::name(Category c) {
    switch (c) {
        case Category::full: return "full";
        case Category::right: return "right";
        case Category::bottom: return "bottom";
        case Category::last: return "last";
    }
    return "?";
}

namespace {

/// `block=BS` or `block=BSxBS` (square tiles only).
std::uint32_t parse_block_size(SpecArgs& args) {
    const std::string text = args.text("block");
    const std::size_t x = text.find('x');
    const auto side = parse_integer(text.substr(0, x));
    const auto other = x == std::string::npos ? side : parse_integer(text.substr(x + 1));
    if (!side || !other || *side != *other || *side < 1 || *side > kMaxApspBlockSize)
        args.fail("block", "expected BS or BSxBS (square tiles of BS x BS threads) with BS in [1, " +
                               std::to_string(kMaxApspBlockSize) + "], got '" +
                               (text.size() > 40 ? text.substr(0, 40) + "..." : text) + "'");
    return static_cast<std::uint32_t>(*side);
}

}  // namespace

ApspGrid parse_apsp_grid(SpecArgs& args, KernelLaunch& launch, std::int64_t min_n, std::int64_t max_n) {
    for (const char* key : {"threads", "blocks", "grid"})
        if (args.has(key))
            args.fail(key, "not used by kernel '" + args.kernel() + "': the block is BS x BS threads (block=BS) " +
                               "and the grid ceil(n/BS) x ceil(n/BS) blocks");
    const auto n = static_cast<std::uint64_t>(args.integer("n", min_n, max_n));
    const std::uint32_t bs = parse_block_size(args);
    const std::uint64_t width = (n + bs - 1) / bs;
    if (width > kMaxApspGridWidth)
        args.fail("n", "n=" + std::to_string(n) + " with block=" + std::to_string(bs) + " needs a " +
                           std::to_string(width) + " x " + std::to_string(width) + " grid; at most " +
                           std::to_string(kMaxApspGridWidth) + " x " + std::to_string(kMaxApspGridWidth) +
                           " (2^40 blocks), i.e. n <= " + std::to_string(kMaxApspGridWidth * bs));
    launch.block = Dim3{bs, bs, 1};
    launch.grid = Dim3{static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(width), 1};
    return ApspGrid(n, bs);
}

}  // namespace gpusched::workloads

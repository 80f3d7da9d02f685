// The tiled n x n grid of the APSP kernels: GridWidth, the four block categories, exact active warps.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "gpusched/workloads/kernel_launch.h"
#include "gpusched/workloads/spec_args.h"

namespace gpusched::workloads {

/// Largest tile side (`block=BS`): BS x BS threads must stay within the spec's 2^20 threads.
constexpr std::int64_t kMaxApspBlockSize = 1024;
/// Largest GridWidth: GridWidth^2 blocks must stay within the spec's 2^40 blocks.
constexpr std::uint64_t kMaxApspGridWidth = std::uint64_t{1} << 20;
/// The warp size the cached active-warp counts and warp_work() assume (CUDA's warpSize).
constexpr int kApspWarpSize = 32;

/// Warps with at least one active thread, in a block `width` threads wide laid out row-major
/// (x fastest, warp w = threads 32w..32w+31 for warp_size 32) when only the threads with
/// x < cols and y < rows are active:
///   | U_{y < rows} [ floor(y*width / warp_size), floor((y*width + cols - 1) / warp_size) ] |.
/// O(rows). Exact where the paper's eqs. 7, 9 and 11 assume each row starts a new warp.
std::uint64_t active_warps_in_tile(std::uint64_t width, std::uint64_t cols, std::uint64_t rows,
                                   std::uint64_t warp_size);

/// The kernel grid of the paper's APSP kernels (Alg. 1-4): GridWidth x GridWidth blocks of
/// BlockSize x BlockSize threads, GridWidth = ceil(n / BlockSize). Block b is at column
/// b mod GridWidth and row b div GridWidth (blockIdx.x fastest). Nothing is stored per block.
class ApspGrid {
public:
    /// full: all threads active; right: last column of blocks, n mod BS active columns;
    /// bottom: last row of blocks, n mod BS active rows; last: the corner block, both.
    enum class Category { full = 0, right = 1, bottom = 2, last = 3 };

    /// n >= 1, 1 <= block_size <= kMaxApspBlockSize, ceil(n / block_size) <= kMaxApspGridWidth.
    ApspGrid(std::uint64_t n, std::uint32_t block_size);

    [[nodiscard]] std::uint64_t n() const { return n_; }
    [[nodiscard]] std::uint32_t block_size() const { return block_size_; }
    [[nodiscard]] std::uint64_t width() const { return width_; }  ///< GridWidth
    [[nodiscard]] std::uint64_t blocks() const { return width_ * width_; }
    [[nodiscard]] Category category(std::uint64_t block) const;
    /// How many blocks of the grid are of `c` (eqs. 8, 10, 12, 13 without the warp factor).
    [[nodiscard]] std::uint64_t blocks_in(Category c) const;
    [[nodiscard]] std::uint32_t active_columns(Category c) const;
    [[nodiscard]] std::uint32_t active_rows(Category c) const;
    [[nodiscard]] std::uint64_t active_threads(Category c) const {
        return std::uint64_t{active_columns(c)} * active_rows(c);
    }
    /// Exact active warps of a block of `c` when the GPU makes `warps_per_block` warps of each
    /// block: with 32-thread warps (warps_per_block == ceil(BS^2 / 32)) a cached count, otherwise
    /// computed for warps of ceil(BS^2 / warps_per_block) threads.
    [[nodiscard]] int active_warps(Category c, int warps_per_block) const;
    /// Active 32-thread warps of a block of `c` (cached; what warp_work() spreads bytes over).
    [[nodiscard]] int active_warps32(Category c) const { return warps32_[static_cast<std::size_t>(c)]; }

    [[nodiscard]] static const char* name(Category c);

private:
    std::uint64_t n_;
    std::uint32_t block_size_;
    std::uint64_t width_;
    std::uint32_t remainder_;             ///< n mod BlockSize; 0: every block is full
    std::array<int, 4> warps32_{};        ///< active 32-thread warps per category
    int warps_per_block32_ = 0;           ///< ceil(BS^2 / 32)
};

/// Reads the keys both APSP generators share: `n` (in [min_n, max_n]) and `block` (BS or BSxBS,
/// BS in [1, 1024], required); rejects `threads`, `blocks` and `grid` (the grid follows from n);
/// sets launch.grid and launch.block.
ApspGrid parse_apsp_grid(SpecArgs& args, KernelLaunch& launch, std::int64_t min_n, std::int64_t max_n);

}  // namespace gpusched::workloads

// Seeded generators of scaled-down stand-ins for the SpMV paper's eight test matrices (Table IV).
#include <algorithm>
#include <cmath>
#include <set>

#include "spmv.h"

namespace spmv {

const std::vector<MatrixKind>& matrix_kinds() {
  static const std::vector<MatrixKind> kinds = {
      {"dense", "Dense", 2000, 2000.0, 0.0, Structure::kDense},
      {"protein", "Protein", 36417, 119.3, 0.6, Structure::kBanded},
      {"spheres", "FEM/Spheres", 83334, 72.1, 0.3, Structure::kBanded},
      {"cantilever", "FEM/Cantilever", 62451, 64.1, 0.3, Structure::kBanded},
      {"harbor", "FEM/Harbor", 46835, 50.6, 0.5, Structure::kBanded},
      {"qcd", "QCD", 49152, 39.0, 0.0, Structure::kScattered},
      {"ship", "FEM/Ship", 140874, 55.4, 0.3, Structure::kBanded},
      {"epidemiology", "Epidemiology", 525825, 3.9, 0.0, Structure::kGrid},
  };
  return kinds;
}

int rows_for(const MatrixKind& kind, int target_nnz) {
  switch (kind.structure) {
    case Structure::kDense:
      return static_cast<int>(std::sqrt(static_cast<double>(target_nnz)));
    case Structure::kGrid: {
      const int side = static_cast<int>(std::lround(std::sqrt(target_nnz / kind.nnz_per_row)));
      return side * side;
    }
    case Structure::kBanded:
    case Structure::kScattered:
      break;
  }
  return static_cast<int>(std::lround(target_nnz / kind.nnz_per_row));
}

std::string describe_generator(const MatrixKind& kind) {
  switch (kind.structure) {
    case Structure::kDense:
      return "dense: every column of every row";
    case Structure::kBanded:
      return "banded: row i has L = clamp(round(m*(1-s+2s*u)), 1, n) entries (m = " +
             kit::fmt(kind.nnz_per_row, 1) + ", s = " + kit::fmt(kind.spread, 1) +
             ", u = next uniform), one contiguous run starting at clamp(i - L/2 + " +
             "floor((2v-1)*L/4), 0, n-L) (v = next uniform)";
    case Structure::kScattered:
      return "scattered: every row round(m) = " + std::to_string(std::lround(kind.nnz_per_row)) +
             " distinct columns, each next() mod n, redrawn on repeats, sorted";
    case Structure::kGrid:
      return "grid: n = side^2 nodes of a 2D grid, row i has its 2..4 neighbours (5-point "
             "stencil without the centre)";
  }
  return "";
}

Pattern generate(const MatrixKind& kind, int rows, uint64_t seed) {
  Pattern p;
  p.rows = rows;
  p.ptr.assign(1, 0);
  kit::SplitMix64 rng(seed);
  std::vector<int> cols;
  const int side = kind.structure == Structure::kGrid
                       ? static_cast<int>(std::lround(std::sqrt(static_cast<double>(rows))))
                       : 0;
  for (int r = 0; r < rows; ++r) {
    cols.clear();
    switch (kind.structure) {
      case Structure::kDense:
        for (int c = 0; c < rows; ++c) cols.push_back(c);
        break;
      case Structure::kBanded: {
        const double m = kind.nnz_per_row, s = kind.spread;
        const double u = rng.uniform();
        int len = static_cast<int>(std::lround(m * (1.0 - s + 2.0 * s * u)));
        len = std::min(std::max(len, 1), rows);
        const double v = rng.uniform();
        int start = r - len / 2 + static_cast<int>(std::floor((2.0 * v - 1.0) * len / 4.0));
        start = std::min(std::max(start, 0), rows - len);
        for (int c = start; c < start + len; ++c) cols.push_back(c);
        break;
      }
      case Structure::kScattered: {
        const int len = std::min(rows, static_cast<int>(std::lround(kind.nnz_per_row)));
        std::set<int> chosen;
        while (static_cast<int>(chosen.size()) < len) {
          chosen.insert(static_cast<int>(rng.below(static_cast<uint64_t>(rows))));
        }
        cols.assign(chosen.begin(), chosen.end());
        break;
      }
      case Structure::kGrid: {
        const int i = r / side, j = r % side;
        if (i > 0) cols.push_back(r - side);
        if (j > 0) cols.push_back(r - 1);
        if (j + 1 < side) cols.push_back(r + 1);
        if (i + 1 < side) cols.push_back(r + side);
        break;
      }
    }
    p.col.insert(p.col.end(), cols.begin(), cols.end());
    p.ptr.push_back(static_cast<int>(p.col.size()));
  }
  return p;
}

}  // namespace spmv

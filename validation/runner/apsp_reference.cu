// Host side of the APSP experiments: the seeded input graph and the CPU Floyd-Warshall reference.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "curves.h"

namespace curves {

std::vector<int> make_graph(int n) {
  std::mt19937 rng(kGraphSeed + static_cast<unsigned>(n));
  std::uniform_int_distribution<int> weight(1, 100);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  std::vector<int> a(static_cast<size_t>(n) * n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const bool edge = coin(rng) < kEdgeProbability;
      const int w = weight(rng);
      a[static_cast<size_t>(i) * n + j] = i == j ? 0 : (edge ? w : kInf);
    }
  }
  return a;
}

std::vector<int> cpu_floyd_warshall(std::vector<int> d, int n) {
  for (int k = 0; k < n; ++k) {
    for (int i = 0; i < n; ++i) {
      const int dik = d[static_cast<size_t>(i) * n + k];
      if (dik >= kInf) continue;
      for (int j = 0; j < n; ++j) {
        int& dij = d[static_cast<size_t>(i) * n + j];
        dij = std::min(dij, dik + d[static_cast<size_t>(k) * n + j]);
      }
    }
  }
  return d;
}

std::string compare_distances(const std::vector<int>& got, const std::vector<int>& want, int n) {
  for (size_t i = 0; i < want.size(); ++i) {
    if (got[i] != want[i]) {
      return "D[" + std::to_string(i / n) + "][" + std::to_string(i % n) + "]=" + std::to_string(got[i]) +
             " expected " + std::to_string(want[i]);
    }
  }
  return "";
}

}  // namespace curves

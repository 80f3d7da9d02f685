// Declarations shared by the `curves` subcommand: APSP (min-plus, Floyd-Warshall) and series kernels.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

namespace curves {

// "No edge" weight. INF + INF still fits in an int, so min-plus sums never overflow.
constexpr int kInf = 1 << 29;

// The APSP input graph of n nodes (apsp_reference.cu): seeded with kGraphSeed + n, an edge of
// weight 1..100 with probability kEdgeProbability, else kInf; 0 on the diagonal.
constexpr unsigned kGraphSeed = 20240611u;
constexpr double kEdgeProbability = 0.8;
std::vector<int> make_graph(int n);
// The CPU reference: Floyd-Warshall over the n x n weight matrix d.
std::vector<int> cpu_floyd_warshall(std::vector<int> d, int n);
// "" when got equals want, else the first mismatching D[i][j].
std::string compare_distances(const std::vector<int>& got, const std::vector<int>& want, int n);

// cudaFuncGetAttributes of one kernel, for the "# kernel.<name>.*" metadata lines.
struct KernelInfo {
  std::string name;
  int num_regs = 0;
  size_t shared_bytes = 0;
  int max_threads = 0;
};
std::vector<KernelInfo> kernel_infos();

// Device buffers for one graph of n nodes: A (input weights), D (distances), P (first hop).
struct ApspBuffers {
  int n = 0;
  int* a = nullptr;
  int* d = nullptr;
  int* p = nullptr;
};
ApspBuffers apsp_alloc(const std::vector<int>& host_a, int n);
void apsp_free(ApspBuffers& b);
std::vector<int> copy_distances(const ApspBuffers& b);

// ceil(log2(n - 1)): the number of APSP (min-plus) launches of Algorithm 1; 0 for n <= 2.
int minplus_launches(int n);

// One whole run, timed with CUDA events around all its launches (Init included); returns ms.
// Min-plus: Init + minplus_launches(n) tiled min-plus steps (Alg. 1/2), block in {8, 16, 32}.
// Floyd-Warshall: Init + n global-memory launches, one per k (Alg. 3/4), block x block threads.
// gate_ns > 0: a one-block kernel spinning gate_ns runs first, before the start event, so the
// host has queued every launch before the timed ones begin (GPU-side time, no host launch cost).
float run_minplus(const ApspBuffers& b, int block, unsigned gate_ns = 0);
float run_fw(const ApspBuffers& b, int block, unsigned gate_ns = 0);

// Series kernel: thread g sums `terms` terms of the binomial series of (1 + x_g)^a.
constexpr float kSeriesA = 0.5f;
__host__ __device__ inline float series_x(long long gid) {
  return -0.5f + static_cast<float>(gid % 1021) * (1.0f / 1021.0f);  // x in [-0.5, 0.5)
}
float run_series(float* d_out, int blocks, int threads, int terms);

}  // namespace curves

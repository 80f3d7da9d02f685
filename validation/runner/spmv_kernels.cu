// SpMV kernels after Bell and Garland (CSR vector, ELL, COO, HYB) and their device data.
//
// CSR vector: one warp per row, lanes stride the row, shuffle reduction. ELL: one thread per row
// over a column-major padded array. COO: one thread per non-zero, a warp-level segmented scan
// (rows are sorted), and the last lane of each row segment adds its sum to y with atomicAdd.
// HYB: ELL up to the HYB width writes y, then COO adds the rest (two launches). Thread 0 of each
// block records %smid and %globaltimer at entry and after a final barrier when `rec` is given.
#include <algorithm>

#include "spmv.h"

namespace spmv {
namespace {

using kit::BlockProbe;
using kit::BlockRecord;

__global__ void csr_vector_kernel(int rows, const int* __restrict__ ptr,
                                  const int* __restrict__ col, const float* __restrict__ val,
                                  const float* __restrict__ x, float* __restrict__ y,
                                  BlockRecord* rec) {
  BlockProbe probe;
  probe.enter(rec);
  const int lane = threadIdx.x & 31;
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  if (row < rows) {
    float sum = 0.0f;
    for (int j = ptr[row] + lane; j < ptr[row + 1]; j += 32) sum += val[j] * x[col[j]];
    for (int off = 16; off > 0; off >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, off);
    if (lane == 0) y[row] = sum;
  }
  probe.leave(rec);
}

__global__ void ell_kernel(int rows, int width, const int* __restrict__ col,
                           const float* __restrict__ val, const float* __restrict__ x,
                           float* __restrict__ y, BlockRecord* rec) {
  BlockProbe probe;
  probe.enter(rec);
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float sum = 0.0f;
    for (int k = 0; k < width; ++k) {
      const int c = col[static_cast<size_t>(k) * rows + row];
      if (c >= 0) sum += val[static_cast<size_t>(k) * rows + row] * x[c];
    }
    y[row] = sum;
  }
  probe.leave(rec);
}

__global__ void coo_kernel(int nnz, const int* __restrict__ row_of, const int* __restrict__ col,
                           const float* __restrict__ val, const float* __restrict__ x,
                           float* __restrict__ y, BlockRecord* rec) {
  BlockProbe probe;
  probe.enter(rec);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  float v = 0.0f;
  int r = -1;
  if (i < nnz) {
    r = row_of[i];
    v = val[i] * x[col[i]];
  }
  for (int off = 1; off < 32; off <<= 1) {  // segmented inclusive scan over equal rows
    const float ov = __shfl_up_sync(0xffffffffu, v, off);
    const int orow = __shfl_up_sync(0xffffffffu, r, off);
    if (lane >= off && orow == r) v += ov;
  }
  const int next = __shfl_down_sync(0xffffffffu, r, 1);
  if (r >= 0 && (lane == 31 || next != r)) atomicAdd(&y[r], v);
  probe.leave(rec);
}

// ELL arrays (column-major, width x rows) of the first `width` entries of every row.
void build_ell(const Pattern& p, int width, std::vector<int>& col, std::vector<float>& val) {
  col.assign(static_cast<size_t>(width) * p.rows, -1);
  val.assign(static_cast<size_t>(width) * p.rows, 0.0f);
  for (int r = 0; r < p.rows; ++r) {
    for (int k = 0; k < width && k < p.row_length(r); ++k) {
      const int c = p.col[p.ptr[r] + k];
      col[static_cast<size_t>(k) * p.rows + r] = c;
      val[static_cast<size_t>(k) * p.rows + r] = value_of(r, c);
    }
  }
}

// COO arrays (row-major order) of the entries of every row from position `skip` on.
void build_coo(const Pattern& p, int skip, std::vector<int>& row, std::vector<int>& col,
               std::vector<float>& val) {
  row.clear();
  col.clear();
  val.clear();
  for (int r = 0; r < p.rows; ++r) {
    for (int j = p.ptr[r] + skip; j < p.ptr[r + 1]; ++j) {
      row.push_back(r);
      col.push_back(p.col[j]);
      val.push_back(value_of(r, p.col[j]));
    }
  }
}

int blocks_for(long long threads) { return static_cast<int>((threads + kThreads - 1) / kThreads); }

}  // namespace

int hyb_width(const Pattern& p) {
  int longest = 0;
  for (int r = 0; r < p.rows; ++r) longest = std::max(longest, p.row_length(r));
  std::vector<int> at_least(static_cast<size_t>(longest) + 2, 0);  // rows with length >= k
  for (int r = 0; r < p.rows; ++r) at_least[p.row_length(r)]++;
  for (int k = longest - 1; k >= 0; --k) at_least[k] += at_least[k + 1];
  const double need = p.rows / 3.0;
  int width = 0;
  for (int k = 1; k <= longest; ++k) {
    if (at_least[k] >= need) width = k;
  }
  return width;
}

DeviceMatrix upload(const Pattern& p) {
  DeviceMatrix m;
  m.rows = p.rows;
  m.nnz = p.nnz();
  for (int r = 0; r < p.rows; ++r) m.ell_width = std::max(m.ell_width, p.row_length(r));
  m.hyb_width = hyb_width(p);
  std::vector<float> csr_val(p.col.size());
  for (int r = 0; r < p.rows; ++r) {
    for (int j = p.ptr[r]; j < p.ptr[r + 1]; ++j) csr_val[j] = value_of(r, p.col[j]);
  }
  m.csr_ptr = kit::to_device(p.ptr);
  m.csr_col = kit::to_device(p.col);
  m.csr_val = kit::to_device(csr_val);
  std::vector<int> icol, irow;
  std::vector<float> fval;
  build_ell(p, m.ell_width, icol, fval);
  m.ell_col = kit::to_device(icol);
  m.ell_val = kit::to_device(fval);
  build_coo(p, 0, irow, icol, fval);
  m.coo_row = kit::to_device(irow);
  m.coo_col = kit::to_device(icol);
  m.coo_val = kit::to_device(fval);
  build_ell(p, m.hyb_width, icol, fval);
  m.hyb_ell_col = kit::to_device(icol);
  m.hyb_ell_val = kit::to_device(fval);
  build_coo(p, m.hyb_width, irow, icol, fval);
  m.hyb_coo_nnz = static_cast<int>(irow.size());
  m.hyb_coo_row = kit::to_device(irow);
  m.hyb_coo_col = kit::to_device(icol);
  m.hyb_coo_val = kit::to_device(fval);
  std::vector<float> x(static_cast<size_t>(p.rows));
  for (int c = 0; c < p.rows; ++c) x[c] = x_of(c);
  m.x = kit::to_device(x);
  RUNNER_CUDA_CHECK(cudaMalloc(&m.y, sizeof(float) * std::max(1, p.rows)));
  return m;
}

void release(DeviceMatrix& m) {
  for (void* ptr :
       {static_cast<void*>(m.csr_ptr), static_cast<void*>(m.csr_col), static_cast<void*>(m.csr_val),
        static_cast<void*>(m.ell_col), static_cast<void*>(m.ell_val), static_cast<void*>(m.coo_row),
        static_cast<void*>(m.coo_col), static_cast<void*>(m.coo_val),
        static_cast<void*>(m.hyb_ell_col), static_cast<void*>(m.hyb_ell_val),
        static_cast<void*>(m.hyb_coo_row), static_cast<void*>(m.hyb_coo_col),
        static_cast<void*>(m.hyb_coo_val), static_cast<void*>(m.x), static_cast<void*>(m.y)}) {
    RUNNER_CUDA_CHECK(cudaFree(ptr));
  }
  m = DeviceMatrix{};
}

const char* kernel_name(Kernel k) {
  switch (k) {
    case Kernel::kCsr:
      return "csr";
    case Kernel::kEll:
      return "ell";
    case Kernel::kCoo:
      return "coo";
    case Kernel::kHybEll:
      return "hyb-ell";
    case Kernel::kHybCoo:
      return "hyb-coo";
  }
  return "?";
}

const void* kernel_fn(Kernel k) {
  switch (k) {
    case Kernel::kCsr:
      return reinterpret_cast<const void*>(&csr_vector_kernel);
    case Kernel::kEll:
    case Kernel::kHybEll:
      return reinterpret_cast<const void*>(&ell_kernel);
    case Kernel::kCoo:
    case Kernel::kHybCoo:
      return reinterpret_cast<const void*>(&coo_kernel);
  }
  return nullptr;
}

int grid_of(const DeviceMatrix& m, Kernel k) {
  switch (k) {
    case Kernel::kCsr:
      return blocks_for(32LL * m.rows);
    case Kernel::kEll:
    case Kernel::kHybEll:
      return m.hyb_width == 0 && k == Kernel::kHybEll ? 0 : blocks_for(m.rows);
    case Kernel::kCoo:
      return blocks_for(m.nnz);
    case Kernel::kHybCoo:
      return blocks_for(m.hyb_coo_nnz);
  }
  return 0;
}

void launch(const DeviceMatrix& m, Kernel k, cudaStream_t s, BlockRecord* rec) {
  const int grid = grid_of(m, k);
  if (grid == 0) return;
  switch (k) {
    case Kernel::kCsr:
      csr_vector_kernel<<<grid, kThreads, 0, s>>>(m.rows, m.csr_ptr, m.csr_col, m.csr_val, m.x, m.y,
                                                  rec);
      break;
    case Kernel::kEll:
      ell_kernel<<<grid, kThreads, 0, s>>>(m.rows, m.ell_width, m.ell_col, m.ell_val, m.x, m.y,
                                           rec);
      break;
    case Kernel::kHybEll:
      ell_kernel<<<grid, kThreads, 0, s>>>(m.rows, m.hyb_width, m.hyb_ell_col, m.hyb_ell_val, m.x,
                                           m.y, rec);
      break;
    case Kernel::kCoo:
      coo_kernel<<<grid, kThreads, 0, s>>>(m.nnz, m.coo_row, m.coo_col, m.coo_val, m.x, m.y, rec);
      break;
    case Kernel::kHybCoo:
      coo_kernel<<<grid, kThreads, 0, s>>>(m.hyb_coo_nnz, m.hyb_coo_row, m.hyb_coo_col,
                                           m.hyb_coo_val, m.x, m.y, rec);
      break;
  }
  RUNNER_CUDA_CHECK(cudaGetLastError());
}

}  // namespace spmv

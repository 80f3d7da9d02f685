// Declarations of the `spmv` experiment: generated test matrices and the CSR/ELL/COO kernels.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "workload_kit.h"

namespace spmv {

constexpr int kThreads = 256;  // threads per block of every SpMV kernel (the simulator's default)

// A square sparsity pattern in CSR form, columns sorted within each row.
struct Pattern {
  int rows = 0;
  std::vector<int> ptr;  // rows + 1
  std::vector<int> col;  // ptr[rows]
  int nnz() const { return ptr.empty() ? 0 : ptr.back(); }
  int row_length(int r) const { return ptr[r + 1] - ptr[r]; }
};

enum class Structure { kDense, kBanded, kScattered, kGrid };

// One of the paper's eight test matrices (Table IV), scaled down.
struct MatrixKind {
  const char* name;        // file stem
  const char* paper_name;  // Table IV name
  int paper_rows;          // Table IV dimension
  double nnz_per_row;      // Table IV non-zeros per row
  double spread;           // banded: row length uniform in mean x [1 - spread, 1 + spread]
  Structure structure;
};
const std::vector<MatrixKind>& matrix_kinds();

// Rows of `kind` for about `target_nnz` non-zeros, and the matrix itself (seeded, deterministic).
int rows_for(const MatrixKind& kind, int target_nnz);
Pattern generate(const MatrixKind& kind, int rows, uint64_t seed);
std::string describe_generator(const MatrixKind& kind);

// The entries: A[r][c] = ((7r + 3c) mod 16 + 1) / 16 and x[c] = 1 + (c mod 7) / 8. Every product
// is a multiple of 1/128 and every row sum stays far below 2^17, so float sums are exact in any
// order and the GPU result must equal the CPU result bit for bit.
__host__ __device__ inline float value_of(int r, int c) {
  return static_cast<float>((7 * r + 3 * c) % 16 + 1) * 0.0625f;
}
__host__ __device__ inline float x_of(int c) { return 1.0f + static_cast<float>(c % 7) * 0.125f; }

// Bell and Garland's HYB split: the largest width K such that at least rows/3 rows have >= K
// non-zeros (their relative speed 3; their absolute breakeven of 4096 rows is left out because
// these scaled matrices are smaller than it).
int hyb_width(const Pattern& p);

// Device copies of one matrix in every format (ELL column-major, padded with column -1).
struct DeviceMatrix {
  int rows = 0, nnz = 0, ell_width = 0, hyb_width = 0, hyb_coo_nnz = 0;
  int *csr_ptr = nullptr, *csr_col = nullptr;
  float* csr_val = nullptr;
  int* ell_col = nullptr;
  float* ell_val = nullptr;
  int *coo_row = nullptr, *coo_col = nullptr;
  float* coo_val = nullptr;
  int* hyb_ell_col = nullptr;
  float* hyb_ell_val = nullptr;
  int *hyb_coo_row = nullptr, *hyb_coo_col = nullptr;
  float* hyb_coo_val = nullptr;
  float *x = nullptr, *y = nullptr;
};
DeviceMatrix upload(const Pattern& p);
void release(DeviceMatrix& m);

// Kernel launches (one grid each, kThreads per block); `rec` null = uninstrumented.
enum class Kernel { kCsr, kEll, kCoo, kHybEll, kHybCoo };
const char* kernel_name(Kernel k);
int grid_of(const DeviceMatrix& m, Kernel k);
void launch(const DeviceMatrix& m, Kernel k, cudaStream_t s, kit::BlockRecord* rec);
const void* kernel_fn(Kernel k);  // for cudaFuncGetAttributes

}  // namespace spmv

// SpMV test-matrix generators: the paper's Table IV sizes, valid CSR, determinism per seed.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "gpusched/workloads/spmv_matrices.h"

using namespace gpusched::workloads;

TEST_CASE("spmv generators: Table IV dimensions and non-zeros per row") {
    // Table IV: Dense 2K 2000.0/row 4.0M; Protein 36K 119.3 4.3M; Spheres 83K 72.1 6.0M;
    // Cantilever 62K 64.1 4.0M; Harbor 47K 50.6 2.37M; QCD 49K 39.0 1.90M; Ship 141K 55.4 7.81M;
    // Epidemiology 526K 3.9 2.1M.
    const struct {
        const char* name;
        double rows_k, per_row, nnz_m;
    } table[] = {{"dense", 2, 2000, 4.0},      {"protein", 36, 119.3, 4.3}, {"spheres", 83, 72.1, 6.0},
                 {"cantilever", 62, 64.1, 4.0}, {"harbor", 47, 50.6, 2.37}, {"qcd", 49, 39.0, 1.90},
                 {"ship", 141, 55.4, 7.81},     {"epidemiology", 526, 3.9, 2.1}};
    for (const auto& t : table) {
        CAPTURE(t.name);
        const SpmvMatrixInfo* info = find_spmv_matrix_generator(t.name);
        REQUIRE(info != nullptr);
        CHECK(std::round(static_cast<double>(info->rows) / 1000) == t.rows_k);
        const auto nnz = static_cast<double>(spmv_generated_nnz(*info, info->rows));
        CHECK(nnz / 1e6 == doctest::Approx(t.nnz_m).epsilon(0.03));
        CHECK(nnz / static_cast<double>(info->rows) == doctest::Approx(t.per_row).epsilon(0.03));
    }
    CHECK(find_spmv_matrix_generator("webbase") == nullptr);
    CHECK(spmv_matrix_generator_names().rfind("dense, protein, spheres", 0) == 0);
}

TEST_CASE("spmv generators: valid CSR with the exact non-zero count, deterministic per seed") {
    for (const auto& info : spmv_matrix_generators()) {
        CAPTURE(info.name);
        const std::uint64_t rows = info.structure == SpmvStructure::dense ? 300 : 3000;
        const SparsePattern a = generate_spmv_matrix(info, rows, 7);
        a.check();
        CHECK(a.rows == rows);
        CHECK(a.nnz() == spmv_generated_nnz(info, rows));
        CHECK(generate_spmv_matrix(info, rows, 7) == a);
        if (info.structure != SpmvStructure::dense && info.structure != SpmvStructure::grid)
            CHECK_FALSE(generate_spmv_matrix(info, rows, 8) == a);
    }
    // QCD: every row exactly 39; Epidemiology: 2..4 per row; banded rows spread around the mean.
    const SparsePattern q = generate_spmv_matrix(*find_spmv_matrix_generator("qcd"), 1000, 1);
    for (std::uint64_t r = 0; r < q.rows; ++r) CHECK(q.row_length(r) == 39);
    const SparsePattern e = generate_spmv_matrix(*find_spmv_matrix_generator("epidemiology"), 1000, 1);
    for (std::uint64_t r = 0; r < e.rows; ++r) CHECK((e.row_length(r) >= 2 && e.row_length(r) <= 4));
    const SparsePattern h = generate_spmv_matrix(*find_spmv_matrix_generator("harbor"), 2000, 1);
    CHECK(h.max_row_length() > 60);
    CHECK(h.max_row_length() <= 76);  // 50.6 x 1.5 rounded, plus the total's +-1 nudges
}

TEST_CASE("spmv generators: a one-row matrix of each kind") {
    for (const auto& info : spmv_matrix_generators()) {
        CAPTURE(info.name);
        const SparsePattern p = generate_spmv_matrix(info, 1, 1);
        p.check();
        CHECK(p.rows == 1);
    }
}

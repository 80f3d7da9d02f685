// libFuzzer target: any bytes given to the Matrix Market reader (and the SpMV work models) succeed or throw InputError.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/matrix_market.h"
#include "gpusched/workloads/spmv_work.h"

using namespace gpusched;
using namespace gpusched::workloads;

namespace {

/// Summarises the first blocks of every format's work over the parsed matrix.
void exercise_work(const SparsePattern& p) {
    auto offsets = std::make_shared<const std::vector<std::uint64_t>>(p.row_offsets);
    const SpmvCsrWork csr(offsets, 64, SpmvCosts{});
    const SpmvEllWork ell(offsets, p.max_row_length(), 64, SpmvCosts{});
    const std::uint64_t width = hyb_width(*offsets, 3, 16);
    const SpmvEllWork hyb_ell(offsets, width, 64, SpmvCosts{}, "hyb-ell");
    auto rest = std::make_shared<const std::vector<std::uint64_t>>(hyb_coo_offsets(*offsets, width));
    const SpmvCooWork hyb_coo(rest, 64, SpmvCosts{}, "hyb-coo");
    const SpmvCooWork coo(offsets, 64, SpmvCosts{});
    for (const SpmvWork* w : {static_cast<const SpmvWork*>(&csr), static_cast<const SpmvWork*>(&ell),
                              static_cast<const SpmvWork*>(&hyb_ell), static_cast<const SpmvWork*>(&hyb_coo),
                              static_cast<const SpmvWork*>(&coo)})
        for (std::uint64_t b = 0; b < w->blocks() && b < 16; ++b) (void)w->warp_work(b);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // Small limits keep every input far below libFuzzer's memory limit; the code paths are the same.
    MatrixMarketLimits limits;
    limits.max_rows = std::uint64_t{1} << 16;
    limits.max_cols = std::uint64_t{1} << 20;
    limits.max_entries = std::uint64_t{1} << 18;
    try {
        const MatrixMarketMatrix m =
            parse_matrix_market(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.mtx", limits);
        m.pattern.check();
        exercise_work(m.pattern);
    } catch (const InputError&) {
        // Rejected with a message: the expected outcome for malformed input.
    }
    return 0;
}

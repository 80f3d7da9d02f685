// The `spmv` generator: reads or generates the matrix, picks the format's work model, sizes the grid.
#include "gpusched/workloads/spmv_kernel.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/matrix_market.h"
#include "gpusched/workloads/spec_numbers.h"
#include "gpusched/workloads/spmv_matrices.h"
#include "gpusched/workloads/spmv_work.h"

namespace gpusched::workloads {

namespace {

constexpr std::int64_t kSpmvDefaultThreads = 256;  // our choice: the paper does not give block sizes
constexpr std::int64_t kMaxGeneratedRows = std::int64_t{1} << 26;
constexpr std::uint64_t kMaxGeneratedEntries = std::uint64_t{1} << 28;  // 1 GiB of column indices
constexpr double kHybRelativeSpeed = 3;        // Bell & Garland's HYB heuristic: ELL is ~3x faster per entry
constexpr std::int64_t kHybBreakeven = 4096;   // ... and needs at least this many rows to pay off

/// The grid for `work`, failing on the format key when the matrix gives no blocks.
void size_grid(SpecArgs& args, KernelLaunch& launch, const SpmvWork& work) {
    const std::uint64_t blocks = work.blocks();
    if (blocks == 0) args.fail("format", "the matrix has no non-zeros, so the COO kernel has no blocks");
    const auto grid = grid_for_blocks(blocks);
    if (!grid || blocks > static_cast<std::uint64_t>(kMaxSpecBlocks))
        args.fail_spec("the matrix needs " + std::to_string(blocks) + " blocks, more than a grid can hold");
    launch.grid = *grid;
}

/// Fails on ns_per_instr when the busiest warp's `slots` would be beyond the longest duration.
void check_fixed_time(SpecArgs& args, double slots, double ns_per_instr) {
    if (!instruction_time(slots, ns_per_instr))
        args.fail(args.has("ns_per_instr") ? "ns_per_instr" : "format",
                  format_spec_number(slots) + " issue slots x " + format_spec_number(ns_per_instr) +
                      " ns per instruction is beyond the longest duration (2^63 ps); use a smaller ns_per_instr");
}

void build_spmv(SpecArgs& args, KernelLaunch& launch) {
    if (args.has("blocks") || args.has("grid"))
        args.fail(args.has("blocks") ? "blocks" : "grid", "spmv sizes its grid from the matrix; leave it out");
    const std::string format = args.text("format");
    if (format != "csr" && format != "ell" && format != "coo" && format != "hyb")
        args.fail("format", "expected csr, ell, coo or hyb, got '" + format + "'");
    for (const char* key : {"hyb_width", "hyb_speed", "hyb_breakeven"})
        if (format != "hyb" && args.has(key)) args.fail(key, "applies only to format=hyb");
    if (!args.has("threads") && !args.has("block")) launch.block = Dim3{static_cast<std::uint32_t>(kSpmvDefaultThreads), 1, 1};
    const std::uint64_t threads = launch.block.count();
    if (format == "csr" && threads % 32 != 0)
        args.fail(args.has("threads") ? "threads" : "block",
                  "the CSR vector kernel runs one warp per row: threads per block must be a multiple of 32, got " +
                      std::to_string(threads));

    SpmvCosts costs;
    costs.value_bytes = static_cast<double>(args.optional_integer("value_bytes", 1, 16).value_or(4));
    costs.iter_latency_given = args.has("iter_latency_cycles");
    costs.iter_latency_cycles = spec_number(args, "iter_latency_cycles", 0, 1e9, costs.iter_latency_cycles);
    costs.ns_per_instr = spec_number(args, "ns_per_instr", 0, 1e6, costs.ns_per_instr);
    std::optional<std::int64_t> width_key;
    double speed = kHybRelativeSpeed;
    std::int64_t breakeven = kHybBreakeven;
    if (format == "hyb") {
        width_key = args.optional_integer("hyb_width", 0, (std::int64_t{1} << 31) - 1);
        speed = spec_number(args, "hyb_speed", 1e-3, 1e6, kHybRelativeSpeed);
        breakeven = args.optional_integer("hyb_breakeven", 0, kMaxSpecBlocks).value_or(kHybBreakeven);
        if (width_key && (args.has("hyb_speed") || args.has("hyb_breakeven")))
            args.fail("hyb_width", "gives the width itself; leave out hyb_speed and hyb_breakeven");
    }

    SparsePattern matrix = spmv_spec_matrix(args);
    const std::uint64_t longest = matrix.max_row_length();
    // The work models need only the row offsets; the column indices are freed with `matrix`.
    auto offsets = std::make_shared<const std::vector<std::uint64_t>>(std::move(matrix.row_offsets));
    std::shared_ptr<const SpmvWork> work;
    std::string name = "spmv-" + format;
    if (format == "csr") {
        check_fixed_time(args, costs.csr_instr_row + static_cast<double>((longest + 31) / 32) * costs.csr_instr_iter,
                         costs.ns_per_instr);
        work = std::make_shared<const SpmvCsrWork>(offsets, threads, costs);
    } else if (format == "coo") {
        work = std::make_shared<const SpmvCooWork>(offsets, threads, costs);
    } else {
        const std::uint64_t width =
            format == "ell" ? longest
                            : (width_key ? static_cast<std::uint64_t>(*width_key)
                                         : hyb_width(*offsets, speed, static_cast<std::uint64_t>(breakeven)));
        const auto w = static_cast<double>(width);
        check_fixed_time(args, costs.ell_instr_row + w * (costs.ell_instr_slot + costs.ell_instr_entry),
                         costs.ns_per_instr);
        if (format == "hyb" && width == 0) {
            work = std::make_shared<const SpmvCooWork>(offsets, threads, costs, "hyb-coo");
            name = "spmv-hyb-coo";
        } else {
            work = std::make_shared<const SpmvEllWork>(offsets, std::min(width, longest), threads, costs,
                                                       format == "hyb" ? "hyb-ell" : "ell");
            if (format == "hyb") name = "spmv-hyb-ell";
        }
    }
    size_grid(args, launch, *work);
    if (!args.has("name")) launch.name = name;
    launch.work = work;
}

/// HYB's second launch: the COO part, on the ELL part's stream with the same block shape.
std::vector<KernelLaunch> spmv_then(const KernelLaunch& launch) {
    const auto* ell = dynamic_cast<const SpmvEllWork*>(launch.work.get());
    if (ell == nullptr || ell->label() != "hyb-ell") return {};
    auto rest = std::make_shared<const std::vector<std::uint64_t>>(hyb_coo_offsets(ell->offsets(), ell->width()));
    if (rest->back() == 0) return {};
    auto coo = std::make_shared<const SpmvCooWork>(rest, launch.block.count(), ell->costs(), "hyb-coo");
    KernelLaunch next = launch;
    next.name = launch.name == "spmv-hyb-ell" ? "spmv-hyb-coo" : launch.name;
    const auto grid = grid_for_blocks(coo->blocks());
    if (!grid)
        throw InputError("spmv hyb: the COO part needs " + std::to_string(coo->blocks()) +
                         " blocks, more than a grid can hold; use more threads per block");
    next.grid = *grid;
    next.work = coo;
    return {next};
}

}  // namespace

SparsePattern spmv_spec_matrix(SpecArgs& args) {
    if (args.has("matrix") == args.has("gen"))
        args.fail_spec("give exactly one of 'matrix=PATH' (a Matrix Market file) and 'gen=NAME' (" +
                       spmv_matrix_generator_names() + ")");
    if (args.has("matrix")) {
        for (const char* key : {"rows", "seed"})
            if (args.has(key)) args.fail(key, "applies only to a generated matrix (gen=NAME)");
        return read_matrix_market(args.text("matrix")).pattern;
    }
    const std::string name = args.text("gen");
    const SpmvMatrixInfo* info = find_spmv_matrix_generator(name);
    if (info == nullptr) args.fail("gen", "unknown matrix generator '" + name + "' (known: " + spmv_matrix_generator_names() + ")");
    const auto rows = static_cast<std::uint64_t>(
        args.optional_integer("rows", 1, kMaxGeneratedRows).value_or(static_cast<std::int64_t>(info->rows)));
    const auto seed = static_cast<std::uint64_t>(args.optional_integer("seed", 0, std::numeric_limits<std::int64_t>::max()).value_or(1));
    if (spmv_generated_nnz(*info, rows) > kMaxGeneratedEntries)
        args.fail("rows", std::to_string(rows) + " rows of '" + name + "' would hold more than 2^28 non-zeros");
    return generate_spmv_matrix(*info, rows, seed);
}

KernelGeneratorInfo spmv_generator() {
    KernelGeneratorInfo info;
    info.name = "spmv";
    info.description = "sparse matrix-vector product (CSR vector, ELL, COO, HYB) over a Matrix Market file or a "
                       "generated test matrix";
    info.keys = {
        {"format", "csr|ell|coo|hyb", "SpMV kernel (required); hyb = two launches, ELL then COO"},
        {"matrix", "PATH", "Matrix Market file (coordinate or array; real, integer or pattern)"},
        {"gen", "NAME", "generated matrix instead of a file: " + spmv_matrix_generator_names()},
        {"rows", "N", "gen only: rows (= columns), 1..2^26 (default: the paper's size)"},
        {"seed", "S", "gen only: random seed (default 1)"},
        {"hyb_width", "K", "hyb only: ELL width (default: Bell & Garland's rule)"},
        {"hyb_speed", "X", "hyb only: the rule's ELL-over-COO speed ratio (default 3)"},
        {"hyb_breakeven", "R", "hyb only: the rule's minimum row count (default 4096)"},
        {"value_bytes", "B", "bytes per matrix and vector value, 1..16 (default 4: single precision)"},
        {"iter_latency_cycles", "C", "latency-bound cycles per loop step per warp, 0..10^9 (default: each warp's dependency chain on the GPU)"},
        {"ns_per_instr", "NS", "`fixed` model only: nanoseconds per warp-instruction, 0..10^6 (default 1)"},
    };
    info.example = "spmv:format=csr,gen=cantilever";
    info.build = build_spmv;
    info.then = spmv_then;
    return info;
}

}  // namespace gpusched::workloads

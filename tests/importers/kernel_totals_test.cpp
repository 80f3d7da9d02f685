// Work totals from a trace: shapes give bytes and FLOPs, the bandwidth rule covers long memory kernels, bad shapes are counted notes.
#include <doctest/doctest.h>

#include <cmath>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/importers/imported_application.h"
#include "gpusched/importers/kernel_totals.h"
#include "gpusched/importers/kineto_reader.h"
#include "gpusched/importers/op_work.h"
#include "importers/importer_test_files.h"

using namespace gpusched::importers;
using gpusched::test::importer_data;

namespace {

/// The totals of the imported kernels of tests/importers/data/NAME, in launch order.
struct Imported {
    ImportTotals totals;
    std::vector<KernelTotals> kernels;
};

Imported import_totals(const std::string& name) {
    const std::string path = importer_data(name);
    const ImportedTrace trace = read_kineto_trace(path);
    const ImportedApplication app = build_application(trace, {});
    Imported out;
    out.totals = estimate_kernel_totals(trace, app, read_op_shapes(path), gpusched::hw::resolve_gpu("h100"));
    for (const AppItem& item : app.items)
        if (item.kind == AppItem::Kind::kernel) out.kernels.push_back(*out.totals.by_op[item.op]);
    return out;
}

const FamilyTotals* family(const ImportTotals& totals, const std::string& name) {
    for (const FamilyTotals& f : totals.families)
        if (f.family == name) return &f;
    return nullptr;
}

OpInput tensor(const std::string& type, std::vector<std::int64_t> dims) { return {type, std::move(dims), true, ""}; }
OpInput scalar(const std::string& concrete) { return {"Scalar", {}, true, concrete}; }

CpuOp op_with(const std::string& name, std::vector<OpInput> inputs) {
    CpuOp op;
    op.name = name;
    op.inputs = std::move(inputs);
    op.has_shapes = true;
    return op;
}

}  // namespace

TEST_CASE("shapes: bytes of memory kernels, FLOPs of compute kernels, split among an operator's kernels") {
    const Imported r = import_totals("shapes.json");
    REQUIRE(r.kernels.size() == 11);
    CHECK(r.totals.trace_has_shapes);
    // aten::add [1024,1024] + [1024] float: inputs + the broadcast output, 8392704 bytes in 1 us; the
    // h100 preset's 3000 GB/s move 3000000 of them from DRAM in that time, the rest is L2 traffic.
    CHECK(r.kernels[0].family == "elementwise");
    CHECK(r.kernels[0].work_from == "shapes");
    CHECK(*r.kernels[0].dram_bytes == 3000000);
    CHECK(*r.kernels[0].l2_bytes == 5392704);
    // copy_ bf16 <- float 10^6 elements (6 MB) launched a vectorized copy of 30 us and an unrolled one of
    // 10 us: the unrolled kernel is `elementwise_scalar` (SM-bound, duration only), so the copy takes all 6 MB.
    CHECK(r.kernels[1].family == "copy");
    CHECK(*r.kernels[1].dram_bytes == 6000000);
    CHECK(!r.kernels[1].l2_bytes);
    CHECK(r.kernels[2].family == "elementwise_scalar");
    CHECK(r.kernels[2].work_from == "duration");
    CHECK(!r.kernels[2].dram_bytes);
    // The innermost mm's args.flops, not the autocast wrapper's 999.
    CHECK(r.kernels[3].family == "gemm");
    CHECK(r.kernels[3].work_from == "profiler-flops");
    CHECK(*r.kernels[3].flops == 4194304);
    CHECK(r.kernels[3].dtype == "fp16");
    // FLOPs only: a matrix product's operand traffic overlaps its tensor work (no DRAM part of its floor).
    CHECK(!r.kernels[3].dram_bytes);
    // cudnn_convolution without flops: 2 N K P Q C R S = 2 x 8 x 16 x 32 x 32 x 3 x 3 x 3; float on a tf32 kernel.
    CHECK(r.kernels[4].family == "conv");
    CHECK(r.kernels[4].work_from == "shapes");
    CHECK(*r.kernels[4].flops == 7077888);
    CHECK(r.kernels[4].dtype == "tf32");
    CHECK(!r.kernels[4].dram_bytes);
    // The runtime link (no External id): aten::neg of 256 floats in and out.
    CHECK(*r.kernels[8].dram_bytes == 2048);
    // sum over dim 1 of [64, 32]: 8192 bytes in, 256 out.
    CHECK(r.kernels[9].family == "reduction");
    CHECK(*r.kernels[9].dram_bytes == 8448);
    CHECK(r.totals.shape_bytes == 4);
    CHECK(r.totals.shape_flops == 2);
}

TEST_CASE("bad shapes: unknown dtypes and zero elements give no totals and a counted note; no family match is `other`") {
    const Imported r = import_totals("shapes.json");
    // 20 us would take the bandwidth rule, but the shapes are there and wrong: duration only.
    CHECK(r.kernels[5].work_from == "duration");
    CHECK(!r.kernels[5].dram_bytes);
    CHECK(r.kernels[6].work_from == "duration");
    CHECK(r.kernels[7].family == "other");
    CHECK(r.kernels[7].rule == -1);
    CHECK(r.kernels[7].work_from == "duration");
    // A TensorList has no shapes: the rules apply (12 us x 3000 GB/s).
    CHECK(r.kernels[10].family == "optimizer");
    CHECK(r.kernels[10].work_from == "bandwidth-rule");
    CHECK(*r.kernels[10].dram_bytes == 36000000);
    REQUIRE(r.totals.notes.size() == 3);
    std::string notes;
    for (const auto& n : r.totals.notes) notes += n + "\n";
    CHECK(notes.find("1 kernel without totals from shapes: unknown dtype 'c10::complex<float>' (elementwise 1); duration only") !=
          std::string::npos);
    CHECK(notes.find("zero elements (elementwise 1); duration only") != std::string::npos);
    CHECK(notes.find("a TensorList input") != std::string::npos);
    const FamilyTotals* other = family(r.totals, "other");
    REQUIRE(other != nullptr);
    CHECK(other->kernels == 1);
    CHECK(other->rule_kernels == 1);
    const FamilyTotals* elementwise = family(r.totals, "elementwise");
    REQUIRE(elementwise != nullptr);
    CHECK(elementwise->kernels == 4);
    CHECK(elementwise->rule_kernels == 2);
    CHECK(elementwise->rule_time == 22'000'000);
    const auto lines = family_summary_lines(r.totals);
    REQUIRE(lines.size() == r.totals.families.size());
    CHECK(lines[0] == "family gemm: 1 kernel, 0.004 ms; from data 1 (0.004 ms) [shapes 0, profiler-flops 1], on a rule 0 (0.000 ms)");
}

TEST_CASE("without shapes: memory kernels of 10 us or more take the bandwidth rule, the rest the duration") {
    const Imported r = import_totals("no_shapes.json");
    CHECK(!r.totals.trace_has_shapes);
    CHECK(r.totals.notes.empty());
    CHECK(r.kernels[0].work_from == "duration");  // 1 us
    CHECK(r.kernels[1].work_from == "bandwidth-rule");
    CHECK(*r.kernels[1].dram_bytes == 90000000);  // 30 us x min(3000 GB/s, 132 SMs x 72 GB/s)
    CHECK(r.kernels[2].family == "elementwise_scalar");  // 10 us, but SM-bound: no bandwidth rule
    CHECK(r.kernels[2].work_from == "duration");
    CHECK(r.kernels[3].work_from == "duration");  // gemm: no FLOPs
    CHECK(!r.kernels[3].flops);
    CHECK(r.kernels[5].work_from == "bandwidth-rule");  // the 20 us elementwise kernel
    for (const KernelTotals& k : r.kernels) CHECK(!k.l2_bytes);
}

TEST_CASE("op_bytes and op_flops by the documented rules") {
    // Broadcasting shapes that do not broadcast: inconsistent.
    const OpEstimate bad = op_bytes(op_with("aten::add", {tensor("float", {3, 4}), tensor("float", {5})}), "elementwise");
    CHECK(!bad.value);
    CHECK(bad.inconsistent);
    // In place: the first input is written too; fill_ only writes.
    CHECK(*op_bytes(op_with("aten::add_", {tensor("float", {10}), tensor("float", {10})}), "elementwise").value == 120);
    CHECK(*op_bytes(op_with("aten::fill_", {tensor("c10::BFloat16", {10}), scalar("0")}), "elementwise").value == 20);
    // A backward op writes the largest input's shape.
    CHECK(*op_bytes(op_with("aten::threshold_backward", {tensor("float", {8}), tensor("float", {8}), scalar("0")}), "elementwise").value ==
          96);
    // Pooling: the output is the input divided by the stride, plus long indices.
    CpuOp pool = op_with("aten::max_pool2d_with_indices", {tensor("float", {1, 1, 4, 4}), scalar("[2, 2]"), scalar("[2, 2]")});
    pool.inputs[2].concrete = "[2, 2]";
    CHECK(*op_bytes(pool, "reduction").value == 64 + 16 + 32);
    // A layout transform or reduction a convolution, matrix product or attention launches: the operator's shapes
    // are its operands, not the kernel's bytes (the first conv's 70 us nhwcToNchw moves its 103 MB output, the
    // shapes' first input is the 19 MB image). No bytes, a problem the summary counts, and not inconsistent.
    for (const char* name : {"aten::cudnn_convolution", "aten::convolution_backward", "aten::mm", "aten::_scaled_dot_product_flash_attention"}) {
        CAPTURE(name);
        const OpEstimate helper = op_bytes(op_with(name, {tensor("float", {32, 3, 224, 224}), tensor("float", {64, 3, 7, 7})}), "copy");
        CHECK(!helper.value);
        CHECK(!helper.inconsistent);
        CHECK(helper.problem.find("a helper kernel of a compute operator") != std::string::npos);
    }
    // No dims to reduce: the whole tensor to one element.
    CHECK(*op_bytes(op_with("aten::sum", {tensor("float", {100})}), "reduction").value == 404);
    CHECK(!op_bytes(op_with("aten::add", {scalar("1")}), "elementwise").value);
    CHECK(!op_bytes(op_with("aten::add", {scalar("1")}), "elementwise").inconsistent);
    // bmm 2BMNK; convolution_backward: both gradients of output_mask [True, True, False].
    CHECK(*op_flops(op_with("aten::bmm", {tensor("c10::BFloat16", {4, 8, 16}), tensor("c10::BFloat16", {4, 16, 2})})).value ==
          2.0 * 4 * 8 * 16 * 2);
    CHECK(op_flops(op_with("aten::mm", {tensor("float", {8, 16}), tensor("float", {15, 2})})).inconsistent);
    CpuOp backward = op_with("aten::convolution_backward", {tensor("float", {2, 4, 8, 8}), tensor("float", {2, 3, 8, 8}),
                                                            tensor("float", {4, 3, 3, 3})});
    for (int i = 0; i < 7; ++i) backward.inputs.push_back(scalar(""));
    backward.inputs.push_back(scalar("[True, True, False]"));
    CHECK(*op_flops(backward).value == 2 * (2.0 * 2 * 4 * 8 * 8 * 3 * 3 * 3));
    backward.inputs.back().concrete = "[False, True, False]";
    CHECK(*op_flops(backward).value == 2.0 * 2 * 4 * 8 * 8 * 3 * 3 * 3);
    // Attention: 4 B H Sq Sk D.
    CHECK(*op_flops(op_with("aten::_scaled_dot_product_flash_attention",
                            {tensor("c10::BFloat16", {2, 4, 128, 64}), tensor("c10::BFloat16", {2, 4, 128, 64})}))
               .value == 4.0 * 2 * 4 * 128 * 128 * 64);
    CHECK(!op_flops(op_with("aten::relu", {tensor("float", {8})})).value);
    CHECK(dtype_bytes("c10::Float8_e4m3fn") == 1);
    CHECK(workload_dtype("c10::BFloat16") == "bf16");
    CHECK(workload_dtype("long int").empty());
    CHECK(dtype_bytes("c10::complex<float>") == 0);
}

TEST_CASE("absurd shapes and fields of other types give notes, never a crash or an infinite total") {
    const std::string trace = R"json({"deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "computeMajor": 9, "computeMinor": 0, "numSms": 132}],
"traceEvents": [
{"ph": 5, "cat": ["cpu_op"], "args": {"Input Dims": 3}},
{"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 1, "dur": 10, "args": {"External id": 1, "Input Dims": [[4000000000, 4000000000, 4000000000], [1]], "Input type": ["float", "float"], "flops": 1e300}},
{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 20, "dur": 10, "args": {"External id": 2, "Input Dims": [[8, 4], "x"], "Input type": ["float", 3], "flops": 1e300}},
{"ph": "X", "cat": "kernel", "name": "void at::native::vectorized_elementwise_kernel<4>(int)", "ts": 2, "dur": 1, "args": {"External id": 1, "stream": 7, "grid": [1, 1, 1], "block": [32, 1, 1]}},
{"ph": "X", "cat": "kernel", "name": "nvjet_sm90_tst_64x8", "ts": 22, "dur": 1, "args": {"External id": 2, "External id": 1e300, "stream": 7, "grid": [1, 1, 1], "block": [32, 1, 1]}}
]})json";
    const std::string path = gpusched::test::temp_file("absurd_shapes.json", trace);
    const ImportedTrace t = read_kineto_trace(path);
    const ImportedApplication app = build_application(t, {});
    const ImportTotals totals = estimate_kernel_totals(t, app, read_op_shapes(path), gpusched::hw::resolve_gpu("h100"));
    for (const auto& k : totals.by_op) {
        if (!k) continue;
        CHECK(k->work_from == "duration");
        CHECK(!k->dram_bytes);
        CHECK(!k->flops);
    }
    CHECK(!totals.notes.empty());
}

TEST_CASE("without shapes: compute kernels of 10 us or more take the efficiency rule, their dtype from their name") {
    const Imported r = import_totals("no_shapes_compute.json");
    REQUIRE(r.kernels.size() == 4);
    const gpusched::hw::GpuSpec h100 = gpusched::hw::resolve_gpu("h100");
    // nvjet `tst` (bf16), 40 us on 2 x 66 blocks: 0.71 (h100 library_efficiency.gemm) x 4096 bf16 FLOPs per SM
    // per cycle x 1980 MHz x 132 SMs x 40 us = 30,403,067,904.
    CHECK(r.kernels[0].work_from == "efficiency-rule");
    CHECK(r.kernels[0].dtype == "bf16");
    CHECK(*r.kernels[0].flops == std::round(h100.library_efficiency.at("gemm") * 4096 * 1980e6 * 132 * 40e-6));
    CHECK(*r.kernels[0].flops == 30403067904.0);
    // A tf32 convolution of 64 blocks, 20 us: 0.23 x 2048 x 1980 MHz x 64 SMs (fewer blocks than SMs) x 20 us.
    CHECK(r.kernels[1].family == "conv");
    CHECK(r.kernels[1].dtype == "tf32");
    CHECK(h100.library_efficiency.at("conv") == 0.23);
    CHECK(*r.kernels[1].flops == std::round(0.23 * 2048 * 1980e6 * 64 * 20e-6));
    // No dtype in the name: duration only, counted in a note; a 4 us GEMM is under the rules' 10 us.
    CHECK(r.kernels[2].work_from == "duration");
    CHECK(!r.kernels[2].flops);
    CHECK(r.kernels[3].work_from == "duration");
    REQUIRE(r.totals.notes.size() == 1);
    CHECK(r.totals.notes[0] ==
          "1 compute kernel of 10 us or more without FLOPs and no efficiency rule: no dtype in its name (gemm 1); duration only");
    const auto lines = family_summary_lines(r.totals);
    CHECK(lines[0] == "family gemm: 3 kernels, 0.074 ms; from data 0 (0.000 ms), on a rule 3 (0.074 ms) [efficiency-rule 1, duration 2]");
}

TEST_CASE("the efficiency rule needs the reference preset's library_efficiency: without it, duration and a note") {
    const std::string path = importer_data("no_shapes_compute.json");
    const ImportedTrace trace = read_kineto_trace(path);
    const ImportedApplication app = build_application(trace, {});
    gpusched::hw::GpuSpec reference = gpusched::hw::resolve_gpu("h100");
    reference.library_efficiency.erase("gemm");
    const ImportTotals totals = estimate_kernel_totals(trace, app, read_op_shapes(path), reference);
    int gemm_rule = 0, conv_rule = 0;
    for (const auto& k : totals.by_op)
        if (k && k->work_from == "efficiency-rule") (k->family == "gemm" ? gemm_rule : conv_rule) += 1;
    CHECK(gemm_rule == 0);
    CHECK(conv_rule == 1);
    std::string notes;
    for (const auto& n : totals.notes) notes += n + "\n";
    CHECK(notes.find("1 compute kernel of 10 us or more without FLOPs and no efficiency rule: h100 gives no "
                     "execution.library_efficiency.gemm (gemm 1); duration only") != std::string::npos);
}

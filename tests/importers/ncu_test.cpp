// Nsight Compute CSV: units honoured, thousands separators, and the join into an imported workload (order, names, grid/block).
#include <doctest/doctest.h>

#include <sstream>

#include "gpusched/importers/imported_application.h"
#include "gpusched/importers/kineto_reader.h"
#include "gpusched/importers/ncu_join.h"
#include "gpusched/importers/ncu_report.h"
#include "gpusched/importers/imported_workload.h"
#include "gpusched/support/input_error.h"
#include "gpusched/workloads/generator_registry.h"
#include "gpusched/workloads/workload_file.h"
#include "gpusched/workloads/workload_writer.h"
#include "importers/importer_test_files.h"
#include "importers/synthetic_stand_in.h"

using namespace gpusched::importers;
using gpusched::InputError;
using gpusched::test::importer_data;
using gpusched::test::temp_file;

namespace {

using gpusched::workloads::WorkloadDocument;

/// The imported two-stream workload as read back from its YAML, named w.yaml.
WorkloadDocument imported() {
    const auto trace = read_kineto_trace(importer_data("two_streams.json"));
    const WorkloadDocument document =
        imported_workload(trace, build_application(trace, {}), {"torch", "two_streams.json", "h100", "NVIDIA H100 80GB HBM3", 132});
    return gpusched::workloads::read_workload_document(gpusched::workloads::workload_yaml(document), "w.yaml");
}

/// The YAML of `document` after joining the rows of `csv`.
std::string joined_yaml(WorkloadDocument document, const std::string& csv, const std::vector<NcuRow>& rows) {
    join_ncu(document, csv, rows);
    return gpusched::workloads::workload_yaml(document);
}

std::string join_error(const std::string& csv) {
    try {
        WorkloadDocument document = imported();
        join_ncu(document, csv, read_ncu_csv(importer_data(csv)));
    } catch (const InputError& e) {
        return gpusched::test::without_temp_dir(e.what());
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("read_ncu_csv converts Mbyte, usecond and separated thousands exactly") {
    const auto rows = read_ncu_csv(importer_data("two_streams_ncu.csv"));
    REQUIRE(rows.size() == 6);
    CHECK(rows[0].line == 5);  // two ==PROF== lines, the header, the units row
    CHECK(rows[0].id == "0");
    CHECK(rows[0].kernel_name == "gemm_kernel");
    CHECK(rows[0].instructions == 4194304);     // "4,194,304" inst
    CHECK(rows[0].dram_bytes == 12'580'000);    // 12.58 Mbyte (ncu's prefixes are powers of 1000)
    CHECK(rows[0].l2_bytes == 40'110'000);
    CHECK(rows[0].cycles == 96651);             // "96,650.50" cycle, rounded half away from zero
    CHECK(rows[0].duration == 48'830'000);      // 48.83 usecond in ps
    CHECK(rows[0].occupancy_pct == doctest::Approx(12.41));
    CHECK(rows[0].grid == std::array<std::uint32_t, 3>{128, 1, 1});
    CHECK(rows[0].block == std::array<std::uint32_t, 3>{256, 1, 1});
}

TEST_CASE("the ncu rows join the imported kernels in order and fill instructions, dram_bytes, l2_bytes") {
    const auto rows = read_ncu_csv(importer_data("two_streams_ncu.csv"));
    const std::string joined = joined_yaml(imported(), "r.csv", rows);
    // gemm: l2_bytes = lts 40.11 MB - dram 12.58 MB = 27530000.
    CHECK(joined.find("    notes: [\"void gemm_kernel<128, 64>(float const*, float*, int)\", "
                      "\"ncu: achieved occupancy 12.41%, 96651 cycles, 48.83us\"]\n") != std::string::npos);
    CHECK(joined.find("    measured_gpu: h100\n"
                      "    work_from: ncu\n"
                      "    instructions: 4194304\n"
                      "    dram_bytes: 12580000\n"
                      "    l2_bytes: 27530000\n") != std::string::npos);
    // The third kernel (reduce_rows, step 1): lts 3.10 MB is below dram 4.19 MB: l2_bytes 0.
    CHECK(joined.find("    dram_bytes: 4190000\n    l2_bytes: 0\n") != std::string::npos);
    CHECK(joined.rfind("notes:\n  - \"Nsight Compute metrics joined by `gpusched import ncu` from r.csv (6 kernels).\"\n", 0) == 0);
    // Joining again replaces the keys and the ncu note instead of adding a second set.
    const std::string again = joined_yaml(gpusched::workloads::read_workload_document(joined, "w.yaml"), "r.csv", rows);
    const auto count = [&](const std::string& what) {
        std::size_t n = 0;
        for (std::size_t at = 0; (at = again.find(what, at)) != std::string::npos; ++at) ++n;
        return n;
    };
    CHECK(count("instructions:") == 6);
    CHECK(count("\"ncu: ") == 6);
    CHECK(count("Nsight Compute metrics joined") == 2);  // one note per join, the latest first
    const bool have_kernel = gpusched::workloads::find_kernel_generator("kernel") != nullptr;
    if (have_kernel) CHECK(gpusched::workloads::parse_workload(joined, "joined.yaml").launches.size() == 6);
    else CHECK(gpusched::workloads::parse_workload(gpusched::test::synthetic_stand_in(joined), "joined.yaml").launches.size() == 6);
}

TEST_CASE("a CSV of another program, a wrong grid or too few rows: FILE:LINE of the row") {
    CHECK(join_error("ncu_other_program.csv").find("ncu_other_program.csv:5: kernel row 1 (ID 0) 'conv2d_kernel' grid (128, 1, 1) "
                                                   "block (256, 1, 1) does not match kernel 1 of w.yaml:") == 0);
    CHECK(join_error("ncu_wrong_grid.csv").find("ncu_wrong_grid.csv:7: kernel row 3 (ID 2) 'reduce_rows' grid (32, 1, 1)") == 0);
    CHECK(join_error("ncu_short.csv").find("ncu_short.csv:10: the CSV ends after 5 kernel rows, but w.yaml has 6 kernels") == 0);
}

TEST_CASE("bad ncu CSVs name the line") {
    const auto error = [](const std::string& name, const std::string& text) {
        try {
            (void)read_ncu_csv(temp_file(name, text));
        } catch (const InputError& e) {
            return gpusched::test::without_temp_dir(e.what());
        }
        return std::string("(no error)");
    };
    CHECK(error("a.csv", "kernel,launch\nk,0\n").find("a.csv:1: not an Nsight Compute CSV") == 0);
    CHECK(error("b.csv", "\"Kernel Name\",\"dram__bytes.sum\",\"lts__t_bytes.sum\"\nk,1,2\n")
              .find("b.csv:1: missing column 'smsp__inst_executed.sum'") == 0);
    const std::string header = "\"ID\",\"Kernel Name\",\"dram__bytes.sum\",\"lts__t_bytes.sum\",\"smsp__inst_executed.sum\"\n";
    CHECK(error("c.csv", header + "\"\",\"\",\"zorks\",\"byte\",\"inst\"\n").find("c.csv:2: column 'dram__bytes.sum': unknown unit 'zorks'") == 0);
    CHECK(error("d.csv", header + "0,k,abc,1,1\n").find("d.csv:2: column 'dram__bytes.sum': expected a non-negative number, got 'abc'") == 0);
    CHECK(error("e.csv", header + "0,k,-5,1,1\n").find("e.csv:2: column 'dram__bytes.sum': expected a non-negative number, got '-5'") == 0);
    CHECK(error("f.csv", header + "0,k,1\n").find("f.csv:2: ragged row: 3 cells, but the header has 5") == 0);
    CHECK(error("g.csv", header).find("g.csv: no kernel rows") == 0);
    CHECK(error("h.csv", header + "0,\"k,1,1,1\n").find("h.csv:2: unterminated quote in a CSV field") == 0);
    // Without a units row, values are in base units.
    CHECK(read_ncu_csv(temp_file("i.csv", header + "0,k,1000,2500,7\n"))[0].l2_bytes == 2500);
}

TEST_CASE("joining a hand-edited workload: keys go after the item's own keys; flow style joins too, repeat is refused") {
    const std::string csv = temp_file("one.csv", "\"ID\",\"Kernel Name\",\"Grid Size\",\"Block Size\",\"dram__bytes.sum\",\"lts__t_bytes.sum\","
                                                 "\"smsp__inst_executed.sum\"\n0,gemm_kernel,\"(128, 1, 1)\",\"(256, 1, 1)\",10,30,7\n");
    const auto rows = read_ncu_csv(csv);
    const std::string block_style = "launches:\n"
                                    "  - {record: a, stream: 0}\n"
                                    "  - kernel: kernel\n"
                                    "    notes: [\"void gemm_kernel<128, 64>(float const*, float*, int)\"]\n"
                                    "    name: \"gemm_kernel[128+64]\"\n"
                                    "    grid: 128x1x1\n"
                                    "    block: 256\n"
                                    "    after:\n"
                                    "      - x\n"
                                    "      - y\n"
                                    "  - {delay: 1us}\n";
    // l2_bytes = 30 - 10; the keys follow the item's own keys, its `after` list written before them.
    const auto join = [&](const std::string& yaml) {
        return joined_yaml(gpusched::workloads::read_workload_document(yaml, "w.yaml"), "one.csv", rows);
    };
    CHECK(join(block_style).find("    after: [x, y]\n    name: \"gemm_kernel[128+64]\"\n    grid: 128x1x1\n    block: 256\n"
                                 "    work_from: ncu\n    instructions: 7\n    dram_bytes: 10\n    l2_bytes: 20\n  - {delay: 1us, stream: 0}\n") !=
          std::string::npos);
    // An imported kernel's work_from (the rule its totals came from) becomes ncu in place; its flops stay.
    CHECK(join("launches:\n  - {kernel: kernel, name: gemm_kernel, grid: 128, block: 256, family: gemm, work_from: duration, flops: 5}\n")
              .find("    family: gemm\n    work_from: ncu\n    flops: 5\n    instructions: 7\n") != std::string::npos);
    // FLOPs of the efficiency rule (a duration's worth at the family's efficiency) give way to the measured totals.
    const std::string ruled =
        join("launches:\n  - {kernel: kernel, name: gemm_kernel, grid: 128, block: 256, family: gemm, work_from: efficiency-rule, "
             "flops: 5, dtype: bf16}\n");
    CHECK(ruled.find("    family: gemm\n    work_from: ncu\n    instructions: 7\n") != std::string::npos);
    CHECK(ruled.find("flops") == std::string::npos);
    CHECK(ruled.find("dtype") == std::string::npos);
    CHECK(join("launches:\n  - {kernel: kernel, name: gemm_kernel, grid: 128, block: 256}\n").find("    l2_bytes: 20\n") !=
          std::string::npos);
    const auto error = [&](const std::string& yaml) {
        try {
            (void)join(yaml);
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    CHECK(error("launches:\n  - kernel: kernel\n    repeat: 2\n").find("w.yaml:2: launches[0]: a kernel with 'repeat'") == 0);
    CHECK(error("launches:\n  - kernel: synthetic\n    blocks: 1\n").find("w.yaml: no `kernel: kernel` items") == 0);
    CHECK(error("launches: [").find("w.yaml:") == 0);
}

TEST_CASE("newer ncu unit spellings and a gzip-compressed CSV") {
    // ncu 2025 prints "ns" and "byte"; the bytes are exact, "1,548,320" ns is 1548.32 us.
    const std::string header = "\"ID\",\"Kernel Name\",\"dram__bytes.sum\",\"lts__t_bytes.sum\",\"smsp__inst_executed.sum\",\"gpu__time_duration.sum\"\n"
                               "\"\",\"\",\"MB\",\"byte\",\"inst\",\"ns\"\n";
    const auto rows = read_ncu_csv(temp_file("new_units.csv", header + "\"0\",\"k\",\"1.5\",\"8,323,848,864\",\"183,183,238\",\"1,548,320\"\n"));
    CHECK(rows[0].dram_bytes == 1'500'000);
    CHECK(rows[0].l2_bytes == 8'323'848'864);
    CHECK(rows[0].duration == 1'548'320'000);
    // The committed report, gzip-compressed, reads as the plain one (GzipStream recognises the magic bytes).
    const auto plain = read_ncu_csv(importer_data("two_streams_ncu.csv"));
    const auto packed = read_ncu_csv(importer_data("two_streams_ncu.csv.gz"));
    REQUIRE(packed.size() == plain.size());
    CHECK(packed[5].l2_bytes == plain[5].l2_bytes);
    CHECK(packed[5].line == plain[5].line);
}

// The SpMV strip model: Section III's strip sizes and benchmark matrices, least-squares lines (Eigen), estimates.
//
// Notation (the paper's Table I): S the strip size, I the strip count, P_NZ the non-zeros per row, T
// a benchmark matrix's time. A target matrix has I = ceil(N_R / S) strips (ceil(N_NZ / S_COO) for COO)
// and P_NZ = the mode (CSR) or maximum (ELL) of its row lengths. Every "relationship" of Section
// III-F is a straight line y = slope x + intercept fitted by least squares to the benchmark times.
#include "gpusched/models/spmv_strip_model.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

#include <Eigen/Dense>

#include "gpusched/support/input_error.h"
#include "gpusched/support/metadata_csv.h"

namespace gpusched::models {

namespace {

std::uint64_t strips_needed(std::uint64_t a, std::uint64_t b) { return std::max<std::uint64_t>(1, a / b + (a % b != 0)); }

constexpr std::uint64_t kMaxBenchmarkStrips = 10;  // Section III-C2: "the largest benchmark matrix contains 10 strips"

}  // namespace

SpmvStripSizes spmv_strip_sizes(const hw::GpuSpec& gpu) {
    const auto sms = static_cast<std::uint64_t>(gpu.sm_count);
    SpmvStripSizes s;
    s.csr = sms * static_cast<std::uint64_t>(gpu.max_warps_per_sm);
    s.ell = s.csr * static_cast<std::uint64_t>(gpu.warp_size);
    s.coo = sms * static_cast<std::uint64_t>(gpu.max_threads_per_sm);
    return s;
}

std::vector<SpmvBenchmarkPoint> spmv_benchmark_plan() {
    std::vector<SpmvBenchmarkPoint> plan;
    for (const char* format : {"csr", "ell"})
        for (std::uint64_t i = 1; i <= kMaxBenchmarkStrips; ++i)
            for (const std::uint64_t p : {4, 16, 64, 256, 1024, 2048, 4096})
                if (p != 4096 || std::string(format) == "csr") plan.push_back({format, i, p, 0});
    for (std::uint64_t p = 10; p <= 100; p += 10) plan.push_back({"coo", 1, p, 0});
    return plan;
}

std::vector<SpmvBenchmarkPoint> read_spmv_benchmarks(const std::string& path) {
    MetadataCsvOptions options;
    options.what = "benchmark CSV";
    options.max_line = std::size_t{1} << 16;
    options.quotes = true;
    std::vector<SpmvBenchmarkPoint> points;
    for (const CsvRow& row : read_metadata_csv(path, options, {"format", "strips", "nnz_per_row", "time_us"}).rows) {
        SpmvBenchmarkPoint p;
        p.format = row.text("format");
        if (p.format != "csr" && p.format != "ell" && p.format != "coo")
            throw InputError(row.where() + ": format: expected csr, ell or coo, got '" + p.format.substr(0, 40) + "'");
        const auto integer = [&](const std::string& column) {
            const std::string& f = row.text(column);
            std::uint64_t v = 0;
            const auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
            if (ec != std::errc{} || end != f.data() + f.size() || v < 1 || v > (std::uint64_t{1} << 40))
                throw InputError(row.where() + ": " + column + ": expected an integer in [1, 2^40], got '" +
                                 f.substr(0, 40) + "'");
            return v;
        };
        p.strips = integer("strips");
        p.nnz_per_row = integer("nnz_per_row");
        const std::string& t = row.text("time_us");
        const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), p.time_us);
        if (ec != std::errc{} || end != t.data() + t.size() || !std::isfinite(p.time_us) || !(p.time_us > 0))
            throw InputError(row.where() + ": time_us: expected a positive number, got '" + t.substr(0, 40) + "'");
        points.push_back(p);
    }
    if (points.empty()) throw InputError(path + ": no benchmark rows (expected a header and one row per benchmark)");
    return points;
}

std::uint64_t spmv_benchmark_rows(const SpmvStripSizes& sizes, const SpmvBenchmarkPoint& point) {
    const std::uint64_t s = point.format == "csr" ? sizes.csr : point.format == "ell" ? sizes.ell : sizes.coo;
    return s * point.strips;
}

std::vector<std::uint64_t> spmv_uniform_offsets(std::uint64_t rows, std::uint64_t nnz_per_row) {
    std::vector<std::uint64_t> offsets(rows + 1);
    for (std::uint64_t r = 0; r <= rows; ++r) offsets[r] = r * nnz_per_row;
    return offsets;
}

SpmvTargetFeatures spmv_target_features(const std::vector<std::uint64_t>& row_offsets) {
    SpmvTargetFeatures t;
    t.rows = row_offsets.size() - 1;
    t.nnz = row_offsets.back();
    std::map<std::uint64_t, std::uint64_t> histogram;
    for (std::uint64_t r = 0; r < t.rows; ++r) ++histogram[row_offsets[r + 1] - row_offsets[r]];
    std::uint64_t best = 0;
    for (const auto& [len, count] : histogram) {
        if (count > best) {  // ascending lengths: ties keep the smallest
            best = count;
            t.mode_row_length = len;
        }
        t.max_row_length = len;
    }
    return t;
}

SpmvStripModel::SpmvStripModel(SpmvStripSizes sizes, std::uint64_t threshold, std::vector<SpmvBenchmarkPoint> points)
    : sizes_(sizes), threshold_(threshold), points_(std::move(points)) {
    if (sizes_.csr == 0 || sizes_.ell == 0 || sizes_.coo == 0) throw InputError("strip model: a strip size is 0");
    std::uint64_t fewest = 0;
    for (const auto& p : points_)
        if (p.format == "csr" && (fewest == 0 || p.strips < fewest)) fewest = p.strips;
    reference_strips_ = std::max<std::uint64_t>(fewest, 1);
}

std::vector<const SpmvBenchmarkPoint*> SpmvStripModel::select(const std::string& format, std::uint64_t strips,
                                                              std::uint64_t pnz) const {
    std::vector<const SpmvBenchmarkPoint*> out;
    for (const auto& p : points_)
        if (p.format == format && (strips == 0 || p.strips == strips) && (pnz == 0 || p.nnz_per_row == pnz))
            out.push_back(&p);
    return out;
}

SpmvStripModel::Line SpmvStripModel::fit(const std::vector<double>& x, const std::vector<double>& y,
                                         const std::string& what) {
    const auto n = static_cast<Eigen::Index>(x.size());
    if (n < 2 || *std::min_element(x.begin(), x.end()) == *std::max_element(x.begin(), x.end()))
        throw InputError("strip model: " + what + " needs benchmark times at two or more distinct points");
    // Least squares for [x 1] [slope intercept]^T = y.
    Eigen::MatrixXd a(n, 2);
    Eigen::VectorXd b(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        a(i, 0) = x[static_cast<std::size_t>(i)];
        a(i, 1) = 1;
        b(i) = y[static_cast<std::size_t>(i)];
    }
    const Eigen::Vector2d s = a.colPivHouseholderQr().solve(b);
    return {s(0), s(1)};
}

std::uint64_t SpmvStripModel::nearest_pnz(const std::string& format, double x, bool below_threshold) const {
    std::uint64_t best = 0;
    double distance = 0;
    for (const auto* p : select(format, 0, 0)) {
        const bool below = p->nnz_per_row <= threshold_;
        if (format == "csr" && below != below_threshold && p->nnz_per_row != threshold_) continue;
        const double d = std::abs(static_cast<double>(p->nnz_per_row) - x);
        if (best == 0 || d < distance || (d == distance && p->nnz_per_row < best)) {
            best = p->nnz_per_row;
            distance = d;
        }
    }
    if (best == 0) throw InputError("strip model: no " + format + " benchmark times");
    return best;
}

SpmvStripEstimate SpmvStripModel::csr(const SpmvTargetFeatures& t) const {
    const auto x0 = static_cast<double>(t.mode_row_length);
    const bool below = t.mode_row_length <= threshold_;
    // Relationship-1 (Figures 3, 4): T = A x + B over P_NZ in x0's regime at the reference strip count.
    std::vector<double> xs, ys;
    for (const auto* p : select("csr", reference_strips_, 0))
        if (below ? p->nnz_per_row <= threshold_ : p->nnz_per_row >= threshold_) {
            xs.push_back(static_cast<double>(p->nnz_per_row));
            ys.push_back(p->time_us);
        }
    const Line rel1 = fit(xs, ys, std::string("CSR relationship-1 (P_NZ ") + (below ? "<=" : ">=") + " threshold)");
    // The benchmark M: P_NZ = Z nearest x0 in the same regime, at the reference strip count (t1).
    const std::uint64_t z = nearest_pnz("csr", x0, below);
    const auto m = select("csr", reference_strips_, z);
    if (m.empty() || !(m.front()->time_us > 0))
        throw InputError("strip model: CSR needs a positive benchmark time at P_NZ " + std::to_string(z));
    // Relationship-2 (Figures 5, 6): T' = C y + D over the strip count at P_NZ = Z.
    xs.clear();
    ys.clear();
    for (const auto* p : select("csr", 0, z)) {
        xs.push_back(static_cast<double>(p->strips));
        ys.push_back(p->time_us);
    }
    const Line rel2 = fit(xs, ys, "CSR relationship-2 (P_NZ " + std::to_string(z) + ")");
    SpmvStripEstimate e;
    e.strips = strips_needed(t.rows, sizes_.csr);
    e.nnz_per_row = x0;
    const double t0 = rel1.at(x0), t1 = m.front()->time_us, t2 = rel2.at(static_cast<double>(e.strips));
    e.time_us = t0 / t1 * t2;
    return e;
}

double SpmvStripModel::ell_time(std::uint64_t strips, double x) const {
    // Relationship-1 (Figure 7) per benchmark strip count y: T = f(y) x + g(y); then
    // Relationship-2 (Figure 8): f(y) as a line in y.
    std::map<std::uint64_t, std::pair<std::vector<double>, std::vector<double>>> by_strips;
    for (const auto* p : select("ell", 0, 0)) {
        by_strips[p->strips].first.push_back(static_cast<double>(p->nnz_per_row));
        by_strips[p->strips].second.push_back(p->time_us);
    }
    std::vector<double> ys, fs;
    for (const auto& [y, pts] : by_strips) {
        ys.push_back(static_cast<double>(y));
        fs.push_back(fit(pts.first, pts.second, "ELL relationship-1 (" + std::to_string(y) + " strips)").slope);
    }
    const Line f = fit(ys, fs, "ELL relationship-2 (slope over strips)");
    // Relationship-3 (Figure 9): e(y) = T at P_NZ = x1 as a line in y; g(Y) = e(Y) - f(Y) x1. (The
    // paper prints "f(Y) * Y"; x1 is what its definition e(y) = f(y) x1 + g(y) gives.)
    const std::uint64_t x1 = nearest_pnz("ell", x, true);
    std::vector<double> es_y, es;
    for (const auto* p : select("ell", 0, x1)) {
        es_y.push_back(static_cast<double>(p->strips));
        es.push_back(p->time_us);
    }
    const Line e = fit(es_y, es, "ELL relationship-3 (P_NZ " + std::to_string(x1) + ")");
    const auto y = static_cast<double>(strips);
    const double g = e.at(y) - f.at(y) * static_cast<double>(x1);
    return f.at(y) * x + g;
}

SpmvStripEstimate SpmvStripModel::ell(const SpmvTargetFeatures& t) const {
    SpmvStripEstimate e;
    e.strips = strips_needed(t.rows, sizes_.ell);
    e.nnz_per_row = static_cast<double>(t.max_row_length);
    e.time_us = ell_time(e.strips, e.nnz_per_row);
    return e;
}

SpmvStripEstimate SpmvStripModel::coo(const SpmvTargetFeatures& t) const {
    // Relationship-1 (Figure 10): T over the strip count; a benchmark with S_COO rows of P_NZ has
    // S_COO x P_NZ non-zeros, i.e. I x P_NZ strips.
    std::vector<double> xs, ys;
    for (const auto* p : select("coo", 0, 0)) {
        xs.push_back(static_cast<double>(p->strips * p->nnz_per_row));
        ys.push_back(p->time_us);
    }
    const Line rel = fit(xs, ys, "COO relationship-1");
    SpmvStripEstimate e;
    e.strips = strips_needed(t.nnz, sizes_.coo);
    e.nnz_per_row = t.rows == 0 ? 0 : static_cast<double>(t.nnz) / static_cast<double>(t.rows);
    e.time_us = rel.at(static_cast<double>(e.strips));
    return e;
}

SpmvStripEstimate SpmvStripModel::hyb(const SpmvTargetFeatures& t, std::uint64_t width, std::uint64_t coo_nnz) const {
    SpmvStripEstimate e;
    e.nnz_per_row = static_cast<double>(width);
    if (width > 0) {
        e.strips = strips_needed(t.rows, sizes_.ell);
        e.time_us += ell_time(e.strips, static_cast<double>(width));
    }
    if (coo_nnz > 0) {
        SpmvTargetFeatures rest = t;
        rest.nnz = coo_nnz;
        const SpmvStripEstimate c = coo(rest);
        e.coo_strips = c.strips;
        e.time_us += c.time_us;
    }
    return e;
}

}  // namespace gpusched::models

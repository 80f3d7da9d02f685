// The `h200` section of gpusched validate: the H200's measured curves and series against the h200 preset, and the H200 / H100 ratios measured against predicted.
#pragma once

#include <string>
#include <vector>

#include "gpusched/validation/curve_validation.h"
#include "gpusched/validation/section.h"
#include "gpusched/validation/series_validation.h"

namespace gpusched::validation {

/// One measured experiment (a curve of one kernel, issue and block size, or the series) on both
/// GPUs: per common point the measured ratio H200 / H100 and the predicted one, h200 / h100 preset
/// (uncalibrated simulations of the same specs).
struct H200RatioRow {
    std::string experiment;        ///< "apsp-minplus host-calls 8", ..., "binomial-series"
    int points = 0;                ///< points measured on both GPUs
    double measured_median = 0;    ///< median of the measured ratios
    double predicted_median = 0;   ///< median of the predicted ratios
    double median_abs_error_percent = 0;  ///< median |predicted / measured - 1|, %
    double max_abs_error_percent = 0;
};

/// What the section found on an H200 data directory.
struct H200Comparison {
    std::vector<CurveComparison> curves;  ///< validate_curve_dir on the h200 preset
    SeriesComparison series;              ///< validate_series on the h200 preset (generator defaults)
    std::string h100_dir;                 ///< the H100 data beside it ("" = none: no ratios)
    std::vector<H200RatioRow> ratios;
};

/// Compares `data_dir` (measured on an H200: `curves/`) with the h200 preset whatever --gpu says,
/// and, where `data_dir/../h100` holds the same experiments, the H200 / H100 ratios. InputError for
/// malformed data.
H200Comparison validate_h200(const std::string& data_dir, const std::string& policy);

/// The comparison as text (the curve and series tables, then the ratios), JSON key "h200", and a report part.
class H200View final : public SectionView {
public:
    H200View(H200Comparison comparison, std::string dir);
    void print_text(std::ostream& out) const override;
    void add_json(nlohmann::ordered_json& top) const override;
    std::string report_part() const override;

private:
    H200Comparison c_;
    std::string dir_;
};

/// Runs only on data measured on an H200 (the `# device_name=NVIDIA H200` line of
/// curves/apsp_minplus_queued.csv); on any other data directory it shows nothing.
class H200Section final : public ValidationSection {
public:
    std::string name() const override { return "h200"; }
    std::string description() const override;
    std::string input() const override { return "curves"; }
    std::unique_ptr<SectionView> run(const std::string& data_dir, const SectionSettings& settings) const override;
};

}  // namespace gpusched::validation

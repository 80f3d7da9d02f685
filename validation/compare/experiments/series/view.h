// The `series` section of gpusched validate: the binomial series over blocks x threads, calibrated at one point.
#pragma once

#include <string>

#include "gpusched/validation/section.h"
#include "experiments/series/comparison.h"

namespace gpusched::validation {

/// The series: a grid of errors (threads x blocks); JSON key "series"; in the report a chart of
/// measured and calibrated simulated times, one line per block size, and the table of points.
class SeriesView final : public SectionView {
public:
    SeriesView(SeriesComparison series, std::string csv);
    void print_text(std::ostream& out) const override;
    void add_json(nlohmann::ordered_json& top) const override;
    std::string report_part() const override;

private:
    SeriesComparison series_;
    std::string csv_;
};

/// Compares curves/binomial.csv (validate_series).
class SeriesSection final : public ValidationSection {
public:
    std::string name() const override { return "series"; }
    std::string description() const override;
    std::string input() const override { return "curves/binomial.csv"; }
    std::unique_ptr<SectionView> run(const std::string& data_dir, const SectionSettings& settings) const override;
};

}  // namespace gpusched::validation

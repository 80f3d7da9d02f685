// Reading the runner's measured tables (by column name, located errors).
#include "gpusched/calibrate/measured_data.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "gpusched/support/input_error.h"
#include "gpusched/support/yaml_fields.h"
#include "gpusched/sweep/csv.h"
#include "gpusched/support/text_file.h"

namespace gpusched::calibrate {

namespace {

constexpr std::size_t kMaxTableBytes = std::size_t{64} << 20;

/// Data rows of a CSV with a header; `columns` are looked up in the header by name.
class MeasuredTable {
public:
    MeasuredTable(const std::string& path, const std::vector<std::string>& columns) : path_(path) {
        const std::string text = read_text_file(path, "measured data", kMaxTableBytes);
        bool header = true;
        for (auto& r : sweep::read_csv_records(text, path)) {
            if (r.cells.empty()) continue;
            if (header) {
                for (const auto& c : columns) {
                    const auto it = std::find(r.cells.begin(), r.cells.end(), c);
                    if (it == r.cells.end())
                        throw InputError(path + ":" + std::to_string(r.line) + ": the header has no column '" + c + "'");
                    index_.push_back(static_cast<std::size_t>(it - r.cells.begin()));
                }
                header = false;
                continue;
            }
            if (r.cells.size() <= *std::max_element(index_.begin(), index_.end()))
                throw InputError(path + ":" + std::to_string(r.line) + ": fewer cells than the header");
            rows_.push_back(std::move(r));
        }
        if (header) throw InputError(path + ": no header line");
        if (rows_.empty()) throw InputError(path + ": no data rows");
    }

    [[nodiscard]] const std::vector<sweep::CsvRecord>& rows() const { return rows_; }
    [[nodiscard]] const std::string& text(const sweep::CsvRecord& r, std::size_t column) const {
        return r.cells[index_[column]];
    }
    /// The cell as a number in [min, max]; `whole` asks for an integer.
    [[nodiscard]] double number(const sweep::CsvRecord& r, std::size_t column, const std::string& name, double min,
                                double max, bool whole) const {
        const auto v = parse_number(text(r, column));
        if (!v || *v < min || *v > max || (whole && *v != std::floor(*v)))
            throw InputError(path_ + ":" + std::to_string(r.line) + ": column '" + name + "': expected " +
                             (whole ? "an integer" : "a number") + " in [" + std::to_string(min) + ", " +
                             std::to_string(max) + "], got '" + text(r, column) + "'");
        return *v;
    }

private:
    std::string path_;
    std::vector<std::size_t> index_;
    std::vector<sweep::CsvRecord> rows_;
};

}  // namespace

std::vector<SeriesMeasurement> read_series_measurements(const std::string& path) {
    const MeasuredTable t(path, {"blocks", "threads", "terms", "median_ms"});
    std::vector<SeriesMeasurement> out;
    for (const auto& r : t.rows()) {
        SeriesMeasurement m;
        m.blocks = static_cast<std::uint64_t>(t.number(r, 0, "blocks", 1, 1099511627776.0, true));
        m.threads = static_cast<int>(t.number(r, 1, "threads", 1, 1024, true));
        m.terms = static_cast<std::uint64_t>(t.number(r, 2, "terms", 1, 1e12, true));
        m.measured_us = t.number(r, 3, "median_ms", 1e-9, 1e9, false) * 1000.0;
        out.push_back(m);
    }
    return out;
}

std::vector<ApspMeasurement> read_apsp_measurements(const std::string& path, const std::string& algorithm) {
    const MeasuredTable t(path, {"algorithm", "n", "block", "median_ms"});
    std::vector<ApspMeasurement> out;
    for (const auto& r : t.rows()) {
        if (t.text(r, 0) != algorithm) continue;
        ApspMeasurement m;
        m.algorithm = algorithm;
        m.n = static_cast<std::int64_t>(t.number(r, 1, "n", 2, 1e9, true));
        m.block = static_cast<int>(t.number(r, 2, "block", 1, 1024, true));
        m.measured_us = t.number(r, 3, "median_ms", 1e-9, 1e9, false) * 1000.0;
        out.push_back(m);
    }
    if (out.empty()) throw InputError(path + ": no rows with algorithm '" + algorithm + "'");
    return out;
}

}  // namespace gpusched::calibrate

// Reading the runner's measured tables with the '#'-metadata CSV reader: cells by column name, ranges checked.
#include "gpusched/calibrate/measured_data.h"

#include <algorithm>
#include <cmath>

#include "gpusched/support/input_error.h"
#include "gpusched/support/metadata_csv.h"
#include "gpusched/support/yaml_fields.h"

namespace gpusched::calibrate {

namespace {

constexpr std::size_t kMaxTableBytes = std::size_t{64} << 20;

/// The rows of a '#'-metadata CSV whose header has every one of `columns`.
class MeasuredTable {
public:
    MeasuredTable(const std::string& path, const std::vector<std::string>& columns)
        : csv_(read_metadata_csv(path, options())) {
        if (csv_.header.empty()) throw InputError(path + ": no header line");
        for (const auto& c : columns)
            if (std::find(csv_.header.begin(), csv_.header.end(), c) == csv_.header.end())
                throw InputError(path + ":" + std::to_string(csv_.header_line) + ": the header has no column '" + c + "'");
        if (csv_.rows.empty()) throw InputError(path + ": no data rows");
    }

    [[nodiscard]] const std::vector<CsvRow>& rows() const { return csv_.rows; }
    /// The cell as a number in [min, max]; `whole` asks for an integer.
    [[nodiscard]] static double number(const CsvRow& r, const std::string& name, double min, double max, bool whole) {
        const auto v = parse_number(r.text(name));
        if (!v || *v < min || *v > max || (whole && *v != std::floor(*v)))
            throw InputError(r.where() + ": column '" + name + "': expected " + (whole ? "an integer" : "a number") +
                             " in [" + std::to_string(min) + ", " + std::to_string(max) + "], got '" + r.text(name) + "'");
        return *v;
    }

private:
    static MetadataCsvOptions options() {
        MetadataCsvOptions o;
        o.what = "measured data";
        o.quotes = true;
        o.max_bytes = kMaxTableBytes;
        return o;
    }

    MetadataCsv csv_;
};

}  // namespace

std::vector<SeriesMeasurement> read_series_measurements(const std::string& path) {
    const MeasuredTable t(path, {"blocks", "threads", "terms", "median_ms"});
    std::vector<SeriesMeasurement> out;
    for (const auto& r : t.rows()) {
        SeriesMeasurement m;
        m.blocks = static_cast<std::uint64_t>(t.number(r, "blocks", 1, 1099511627776.0, true));
        m.threads = static_cast<int>(t.number(r, "threads", 1, 1024, true));
        m.terms = static_cast<std::uint64_t>(t.number(r, "terms", 1, 1e12, true));
        m.measured_us = t.number(r, "median_ms", 1e-9, 1e9, false) * 1000.0;
        out.push_back(m);
    }
    return out;
}

std::vector<ApspMeasurement> read_apsp_measurements(const std::string& path, const std::string& algorithm) {
    const MeasuredTable t(path, {"algorithm", "n", "block", "median_ms"});
    std::vector<ApspMeasurement> out;
    for (const auto& r : t.rows()) {
        if (r.text("algorithm") != algorithm) continue;
        ApspMeasurement m;
        m.algorithm = algorithm;
        m.n = static_cast<std::int64_t>(t.number(r, "n", 2, 1e9, true));
        m.block = static_cast<int>(t.number(r, "block", 1, 1024, true));
        m.measured_us = t.number(r, "median_ms", 1e-9, 1e9, false) * 1000.0;
        out.push_back(m);
    }
    if (out.empty()) throw InputError(path + ": no rows with algorithm '" + algorithm + "'");
    return out;
}

}  // namespace gpusched::calibrate

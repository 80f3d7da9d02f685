// sweep for the Python module: a study's points on threads (GIL released), or chosen points for an executor's task.
#include <algorithm>
#include <sstream>

#include <pybind11/stl.h>

#include "bindings.h"
#include "gpusched/support/csv_records.h"
#include "gpusched/support/input_error.h"
#include "gpusched/sweep/point_runner.h"
#include "gpusched/sweep/point_space.h"
#include "gpusched/sweep/results_file.h"
#include "gpusched/sweep/study.h"
#include "gpusched/sweep/sweep_runner.h"

namespace py = pybind11;

namespace gpusched::python {

namespace {

/// The study's result columns and point count, after the checks `gpusched sweep` makes before it runs.
py::tuple study_outline(const std::string& yaml, const std::string& source, const std::string& base_dir) {
    const sweep::Study study = sweep::parse_study(yaml, source, base_dir);
    {
        const py::gil_scoped_release unlocked;
        sweep::check_study(study);
    }
    return py::make_tuple(sweep::results_columns(study), study.total_points);
}

/// Every point on `threads` threads: the results CSV `gpusched sweep -j THREADS` writes (of a study
/// study_outline checked).
std::string sweep_csv(const std::string& yaml, const std::string& source, const std::string& base_dir,
                      unsigned threads) {
    const py::gil_scoped_release unlocked;
    const sweep::Study study = sweep::parse_study(yaml, source, base_dir);
    sweep::SweepOptions options;
    options.threads = std::max(1U, threads);
    std::ostringstream out;
    sweep::run_sweep(study, options, out);
    return out.str();
}

/// The CSV rows (each with its newline) of the study's points `points`, in the order given.
std::vector<std::string> sweep_rows(const std::string& yaml, const std::string& source, const std::string& base_dir,
                                    const std::vector<std::uint64_t>& points) {
    const py::gil_scoped_release unlocked;
    const sweep::Study study = sweep::parse_study(yaml, source, base_dir);
    sweep::PointRunner runner(study);
    std::vector<std::string> rows;
    rows.reserve(points.size());
    for (const std::uint64_t p : points) {
        if (p >= study.total_points)
            throw InputError("point " + std::to_string(p) + ": the study has " + std::to_string(study.total_points) +
                             " points");
        const std::vector<std::string> values = runner.effective_values(sweep::point_values(study, p));
        const std::vector<std::string> metrics = runner.run(values);
        std::vector<std::string> cells{std::to_string(p)};
        cells.insert(cells.end(), values.begin(), values.end());
        cells.insert(cells.end(), metrics.begin(), metrics.end());
        rows.push_back(csv_row(cells));
    }
    return rows;
}

}  // namespace

void add_sweep_bindings(py::module_& m) {
    m.def("study_outline", &study_outline, py::arg("yaml"), py::arg("source"), py::arg("base_dir"),
          "(columns, points) of a checked study.");
    m.def("sweep_csv", &sweep_csv, py::arg("yaml"), py::arg("source"), py::arg("base_dir"), py::arg("threads"),
          "The results CSV of every point of a study study_outline checked, run on threads.");
    m.def("sweep_rows", &sweep_rows, py::arg("yaml"), py::arg("source"), py::arg("base_dir"), py::arg("points"),
          "The results CSV rows of the given points.");
}

}  // namespace gpusched::python

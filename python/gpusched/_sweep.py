"""gpusched.sweep: a what-if study (dict or YAML file) on threads or on any concurrent.futures.Executor."""
import csv
import io
import json
import os

from . import _core
from ._tables import _pandas, from_results_csv


def run_points(study_yaml, source, base_dir, points):
    """The results CSV rows of `points` of a study (an executor's task; module level, so it pickles by name)."""
    return _core.sweep_rows(study_yaml, source, base_dir, list(points))


def _study_text(study, base_dir):
    """(YAML text, source, base folder) of a study dict or file."""
    if isinstance(study, dict):
        # JSON is YAML: the study file's keys and values, one per line, so messages name a line.
        return json.dumps(study, indent=2), "<study>", os.path.abspath(base_dir or os.getcwd())
    path = os.fspath(study)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return text, path, os.path.abspath(base_dir or os.path.dirname(path) or ".")


def sweep(study, threads=None, executor=None, chunk=None, base_dir=None):
    """Run every point of a what-if study; one row per point, as `gpusched sweep` writes them.

    study     a dict with the keys of a study file (docs/sweep.md: study, workloads, fixed, points)
              or the path of a study YAML file
    threads   worker threads when no executor is given (default: os.cpu_count()); the GIL is
              released while the points simulate
    executor  any concurrent.futures.Executor (a process pool, distributed.Client(...).get_executor()):
              the points go to it in chunks as picklable tasks, gpusched.run_points(study_yaml,
              source, base_dir, points); the workers must be able to import gpusched
    chunk     points per task (default: about 64 tasks)
    base_dir  where relative GPU and workload files of the study are (default: the study file's
              folder, or the current folder for a dict)

    Returns a pandas DataFrame (a NumPy record array without pandas) with the columns of the
    results CSV: point, the parameters, the metrics, error. Rows are in point order and the
    same whatever runs them. A bad study raises gpusched.InputError before any point runs.

    >>> gpusched.sweep({"study": "sms", "workloads": {"k": "apsp-minplus:n=500,block=16"},
    ...                 "points": [{"grid": {"sm_count": [32, 66, 132]}}]})[["sm_count", "makespan_ns"]]
    """
    text, source, folder = _study_text(study, base_dir)
    columns, total = _core.study_outline(text, source, folder)
    if executor is None:
        # The points run in C++ without the GIL while pandas is imported (a third of a second) here.
        from concurrent.futures import ThreadPoolExecutor
        with ThreadPoolExecutor(1) as pool:
            csv_text = pool.submit(_core.sweep_csv, text, source, folder, int(threads or os.cpu_count() or 1))
            _pandas()
            return from_results_csv(csv_text.result())
    size = int(chunk or max(1, -(-total // 64)))
    futures = [executor.submit(run_points, text, source, folder, range(start, min(start + size, total)))
               for start in range(0, total, size)]
    header = io.StringIO()
    csv.writer(header, lineterminator="\n").writerow(columns)
    return from_results_csv(header.getvalue() + "".join("".join(f.result()) for f in futures))

"""gpusched.sweep: a study dict or file on threads, on a process pool and on a local Dask cluster, against `gpusched sweep`."""
import concurrent.futures
import os

import pytest

import gpusched
from conftest import run_cli

STUDY = {
    "study": "python-sweep",
    "workloads": {"minplus": "apsp-minplus:regs=32"},
    "fixed": {"gpu": "h100", "block": 16},
    "points": [
        {"grid": {"sm_count": [16, 66, 132], "n": [100, 300], "block": [8, 16]}},
        {"list": [{"gpu": "a100", "n": 200, "block": 16, "policy": "round-robin"}]},
        {"random": {"count": 4, "seed": 7, "axes": {"n": {"min": 50, "max": 400}, "clock_mhz": {"min": 1000.0, "max": 2000.0}}}},
    ],
}


def cli_table(study_path):
    import pandas
    _, out, _ = run_cli("sweep", str(study_path), "-j", "2", "--quiet")
    return pandas.read_csv(__import__("io").StringIO(out), comment="#", keep_default_na=False, na_values=[""]).fillna({"error": ""})


@pytest.fixture(scope="module")
def study_file(tmp_path_factory):
    import json
    path = tmp_path_factory.mktemp("study") / "study.yaml"
    path.write_text(json.dumps(STUDY, indent=2))
    return path


def same(a, b):
    import pandas
    pandas.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True), check_dtype=False)


def test_threads_give_the_command_lines_rows(study_file):
    table = gpusched.sweep(STUDY, threads=2)
    assert len(table) == 3 * 2 * 2 + 1 + 4
    assert list(table["point"]) == list(range(len(table)))
    assert table["makespan_ns"].notna().all() and (table["error"] == "").all()
    same(table, cli_table(study_file))
    same(gpusched.sweep(study_file, threads=1), table)
    small = table[(table["n"] == 300) & (table["block"] == 16) & (table["gpu"] == "h100")].sort_values("sm_count")
    assert list(small["makespan_ns"]) == sorted(small["makespan_ns"], reverse=True), "fewer SMs take longer"


def test_example_study_files(source_dir):
    path = os.path.join(source_dir, "examples", "sweep-apsp.yaml")
    same(gpusched.sweep(path), cli_table(path))


def test_process_pool_executor():
    with concurrent.futures.ProcessPoolExecutor(2) as pool:
        table = gpusched.sweep(STUDY, executor=pool, chunk=3)
    same(table, gpusched.sweep(STUDY, threads=2))


def test_bad_studies_raise_before_running():
    with pytest.raises(gpusched.InputError, match="no_such_parameter"):
        gpusched.sweep({**STUDY, "points": [{"grid": {"no_such_parameter": [1, 2]}}]})
    with pytest.raises(gpusched.InputError, match="study"):
        gpusched.sweep({"workloads": {"k": "apsp-minplus"}, "points": [{"grid": {"n": [10]}}]})
    with pytest.raises(FileNotFoundError):
        gpusched.sweep("no-such-study.yaml")


def test_points_that_cannot_run_report_their_error():
    table = gpusched.sweep({"study": "e", "workloads": {"k": "synthetic:blocks=4,duration=1us"},
                            "points": [{"list": [{"threads": 256}, {"threads": 256, "gpu": "c2075", "max_threads_per_block": 128}]}]})
    assert table["error"][0] == "" and table["error"][1] != ""


def test_dask_cluster_of_two_worker_processes():
    distributed = pytest.importorskip("distributed", reason="python3-distributed is not installed (scripts/install-deps.sh)")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            table = gpusched.sweep(STUDY, executor=client.get_executor(), chunk=4)
            workers = client.run(lambda: os.getpid())
    assert len(workers) == 2
    same(table, gpusched.sweep(STUDY, threads=2))

"""gpusched.simulate against `gpusched simulate`: summary, launches, blocks, explanation, Gantt chart, imports."""
import os
import threading
import time

import pytest

import gpusched
from gpusched import _tables
from conftest import cli_json, run_cli

SYNTHETIC = "synthetic:blocks=265,threads=1024,duration=50us"


def test_summary_is_the_json_of_the_command_line():
    r = gpusched.simulate(gpu="h100", kernel=SYNTHETIC)
    assert r.summary == cli_json("simulate", "--kernel", SYNTHETIC, "--json")
    assert r.makespan_ns == pytest.approx(101782, abs=1)
    assert str(r).startswith("gpusched summary")
    assert "makespan" in r._repr_html_()


def test_what_if_gpu_policy_and_execution():
    r = gpusched.simulate(gpu=gpusched.gpu("h100", sms=64), kernel=gpusched.kernel("apsp-minplus", n=300, block=16),
                          policy="round-robin", execution="shared")
    assert r.summary == cli_json("simulate", "--gpu", "h100", "--sms", "64", "--kernel", "apsp-minplus:n=300,block=16",
                                 "--policy", "round-robin", "--exec", "shared", "--json")
    assert r.summary["sm_count"] == 64 and r.summary["policy"] == "round-robin"


def test_kernels_table_has_a_row_per_launch():
    r = gpusched.simulate(kernels=[SYNTHETIC, "synthetic:blocks=10,threads=256,duration=250ns,stream=1"])
    table = r.kernels
    assert list(table["stream"]) == [0, 1]
    assert list(table["blocks"]) == [265, 10]
    assert table["end_ns"].max() == pytest.approx(r.makespan_ns)


def test_default_kernel_is_the_command_lines():
    assert gpusched.simulate().summary == cli_json("simulate", "--json")


def test_blocks_are_the_timeline(tmp_path):
    kernel = "synthetic:blocks=400,threads=256,regs=40,duration=10us~30us,seed=2"
    r = gpusched.simulate(kernel=kernel, policy="buckets", blocks=True)
    blocks = r.blocks
    assert len(blocks) == r.summary["total_blocks"] == 400
    run_cli("simulate", "--policy", "buckets", "--kernel", kernel, "--timeline", str(tmp_path / "t.csv"))
    import pandas
    csv = pandas.read_csv(tmp_path / "t.csv", comment="#")
    assert list(csv.columns) == list(blocks.columns)
    assert (csv["sm"].to_numpy() == blocks["sm"].to_numpy()).all()
    assert (abs(csv["end_ns"].to_numpy() - blocks["end_ns"].to_numpy()) < 1e-3).all()
    assert set(blocks["kernel"]) == {"synthetic"}
    with pytest.raises(ValueError, match="blocks=True"):
        gpusched.simulate(kernel=kernel).blocks


def test_record_arrays_without_pandas(monkeypatch):
    monkeypatch.setattr(_tables, "_pandas", lambda: None)
    r = gpusched.simulate(kernel=SYNTHETIC, blocks=True)
    assert r.kernels.dtype.names[:2] == ("launch", "name")
    assert r.kernels["blocks"][0] == 265
    assert len(r.blocks) == 265 and r.blocks["end_ns"].max() == pytest.approx(r.makespan_ns)
    table = gpusched.sweep({"study": "s", "workloads": {"k": "synthetic:threads=256,duration=1us"},
                            "points": [{"grid": {"blocks": [10, 1000]}}]}, threads=2)
    assert list(table["blocks"]) == [10, 1000] and table["makespan_ns"][1] > table["makespan_ns"][0]


def test_explain_is_the_command_lines():
    r = gpusched.simulate(kernel=SYNTHETIC)
    _, out, _ = run_cli("simulate", "--kernel", SYNTHETIC, "--explain")
    assert out == str(r) + "\n" + r.explain()
    assert "occupancy" in r.explain()
    explained = gpusched.simulate(kernel=SYNTHETIC, explain=True)
    assert explained.summary == cli_json("simulate", "--kernel", SYNTHETIC, "--explain", "--json")
    assert "time_account" in explained.summary and "time_account" not in r.summary


def test_gantt_is_the_command_lines_svg(tmp_path):
    kernel = "apsp-minplus:n=97,block=8"
    r = gpusched.simulate(gpu="c2075", kernel=kernel)
    run_cli("simulate", "--gpu", "c2075", "--kernel", kernel, "--gantt", str(tmp_path / "g.svg"))
    chart = r.gantt()
    assert chart.svg == (tmp_path / "g.svg").read_text()
    assert chart._repr_html_().startswith("<svg") and chart._repr_html_().endswith(chart.svg[-20:])
    assert chart.save(tmp_path / "mine.svg") == tmp_path / "mine.svg"
    by_stream = gpusched.simulate(kernel="sssp:nodes=400,degree=4,sources=4,streams=2", execution="shared").gantt("stream")
    assert "stream 1" in by_stream.svg


def test_workload_file(source_dir):
    path = os.path.join(source_dir, "examples", "copy-overlap.yaml")
    w = gpusched.workload(path)
    assert len(w.launches) > 0
    r = gpusched.simulate(workload=w)
    assert r.summary == cli_json("simulate", "--workload", path, "--json")
    assert gpusched.simulate(workload=path).summary == r.summary


def test_import_torch_is_the_command_lines(source_dir, tmp_path):
    trace = os.path.join(source_dir, "validation", "data", "h100", "torch", "transformer_k132.json.gz")
    w = gpusched.import_torch(trace)
    launches = w.launches
    assert len(launches) > 10 and {"name", "blocks", "threads_per_block", "family"} <= set(launches.columns)
    run_cli("import", "torch", trace, "--out", str(tmp_path / "model.yaml"))
    assert w.yaml == (tmp_path / "model.yaml").read_text()
    assert w.save(tmp_path / "mine.yaml") == tmp_path / "mine.yaml"
    r = gpusched.simulate(gpu="h100", workload=w)
    assert r.summary == cli_json("simulate", "--workload", str(tmp_path / "model.yaml"), "--json")
    with pytest.raises(gpusched.InputError, match="no-such"):
        gpusched.import_torch(tmp_path / "no-such.json")


def test_bad_runs_raise_input_errors():
    with pytest.raises(gpusched.InputError, match="alternatives"):
        gpusched.simulate(kernel=SYNTHETIC, workload="x.yaml")
    with pytest.raises(gpusched.InputError, match="threads"):
        gpusched.simulate(kernel="synthetic:blocks=1,threads=4096,duration=1us")
    with pytest.raises(gpusched.InputError, match="walk_start"):
        gpusched.simulate(kernel=SYNTHETIC, walk_start="2")


def test_the_gil_is_released_while_simulating():
    done = []
    worker = threading.Thread(target=lambda: done.append(
        gpusched.simulate(kernel="synthetic:blocks=2000000,threads=128,duration=1us~3us,seed=1", execution="fixed")))
    count = 0
    start = time.perf_counter()
    worker.start()
    while worker.is_alive():
        count += 1
    elapsed = time.perf_counter() - start
    worker.join()
    assert done and elapsed > 0.05
    assert count > 1000, f"the main thread ran {count} loops in {elapsed:.2f} s beside the simulation"

"""The gpusched module: import, help, GPU and kernel values, occupancy, errors."""
import os
import pydoc
import subprocess
import sys

import pytest

import gpusched
from conftest import cli_json


def test_import_in_a_fresh_interpreter_is_quick_and_light():
    code = "import time, sys; t = time.perf_counter(); import gpusched; print(time.perf_counter() - t, 'pandas' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[1] == "False", "importing gpusched must not import pandas (it is slow to import)"
    assert float(out[0]) < 2.0


def test_help_shows_the_docstrings():
    text = pydoc.render_doc(gpusched, renderer=pydoc.plaintext)
    for name in ("simulate", "sweep", "occupancy", "import_torch", "gpu", "kernel", "InputError"):
        assert name in text
    assert "as `gpusched simulate` does" in pydoc.render_doc(gpusched.simulate, renderer=pydoc.plaintext)
    assert "gpusched simulate --json" in pydoc.render_doc(gpusched.Result, renderer=pydoc.plaintext)
    assert "command line's message" in (gpusched.InputError.__doc__ or "")
    assert "Executor" in pydoc.render_doc(gpusched.sweep, renderer=pydoc.plaintext)


def test_presets():
    names = gpusched.gpus()
    assert "h100" in names and "a100" in names and "c2075" in names
    assert names.index("c2075") < names.index("h100")


def test_gpu_values():
    h100 = gpusched.gpu("h100")
    assert h100.sm_count == 132 and h100.compute_capability == "9.0" and h100.name == "h100"
    assert gpusched.gpu("H100").name == "h100"
    smaller = h100.with_(sm_count=64)
    assert smaller.sm_count == 64 and smaller.name == "h100 (sm_count=64)"
    assert gpusched.gpu("h100", sms=64) == smaller
    assert h100.sm_count == 132, "with_ makes a new value"
    assert smaller.with_(sm_count=32).sm_count == 32
    slow = h100.with_(**{"memory.dram_bandwidth_gbps": 1500})
    assert "dram_bandwidth_gbps: 1500" in slow.yaml()
    assert "dram_bandwidth_gbps: 1500" not in h100.yaml()


def test_gpu_file(source_dir):
    half = gpusched.gpu(os.path.join(source_dir, "examples", "half-h100.yaml"))
    assert half.sm_count < 132


def test_kernel_values():
    a = gpusched.kernel("apsp-minplus", n=1000, block=16)
    assert str(a) == "apsp-minplus:n=1000,block=16"
    assert gpusched.kernel("apsp-minplus:n=1000,block=16") == a
    assert str(a.with_(n=500)) == "apsp-minplus:n=500,block=16"


def test_occupancy_is_the_command_lines():
    mine = gpusched.occupancy("a100", threads=128, smem=60000, carveout=50)
    assert mine == cli_json("occupancy", "--gpu", "a100", "--threads", "128", "--smem", "60000", "--carveout", "50", "--json")
    clusters = gpusched.occupancy(gpusched.gpu("h100"), threads=1024, cluster=4)
    assert clusters["max_active_clusters"] == 62
    assert gpusched.occupancy("h100", threads=256, regs=32)["blocks_per_sm"] == 8


def test_errors_are_input_errors_naming_keys():
    assert issubclass(gpusched.InputError, ValueError)
    with pytest.raises(gpusched.InputError, match="sm_count"):
        gpusched.gpu("h100", sms=0)
    with pytest.raises(gpusched.InputError, match="h10"):
        gpusched.gpu("h10")
    with pytest.raises(gpusched.InputError, match="unknown GPU key 'no_such_key'"):
        gpusched.gpu("h100").with_(no_such_key=1)
    with pytest.raises(gpusched.InputError, match="apsp-minplu"):
        gpusched.kernel("apsp-minplu", n=10)
    with pytest.raises(gpusched.InputError, match="threads"):
        gpusched.occupancy("h100", threads=2048)
    with pytest.raises(ValueError, match="policy"):
        gpusched.simulate(kernel="synthetic:blocks=10,threads=64,duration=1us", policy="no-such-policy")
    with pytest.raises(gpusched.InputError) as caught:
        gpusched.simulate(kernel="synthetic:blocks=10,threads=64,duration=1us", policy="no-such-policy")
    assert "--" not in str(caught.value), "the module's messages name keys, not flags"

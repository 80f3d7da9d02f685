"""Every `gpusched simulate` example of README.md run both ways, the command and the module, with equal summaries."""
import json
import os
import re
import shlex
import subprocess

import pytest

import gpusched
from conftest import EXE, SOURCE_DIR

# How each simulate flag becomes a keyword of gpusched.simulate (None: an output file, not an input).
REPEATED = {"--kernel": "kernels", "--calibration": "calibrations", "--set": "set"}
SINGLE = {"--gpu": "gpu", "--sms": "sms", "--workload": "workload", "--replay": "replay", "--policy": "policy",
          "--exec": "execution", "--walk-start": "walk_start", "--threads": "threads", "--regs": "regs",
          "--smem": "smem"}
OUTPUTS = {"--timeline", "--trace", "--gantt", "--gantt-colour"}
SWITCHES = {"--json": None, "--explain": "explain"}


def readme_commands():
    """The `$G ...` commands of README.md's Examples block, continuation lines joined, comments dropped."""
    text = open(os.path.join(SOURCE_DIR, "README.md"), encoding="utf-8").read()
    block = text.split("## Examples", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    block = re.sub(r"\\\n\s*", " ", block)
    commands = []
    for line in block.splitlines():
        for part in line.split(";"):
            words = shlex.split(part, comments=True)
            if words[:1] == ["$G"]:
                commands.append(words[1:])
    return commands


def module_call(args):
    """gpusched.simulate's keywords for `gpusched simulate ARGS`."""
    kw, sets, i = {}, {}, 0
    while i < len(args):
        flag = args[i]
        if flag in SWITCHES:
            if SWITCHES[flag]:
                kw[SWITCHES[flag]] = True
            i += 1
            continue
        value = args[i + 1]
        i += 2
        if flag in OUTPUTS:
            continue
        if flag in REPEATED:
            if flag == "--set":
                key, _, v = value.partition("=")
                sets[key] = v
            else:
                kw.setdefault(REPEATED[flag], []).append(value)
        elif flag in SINGLE:
            kw[SINGLE[flag]] = value
        else:
            raise AssertionError(f"README example flag {flag} has no keyword in test_readme.py")
    gpu_keys = {"sms": kw.pop("sms")} if "sms" in kw else {}
    gpu_keys.update(sets)
    kw["gpu"] = gpusched.gpu(kw.get("gpu", "h100"), **gpu_keys)
    if len(kw.get("kernels", [])) == 1:
        kw["kernel"] = kw.pop("kernels")[0]
    for key in ("threads", "regs", "smem"):
        if key in kw:
            kw[key] = int(kw[key])
    return kw


def test_readme_has_simulate_examples():
    simulate = [c for c in readme_commands() if c[0] == "simulate"]
    assert len(simulate) >= 10


def calibrate_cheaply(words):
    """A README `calibrate` line with `calibrate series` fitted to the 4-point example file instead: here only
    the file it writes matters (what later simulate lines read), and the README's own line (6,860
    simulations, over a minute under the sanitizers) runs as written in examples.as_written."""
    if words[:2] != ["calibrate", "series"]:
        return words
    words = list(words)
    words[words.index("--data") + 1] = "examples/binomial-series-4-points.csv"
    return words


def test_every_simulate_example_both_ways(scratch):
    """In README order in one folder, as a reader follows it: `calibrate` examples write what later ones read."""
    compared = 0
    for words in readme_commands():
        if words[0] == "calibrate":
            subprocess.run([EXE, *calibrate_cheaply(words)], cwd=scratch, check=True, capture_output=True)
        if words[0] != "simulate":
            continue
        args = [w for w in words[1:] if w != "--json"]
        done = subprocess.run([EXE, "simulate", *args, "--json"], cwd=scratch, capture_output=True, text=True)
        assert done.returncode == 0, f"gpusched simulate {shlex.join(args)}: {done.stderr}"
        cwd = os.getcwd()
        os.chdir(scratch)
        try:
            mine = gpusched.simulate(**module_call(args)).summary
        finally:
            os.chdir(cwd)
        assert mine == json.loads(done.stdout), f"gpusched simulate {shlex.join(args)}"
        compared += 1
    assert compared == len([c for c in readme_commands() if c[0] == "simulate"])


@pytest.mark.parametrize("args", [["--gpu", "h100", "--sms", "64"], ["--set", "sm_count=64", "--set", "clock_mhz=1500"]])
def test_module_call_maps_what_ifs(args):
    assert module_call(args)["gpu"].sm_count == 64

"""Shared pytest fixtures of the gpusched module's tests: the repository, the gpusched command, a scratch folder."""
import json
import os
import subprocess

import pytest

SOURCE_DIR = os.environ.get("GPUSCHED_SOURCE_DIR", os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
EXE = os.environ.get("GPUSCHED_EXE", os.path.join(SOURCE_DIR, "build", "apps", "gpusched"))


def run_cli(*args, cwd=None, check=True):
    """Runs the gpusched command; returns (exit code, stdout, stderr)."""
    done = subprocess.run([EXE, *args], cwd=cwd or SOURCE_DIR, capture_output=True, text=True)
    if check and done.returncode != 0:
        raise AssertionError(f"gpusched {' '.join(args)}: exit {done.returncode}: {done.stderr}")
    return done.returncode, done.stdout, done.stderr


def cli_json(*args, cwd=None):
    """The JSON object a gpusched command prints."""
    return json.loads(run_cli(*args, cwd=cwd)[1])


@pytest.fixture
def source_dir():
    return SOURCE_DIR


@pytest.fixture
def scratch(tmp_path):
    """A scratch folder with the repository's examples/, tests/ and validation/ linked in (as run-examples.sh)."""
    for d in ("examples", "tests", "validation"):
        os.symlink(os.path.join(SOURCE_DIR, d), tmp_path / d)
    return tmp_path

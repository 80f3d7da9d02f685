"""examples/whatif_study.py runs as CI runs it (Agg backend, a scratch folder) and writes its plot and table."""
import os
import subprocess
import sys

from conftest import SOURCE_DIR


def test_whatif_study(tmp_path):
    script = os.path.join(SOURCE_DIR, "examples", "whatif_study.py")
    done = subprocess.run([sys.executable, script, "--out", str(tmp_path / "whatif.png"), "--csv",
                           str(tmp_path / "whatif.csv")], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    png = (tmp_path / "whatif.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000
    import pandas
    table = pandas.read_csv(tmp_path / "whatif.csv")
    assert len(table) == 10 and set(table["gpu"]) == {"h100", "h200"}
    assert sorted(set(table["sm_count"])) == [16, 32, 64, 96, 132]
    for _, rows in table.groupby("gpu"):
        rows = rows.sort_values("sm_count")
        assert rows["makespan_ns"].iloc[0] > rows["makespan_ns"].iloc[-1], "16 SMs are slower than 132"
    assert "makespan" in done.stdout

#!/usr/bin/env python3
"""Fits the host's launch interval h (overheads.host_launch_interval_ns) to launch_rate/runs.csv.

The runner times record(start); N launches; record(stop). With one host thread issuing call i of
that sequence at i x h, and a kernel starting kernel_launch_ns (g) after both its issue and the
previous kernel's end, empty kernels are host-bound: elapsed = (N + 1) h. h is the least-squares
slope through the origin over the empty-kernel rows (N >= 1, both grids). The script then predicts
every row, spinning kernels included, with the recursion
    start_k = max((k + 1) h, end_(k-1)) + g,  end_k = start_k + d,  elapsed = max(end_(N-1), (N + 1) h)
(d = the median measured kernel duration of that configuration, g from the GPU preset) and prints
the errors.  Usage: fit-launch-rate.py validation/data/h100/launch_rate [--gap-ns 1600]
"""
import argparse
import csv
import statistics
from collections import defaultdict


def rows_of(path):
    with open(path) as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--gap-ns", type=float, default=1600.0, help="kernel_launch_ns of the preset (default 1600)")
    a = ap.parse_args()
    runs = rows_of(a.dir + "/runs.csv")
    durations = defaultdict(list)
    for r in rows_of(a.dir + "/launches.csv"):
        durations[(r["blocks"], r["spin_ns"])].append(int(r["end_ns"]) - int(r["start_ns"]))
    host_bound = [(int(r["launches"]) + 1, float(r["median_ms"]) * 1e6) for r in runs
                  if r["spin_ns"] == "0" and int(r["launches"]) >= 1]
    h = sum(x * y for x, y in host_bound) / sum(x * x for x, _ in host_bound)
    print(f"host_launch_interval_ns = {h:.0f}  (least squares of elapsed = (N+1) h over {len(host_bound)} "
          f"empty-kernel rows)")
    print(f"{'grid':>8} {'spin_us':>7} {'N':>4} {'measured_us':>11} {'model_us':>9} {'error_%':>8}")
    errors = []
    for r in runs:
        n = int(r["launches"])
        if n == 0:
            continue
        d = statistics.median(durations[(r["blocks"], r["spin_ns"])])
        end = 0.0
        for k in range(n):
            end = max((k + 1) * h, end) + a.gap_ns + d
        model = max(end, (n + 1) * h)
        measured = float(r["median_ms"]) * 1e6
        err = 100 * (model - measured) / measured
        errors.append(abs(err))
        print(f"{r['blocks'] + 'x' + r['threads']:>8} {int(r['spin_ns']) / 1000:7.0f} {n:4d} {measured / 1000:11.2f} "
              f"{model / 1000:9.2f} {err:8.1f}")
    print(f"|error| median {statistics.median(errors):.1f}%, max {max(errors):.1f}% over {len(errors)} rows")


if __name__ == "__main__":
    main()

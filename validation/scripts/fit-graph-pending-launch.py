#!/usr/bin/env python3
"""CUDA-graph launch gap against the kernels that start in it (overheads.graph_launch_per_pending_kernel_ns).

For every pair of consecutive kernels of one stream of a replayed CUDA graph, the gap from the first
one's end to the second one's first block is regressed on n, the number of other kernels (any
stream) whose first block starts inside that gap. Source: validation/data/h100/kernel_issue/
launches.csv.gz, graph mode; runs that saturate the device-wide start interval (under 1.25 x 160 ns
per launch) are left out, since there the gap is queueing on that interval. The slope through the
one-stream gap (864 ns) is the preset value; the free fit and the SSSP timelines
(validation/data/h100/sssp/timeline_*_graph_*) are printed as cross-checks.

Usage: fit-graph-pending-launch.py [DATA_DIR=validation/data/h100]
"""
import bisect
import collections
import csv
import gzip
import os
import sys

ONE_STREAM_GAP_NS = 864
START_INTERVAL_NS = 160


def rows_of(lines):
    return list(csv.DictReader(line for line in lines if not line.startswith("#")))


def gaps(launches):
    """(n other starts in the gap, gap ns) per consecutive pair of one stream; launches: (start, end, stream)."""
    starts = sorted(l[0] for l in launches)
    by_stream = collections.defaultdict(list)
    for l in launches:
        by_stream[l[2]].append(l)
    out = []
    for v in by_stream.values():
        v.sort()
        for a, b in zip(v, v[1:]):
            n = bisect.bisect_left(starts, b[0]) - bisect.bisect_right(starts, a[1])
            out.append((n, b[0] - a[1]))
    return out


def fit(pairs):
    """Least squares: (intercept, slope) free, and the slope through ONE_STREAM_GAP_NS."""
    n = len(pairs)
    mx = sum(p[0] for p in pairs) / n
    my = sum(p[1] for p in pairs) / n
    sxx = sum((p[0] - mx) ** 2 for p in pairs)
    slope = sum((p[0] - mx) * (p[1] - my) for p in pairs) / sxx if sxx else 0.0
    through = sum((p[1] - ONE_STREAM_GAP_NS) * p[0] for p in pairs) / max(1, sum(p[0] ** 2 for p in pairs))
    return my - slope * mx, slope, through


def median(v):
    v = sorted(v)
    return v[len(v) // 2]


def main():
    data = sys.argv[1] if len(sys.argv) > 1 else "validation/data/h100"
    with gzip.open(os.path.join(data, "kernel_issue", "launches.csv.gz"), "rt") as f:
        rows = rows_of(f)
    runs = collections.defaultdict(list)
    for r in rows:
        if r["mode"] == "graph":
            runs[(int(r["streams"]), int(r["spin_ns"]))].append((int(r["start_ns"]), int(r["end_ns"]), int(r["stream"])))
    pooled = []
    print("kernel_issue, graph mode: gap = a + b n (n: other kernel starts in the gap)")
    for (c, spin), launches in sorted(runs.items()):
        if c == 1:
            continue
        per_launch = (max(l[1] for l in launches) - min(l[0] for l in launches)) / len(launches)
        saturated = per_launch < 1.25 * START_INTERVAL_NS
        p = gaps(launches)
        a, b, through = fit(p)
        print(f"  C={c:2d} spin={spin:4d}: {per_launch:5.0f} ns/launch{' (saturated, left out)' if saturated else ''}; "
              f"free {a:.0f} + {b:.1f} n; through {ONE_STREAM_GAP_NS}: {through:.1f} per start")
        if not saturated:
            pooled += p
    a, b, through = fit(pooled)
    print(f"pooled ({len(pooled)} gaps): free {a:.0f} + {b:.1f} n; through {ONE_STREAM_GAP_NS}: {through:.1f} ns per start")
    by_n = collections.defaultdict(list)
    for n, g in pooled:
        by_n[min(n, 6)].append(g)
    print("  median gap by n: " + " ".join(f"{n}:{median(v)}" for n, v in sorted(by_n.items())))
    sssp = os.path.join(data, "sssp")
    for name in sorted(os.listdir(sssp)):
        if not (name.startswith("timeline_") and "_graph_" in name):
            continue
        with open(os.path.join(sssp, name)) as f:
            blocks = rows_of(f)
        launches = {}
        for r in blocks:
            l = launches.setdefault(int(r["launch"]), [1 << 62, 0, int(r["stream"])])
            l[0] = min(l[0], int(r["start_ns"]))
            l[1] = max(l[1], int(r["end_ns"]))
        p = gaps(list(launches.values()))
        if max(n for n, _ in p) == 0:
            print(f"{name}: gap median {median([g for _, g in p])} ns (one stream)")
            continue
        a, b, _ = fit(p)
        print(f"{name}: free {a:.0f} + {b:.1f} n (mean n {sum(n for n, _ in p) / len(p):.2f}, "
              f"mean gap {sum(g for _, g in p) / len(p):.0f} ns)")


if __name__ == "__main__":
    main()

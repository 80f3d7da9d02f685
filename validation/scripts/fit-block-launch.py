#!/usr/bin/env python3
"""Fits the per-SM block-launch pipeline of a GPU preset from measured placement timelines.

    validation/scripts/fit-block-launch.py validation/data/h100/placement

Model (docs/scheduling.md): a block of w warps dispatched to SM s at time t starts at
max(t + D, free[s]) + a + b*w and sets free[s] to its start. In a single-wave launch the
blocks of one SM therefore start a + b*w apart; a block refilling a freed slot on an idle
pipeline starts D + a + b*w after the slot was freed. Prints a, b (least squares over each
SM's first-wave start gaps: the median over SMs per case, the median over cases per warp
count, fitted on relative error) and D (median over
every refill of gap - (a + b*w)). Standard library only.
"""
import collections
import glob
import os
import statistics
import sys


def read(path):
    meta, rows = {}, []
    for line in open(path):
        if line.startswith("#"):
            key, _, value = line[1:].strip().partition("=")
            meta[key] = value
        elif line.strip() and not line.startswith("kernel,"):
            rows.append(line.strip().split(","))
    return meta, rows  # rows: kernel,launch,block,sm,dispatch_ns,start_ns,end_ns


def main(directory):
    points, refills = [], []
    for path in sorted(glob.glob(os.path.join(directory, "*.csv"))):
        meta, rows = read(path)
        if "threads" not in meta or any(r[1] != "0" for r in rows):
            continue  # runs.csv, nvidia-smi.csv, multi-launch cases
        warps = (int(meta["threads"]) + 31) // 32
        first_end = min(int(r[6]) for r in rows)
        by_sm = collections.defaultdict(list)
        for r in rows:
            by_sm[int(r[3])].append((int(r[5]), int(r[6])))
        gaps = []
        for blocks in by_sm.values():
            starts = sorted(s for s, _ in blocks if s < first_end)
            if len(starts) > 1:
                gaps.append((starts[-1] - starts[0]) / (len(starts) - 1))
            ends = sorted(e for _, e in blocks)
            for s, _ in blocks:
                if s >= first_end:
                    before = [e for e in ends if e <= s]
                    if before:
                        refills.append((warps, s - before[-1]))
        if gaps and "pattern" not in path and "uniform" not in path:
            points.append((warps, statistics.median(gaps), os.path.basename(path)))
    # One point per warp count (median over its cases), fitted by least squares on the
    # relative error: the gaps span 12-190 ns and each size matters equally.
    by_warps = collections.defaultdict(list)
    for w, g, _ in points:
        by_warps[w].append(g)
    fit = [(w, statistics.median(gs), 1.0 / statistics.median(gs) ** 2) for w, gs in sorted(by_warps.items())]
    sw = sum(k for _, _, k in fit)
    sx = sum(k * w for w, _, k in fit)
    sy = sum(k * g for _, g, k in fit)
    sxx = sum(k * w * w for w, _, k in fit)
    sxy = sum(k * w * g for w, g, k in fit)
    b = (sw * sxy - sx * sy) / (sw * sxx - sx * sx)
    a = (sy - b * sx) / sw
    d = statistics.median(g - (a + b * w) for w, g in refills)
    print("case               warps  first-wave gap (ns)  fit a + b*w")
    for w, g, name in sorted(points):
        print(f"{name:18s} {w:5d}  {g:19.1f}  {a + b * w:11.1f}")
    print(f"\nsm_block_launch_ns a = {a:.1f}\nsm_warp_launch_ns  b = {b:.2f}")
    print(f"block_dispatch_latency_ns D = {d:.1f}  (median over {len(refills)} refills of gap - (a + b*w))")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])

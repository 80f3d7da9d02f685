#!/usr/bin/env python3
"""Per-GPC refill latency and blocks per GPC of the H100's cluster placement timelines.

Reads the committed timelines validation/data/h100/clusters/timeline_<case>.csv and the
repeated runs under a repetitions directory (repN/timeline_<case>.csv[.gz], written by
`validation/scripts/collect-hopper.sh OUT cluster-reps`), and the GPC groups of the preset
(hw/presets/h100.yaml, clusters.groups). Prints per case and GPC group:

  refill    block start - the latest earlier block end on the same SM, for blocks that started
            after the first wave (start >= 5 us after the launch's first start): median / p10 /
            p90 in ns over all runs
  first     median first-wave start (ns after the launch's first start)
  blocks    blocks per group: the committed run, then each repetition

and per case how many blocks would have to move to another GPC group to turn each repetition's
counts into the committed run's (sum of the positive differences), and the largest such count
between two repetitions.

Usage: validation/scripts/cluster-gpc-refill.py [--reps DIR] [--cases c1_t1024_w2.5,...]
Python 3 standard library only.
"""
import argparse
import csv
import glob
import gzip
import os
import re
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DATA = os.path.join(ROOT, "validation", "data", "h100", "clusters")


def preset_groups(path):
    """clusters.groups of a preset: the lines `    - [a, b, ...]` after `  groups:`."""
    groups, inside = [], False
    with open(path) as f:
        for line in f:
            if line.startswith("  groups:"):
                inside = True
                continue
            if inside:
                m = re.match(r"\s+- \[([0-9, ]+)\]", line)
                if not m:
                    break
                groups.append([int(x) for x in m.group(1).split(",")])
    if not groups:
        raise SystemExit(f"{path}: no clusters.groups found")
    return groups


def read_timeline(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        rows = csv.DictReader(line for line in f if not line.startswith("#"))
        return [(int(r["sm"]), int(r["start_ns"]), int(r["end_ns"])) for r in rows]


def timeline_in(directory, case):
    for name in (f"timeline_{case}.csv", f"timeline_{case}.csv.gz"):
        path = os.path.join(directory, name)
        if os.path.exists(path):
            return path
    return None


def moved(a, b):
    return sum(max(0, x - y) for x, y in zip(a, b))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", default=os.path.join(DATA, "repetitions-2026-11-27"))
    ap.add_argument("--cases", default="c1_t1024_w2.5,c2_t1024_w2.5,c4_t1024_w2.5,c8_t512_w3,c2_t256_s100_w3")
    args = ap.parse_args()
    groups = preset_groups(os.path.join(ROOT, "hw", "presets", "h100.yaml"))
    group_of = {sm: g for g, sms in enumerate(groups) for sm in sms}
    rep_dirs = sorted(glob.glob(os.path.join(args.reps, "rep*")), key=lambda d: int(re.sub(r"\D", "", os.path.basename(d))))
    for case in args.cases.split(","):
        runs = [p for p in [timeline_in(DATA, case)] + [timeline_in(d, case) for d in rep_dirs] if p]
        refill = [[] for _ in groups]
        first = [[] for _ in groups]
        counts = []
        for path in runs:
            blocks = read_timeline(path)
            t0 = min(s for _, s, _ in blocks)
            per_sm = {}
            count = [0] * len(groups)
            for sm, s, e in blocks:
                per_sm.setdefault(sm, []).append((s, e))
                count[group_of[sm]] += 1
            counts.append(count)
            for sm, spans in per_sm.items():
                ends = sorted(e for _, e in spans)
                for s, _ in spans:
                    if s - t0 < 5000:
                        first[group_of[sm]].append(s - t0)
                        continue
                    earlier = [e for e in ends if e <= s]
                    if earlier:
                        refill[group_of[sm]].append(s - earlier[-1])
        print(f"## {case} ({len(runs)} runs: committed + {len(runs) - 1} repetitions)")
        print("| group | SMs | refill median / p10 / p90 ns | first-wave start median ns | blocks committed | blocks repetitions |")
        print("|---|---:|---|---:|---:|---|")
        for g, sms in enumerate(groups):
            r = sorted(refill[g])
            ref = f"{int(statistics.median(r))} / {r[len(r) // 10]} / {r[9 * len(r) // 10]}" if r else "-"
            fw = int(statistics.median(first[g])) if first[g] else "-"
            reps = " ".join(str(c[g]) for c in counts[1:])
            print(f"| {g} | {len(sms)} | {ref} | {fw} | {counts[0][g]} | {reps} |")
        to_committed = sorted(moved(c, counts[0]) for c in counts[1:])
        pairwise = [moved(a, b) for i, a in enumerate(counts[1:]) for b in counts[i + 2:]]
        print(f"\nblocks in another GPC group, repetitions vs committed: {to_committed}; "
              f"largest between two repetitions: {max(pairwise) if pairwise else '-'}\n")


if __name__ == "__main__":
    main()

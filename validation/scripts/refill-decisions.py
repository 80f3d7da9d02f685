#!/usr/bin/env python3
"""Checks the H100's refill rule on measured placement timelines (python3 standard library only).

For every refill (a block beyond the first `blocks_per_sm` started on its SM), the slots
freed before it started and not yet reused are the candidates; the rule "the slot that freed
first gets the next block" predicts the earliest. Counts per case how often the measured SM
is the earliest slot with no other candidate within one 32 ns %globaltimer step ("earliest"),
a slot within one step of the earliest while others are too (a tie the timer cannot order:
"tie<=32ns"), or neither ("other").

Usage: python3 validation/scripts/refill-decisions.py validation/data/h100/placement
"""
import collections
import csv
import glob
import os
import sys

TIMER_STEP_NS = 32


def read_case(path):
    meta, rows = {}, []
    with open(path) as f:
        for line in f:
            if line.startswith("# ") and "=" in line:
                key, value = line[2:].rstrip("\n").split("=", 1)
                meta[key] = value
        f.seek(0)
        body = [line for line in f if not line.startswith("#")]
    for r in csv.DictReader(body):
        rows.append((int(r["launch"]), int(r["block"]), int(r["sm"]), int(r["start_ns"]), int(r["end_ns"])))
    return meta, rows


def decisions(rows, slots):
    """(earliest, within one timer step, other) over the refills of one launch."""
    by_sm = collections.defaultdict(list)
    for _, block, sm, start, end in rows:
        by_sm[sm].append((start, end, block))
    freed = sorted((end, sm) for sm, blocks in by_sm.items() for _, end, _ in blocks)
    refills = sorted((start, block, sm) for sm, blocks in by_sm.items() for start, _, block in sorted(blocks)[slots:])
    used = collections.Counter()
    counts = [0, 0, 0]
    for start, _, sm in sorted(refills, key=lambda r: r[1]):  # dispatch order = block index
        available = collections.defaultdict(list)
        for end, freed_sm in freed:
            if end > start:
                break
            available[freed_sm].append(end)
        firsts = {s: ends[used[s]] for s, ends in available.items() if used[s] < len(ends)}
        mine = firsts.get(sm)
        earliest = min(firsts.values()) if firsts else None
        near = sum(1 for end in firsts.values() if earliest is not None and end - earliest <= TIMER_STEP_NS)
        if mine is None or mine - earliest > TIMER_STEP_NS:
            counts[2] += 1
        elif near == 1:
            counts[0] += 1
        else:
            counts[1] += 1
        used[sm] += 1
    return counts


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: refill-decisions.py PLACEMENT_DIR")
    runs = {}
    with open(os.path.join(sys.argv[1], "runs.csv")) as f:
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            runs[r["case"]] = int(r["blocks_per_sm"])
    total = [0, 0, 0]
    print(f"{'case':20s} {'refills':>8s} {'earliest':>9s} {'tie<=32ns':>10s} {'other':>6s}")
    for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.csv"))):
        name = os.path.basename(path)[:-4]
        if name not in runs:
            continue
        _, rows = read_case(path)
        counts = [0, 0, 0]
        for launch in sorted({r[0] for r in rows}):
            for i, c in enumerate(decisions([r for r in rows if r[0] == launch], runs[name])):
                counts[i] += c
        total = [a + b for a, b in zip(total, counts)]
        print(f"{name:20s} {sum(counts):8d} {counts[0]:9d} {counts[1]:10d} {counts[2]:6d}")
    print(f"{'all':20s} {sum(total):8d} {total[0]:9d} {total[1]:10d} {total[2]:6d}")


if __name__ == "__main__":
    main()

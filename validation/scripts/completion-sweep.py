#!/usr/bin/env python3
"""Reads the completion sweep off a measured placement timeline (python3 standard library only).

When refills queue (tiny32: 20,000 one-warp 1 us blocks), blocks in index order go to SMs visit
by visit over the dispatch walk's rows. For the blocks FIRST..LAST (default 6000..16000, the
steady state of tiny32) this prints the order of the visits, how many blocks each visit of each
row took, and the mean per-SM block count of the SMs of each row over the whole launch.

Usage: python3 validation/scripts/completion-sweep.py validation/data/h100/placement/tiny32.csv [FIRST LAST]
"""
import collections
import csv
import sys

# The h100 preset's topology.dispatch_walk: the lead, then rows A..H (hw/presets/h100.yaml).
ROWS = {
    "lead": [124, 125, 126, 127, 128, 129, 130, 131],
    "A": [0, 1, 16, 17, 32, 33, 48, 49],
    "B": [2, 3, 18, 19, 34, 35, 50, 51, 64, 65, 78, 79, 92, 93, 106, 107],
    "C": [4, 5, 20, 21, 36, 37, 52, 53, 66, 67, 80, 81, 94, 95, 108, 109],
    "D": [6, 7, 22, 23, 38, 39, 54, 55, 68, 69, 82, 83, 96, 97, 110, 111],
    "E": [8, 9, 24, 25, 40, 41, 56, 57, 70, 71, 84, 85, 98, 99, 112, 113],
    "F": [10, 11, 26, 27, 42, 43, 58, 59, 72, 73, 86, 87, 100, 101, 114, 115],
    "G": [12, 13, 28, 29, 44, 45, 60, 61, 74, 75, 88, 89, 102, 103, 116, 117, 120, 121],
    "H": [14, 15, 30, 31, 46, 47, 62, 63, 76, 77, 90, 91, 104, 105, 118, 119, 122, 123],
}
ROW_OF = {sm: name for name, sms in ROWS.items() for sm in sms}


def main():
    if len(sys.argv) not in (2, 4):
        sys.exit(__doc__.strip().splitlines()[-1])
    first, last = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) == 4 else (6000, 16000)
    with open(sys.argv[1]) as f:
        blocks = sorted((int(r["block"]), int(r["sm"])) for r in csv.DictReader(l for l in f if not l.startswith("#")))
    visits = collections.defaultdict(collections.Counter)
    order, current, taken = [], None, 0
    for _, sm in blocks[first:last]:
        row = ROW_OF[sm]
        if row != current:
            if current is not None:
                visits[current][taken] += 1
            current, taken = row, 0
            if len(order) < 20:
                order.append(row)
        taken += 1
    print(f"visit order (blocks {first}..{last}): {' '.join(order)} ...")
    per_sm = collections.Counter(sm for _, sm in blocks)
    print(f"{'row':5s} {'SMs':>4s}  {'takes per visit (takes: visits)':40s} {'mean':>5s}  blocks per SM (whole launch)")
    for name, sms in ROWS.items():
        hist = visits[name]
        n = sum(hist.values())
        mean = sum(k * v for k, v in hist.items()) / n if n else 0
        counts = [per_sm[sm] for sm in sms]
        text = ", ".join(f"{k}: {v}" for k, v in sorted(hist.items()))
        print(f"{name:5s} {len(sms):4d}  {text:40s} {mean:5.2f}  {min(counts)}-{max(counts)} (mean {sum(counts) / len(counts):.1f})")


if __name__ == "__main__":
    main()

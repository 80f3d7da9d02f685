#!/usr/bin/env python3
"""Writes the first wave of one launch per (blocks, threads) of the walk-state experiment.

The first launch in run order of each shape, with its measured walk start (lead_start: index
of block 0's SM in the lead 124..131; start_row: the row whose first SM ran block 8, 0 for
grids of 8 blocks or fewer) and the SMs of its first min(blocks, 132 x blocks per SM) blocks.
tests/validation/placement_replay_test.cpp simulates each with policy walk.

Usage: python3 validation/scripts/extract-first-waves.py validation/data/h100/walk_state/maps.csv.gz OUT.csv
"""
import csv
import gzip
import sys

LEAD = [124, 125, 126, 127, 128, 129, 130, 131]
ROW_FIRST_SMS = [0, 2, 4, 6, 8, 10, 12, 14]
BLOCKS_PER_SM = {32: 32, 256: 8, 1024: 2}


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: extract-first-waves.py MAPS.csv.gz OUT.csv")
    seen, out = set(), []
    with gzip.open(sys.argv[1], "rt") as f:
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            blocks, threads = int(r["blocks"]), int(r["threads"])
            if (blocks, threads) in seen:
                continue
            seen.add((blocks, threads))
            sms = [int(x) for x in r["sms"].split(";")]
            start_row = ROW_FIRST_SMS.index(sms[8]) if blocks > 8 else 0
            first_wave = sms[: min(blocks, 132 * BLOCKS_PER_SM[threads])]
            out.append((blocks, threads, LEAD.index(sms[0]), start_row, ";".join(map(str, first_wave))))
    with open(sys.argv[2], "w") as f:
        f.write("# First waves of one launch per (blocks, threads) of validation/data/h100/walk_state/maps.csv.gz,\n")
        f.write("# written by validation/scripts/extract-first-waves.py\n")
        f.write("blocks,threads,lead_start,start_row,sms\n")
        for row in out:
            f.write(",".join(map(str, row)) + "\n")


if __name__ == "__main__":
    main()

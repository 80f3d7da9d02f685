#!/usr/bin/env python3
"""Run-to-run spread of the H100's per-SM block counts in the `placement` suite.

Reads the per-repetition counts written by `gpusched-runner placement --rep-counts FILE`
(columns case,rep,launch,sm,blocks; '# key=value' metadata; rows with blocks >= 1, plain or .gz)
and the committed timelines validation/data/h100/placement/<case>.csv (the last timed rep of an
earlier run), and prints per case:

  d0 med/max    count distance of reps 1..N-1 to rep 0 (median, max)
  dL med/max    count distance of reps 0..N-2 to rep N-1 of the same run (median, max)
  dC med/max    count distance of reps 0..N-1 to the committed timeline's counts (median, max)
  dC per rep    the same, rep 0 first

count distance(a, b) = sum over (launch, SM) of |blocks_a - blocks_b| / 2, i.e. how many blocks
would have to move to another SM to turn one repetition's counts into the other's.

Usage: validation/scripts/placement-rep-spread.py [--counts FILE] [--committed DIR] [--markdown]
Python 3 standard library only.
"""
import argparse
import csv
import gzip
import os
import statistics
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.normpath(os.path.join(HERE, "..", "data", "h100"))


def data_lines(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="") as f:
        for line in f:
            if not line.startswith("#"):
                yield line


def read_rep_counts(path):
    """-> {case: {rep: {(launch, sm): blocks}}} in file order of cases."""
    out = {}
    for row in csv.DictReader(data_lines(path)):
        reps = out.setdefault(row["case"], {})
        counts = reps.setdefault(int(row["rep"]), {})
        counts[(int(row["launch"]), int(row["sm"]))] = int(row["blocks"])
    return out


def read_timeline_counts(path):
    counts = defaultdict(int)
    for row in csv.DictReader(data_lines(path)):
        counts[(int(row["launch"]), int(row["sm"]))] += 1
    return dict(counts)


def distance(a, b):
    keys = set(a) | set(b)
    total = sum(abs(a.get(k, 0) - b.get(k, 0)) for k in keys)
    return total // 2


def med(xs):
    if not xs:
        return "-"
    m = statistics.median(xs)
    return str(int(m)) if m == int(m) else "%.1f" % m


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    default_counts = os.path.join(DATA, "placement_reps", "rep_counts.csv")
    if not os.path.exists(default_counts) and os.path.exists(default_counts + ".gz"):
        default_counts += ".gz"
    ap.add_argument("--counts", default=default_counts, help="rep counts CSV (or .csv.gz)")
    ap.add_argument("--committed", default=os.path.join(DATA, "placement"),
                    help="directory of committed timelines <case>.csv")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = ap.parse_args()

    reps_by_case = read_rep_counts(args.counts)
    header = ["case", "blocks", "reps", "d0 med", "d0 max", "dL med", "dL max", "dC med",
              "dC max", "dC per rep (rep 0..N-1)"]
    rows = []
    for case, reps in reps_by_case.items():
        idx = sorted(reps)
        n = len(idx)
        blocks = sum(reps[idx[0]].values())
        d0 = [distance(reps[r], reps[idx[0]]) for r in idx[1:]]
        dl = [distance(reps[r], reps[idx[-1]]) for r in idx[:-1]]
        committed = os.path.join(args.committed, case + ".csv")
        if os.path.exists(committed):
            ref = read_timeline_counts(committed)
            if sum(ref.values()) != blocks:
                print("%s: committed timeline has %d blocks, rep counts %d" %
                      (case, sum(ref.values()), blocks), file=sys.stderr)
            dc = [distance(reps[r], ref) for r in idx]
        else:
            dc = []
        rows.append([case, str(blocks), str(n), med(d0), str(max(d0)) if d0 else "-", med(dl),
                     str(max(dl)) if dl else "-", med(dc), str(max(dc)) if dc else "-",
                     " ".join(map(str, dc)) if dc else "-"])

    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "|".join("---" if i == 0 or i == len(header) - 1 else "---:"
                             for i in range(len(header))) + "|")
        for r in rows:
            print("| " + " | ".join(r) + " |")
    else:
        widths = [max(len(header[i]), *(len(r[i]) for r in rows)) if rows else len(header[i])
                  for i in range(len(header))]
        fmt_row = lambda r: "  ".join(  # noqa: E731
            (c.ljust(widths[i]) if i in (0, len(r) - 1) else c.rjust(widths[i]))
            for i, c in enumerate(r))
        print(fmt_row(header).rstrip())
        for r in rows:
            print(fmt_row(r).rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())

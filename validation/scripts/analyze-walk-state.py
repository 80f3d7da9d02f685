#!/usr/bin/env python3
"""Tests rules that predict each launch's first-wave walk position from the previous launch.

Input: the output of `gpusched-runner walk-state --out-dir DIR` (DIR/launches.csv and
DIR/maps.csv or DIR/maps.csv.gz). Python 3 standard library only.

    validation/scripts/analyze-walk-state.py validation/data/h100/walk_state

The H100 walk: blocks 0..7 go to the lead group L = SMs 124..131 rotated by lead_start (0 or 4),
then the rows A..H (below) cyclically from start_row. launches.csv holds, per launch, lead_start
(index of block 0's SM in L) and start_row (row whose first SM ran block 8). Every launch of the
process is in one global order (`launch`), so a rule can carry state across sequences,
cudaDeviceSynchronize, host sleeps and the H2D copies between sequences.

Rules (each predicts launch n from launch n-1 alone, or from a state updated by every launch):
  lead:
    toggle      lead(n) = lead(n-1) XOR 4
    last-L-half lead(n) = 4 if the highest-index block of launch n-1 that ran on L ran on
                128..131, else 0 (refill blocks included)
  row:
    persist     start_row(n) = the last start_row seen before n (state never moves)
    continue    state = (row of the highest-index block of launch n-1 that did not run on L) + 1;
                launches with no block outside L (<= 8 blocks) leave the state; refills included
    continue-first-wave
                as `continue`, but only blocks of the first wave (block index < wave capacity) count
  final (the rule this data supports; launches preceded by a cudaMemsetAsync are counted apart,
         since the memset kernel between them is not observed):
    lead        last-L-half, except that grids of 1 or 2 blocks always put block 0 on SM 124
    row         continue, where a launch starts at the first row, from the state on (cyclically),
                that the launch uses at all: grids of 9 blocks use only row A (block 8 always on SM
                0), grids of 12 blocks only rows A..D (blocks 8..11 on SMs 0,2,4,6 rotated);
                larger grids use every row and start at the state itself
"""
import csv
import gzip
import os
import sys
from collections import defaultdict

LEAD = list(range(124, 132))
ROWS = [
    [0, 1, 16, 17, 32, 33, 48, 49],
    [2, 3, 18, 19, 34, 35, 50, 51, 64, 65, 78, 79, 92, 93, 106, 107],
    [4, 5, 20, 21, 36, 37, 52, 53, 66, 67, 80, 81, 94, 95, 108, 109],
    [6, 7, 22, 23, 38, 39, 54, 55, 68, 69, 82, 83, 96, 97, 110, 111],
    [8, 9, 24, 25, 40, 41, 56, 57, 70, 71, 84, 85, 98, 99, 112, 113],
    [10, 11, 26, 27, 42, 43, 58, 59, 72, 73, 86, 87, 100, 101, 114, 115],
    [12, 13, 28, 29, 44, 45, 60, 61, 74, 75, 88, 89, 102, 103, 116, 117, 120, 121],
    [14, 15, 30, 31, 46, 47, 62, 63, 76, 77, 90, 91, 104, 105, 118, 119, 122, 123],
]
ROW_OF = {sm: r for r, sms in enumerate(ROWS) for sm in sms}
SMS = 132


def read_csv(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def wave_capacity(threads):
    # H100: 2048 threads and at most 32 blocks per SM; the spin kernel is limited by nothing else.
    return SMS * min(32, 2048 // threads)


def family(seq):
    if seq.startswith("b_") and seq.endswith("_nosync"):
        return "b_k_then_P_nosync"
    if seq.startswith("b_") and seq.endswith("_sync"):
        return "b_k_then_P_sync"
    if seq.startswith("c_"):
        return "c_32thr_then_P"
    if seq.startswith("d_"):
        return "d_memset_then_P"
    if seq.startswith("e_"):
        return "e_multiwave_5us_then_P"
    return seq


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "validation/data/h100/walk_state"
    launches = read_csv(os.path.join(d, "launches.csv"))
    mpath = os.path.join(d, "maps.csv.gz")
    maps = read_csv(mpath if os.path.exists(mpath) else os.path.join(d, "maps.csv"))
    assert len(launches) == len(maps)
    for l, m in zip(launches, maps):
        assert l["launch"] == m["launch"]
        sms = [int(x) for x in m["sms"].split(";")]
        n, t = int(l["blocks"]), int(l["threads"])
        cap = wave_capacity(t)
        l["n"], l["t"], l["cap"] = n, t, cap
        l["lead"], l["row"] = int(l["lead_start"]), int(l["start_row"])
        on_l = [i for i, s in enumerate(sms) if s in LEAD]
        off_l = [i for i, s in enumerate(sms) if s not in LEAD]
        l["last_L_half"] = 4 if sms[on_l[-1]] >= 128 else 0
        l["last_row_any"] = ROW_OF[sms[off_l[-1]]] if off_l else None
        first = [i for i in off_l if i < cap]
        l["last_row_fw"] = ROW_OF[sms[first[-1]]] if first else None
        l["multiwave"] = n > cap
        l["rows_used"] = {ROW_OF[s] for s in sms if s not in LEAD}
        l["walk_ok"] = int(l["walk_match"])

    # ---- predictions ----
    stats = defaultdict(lambda: defaultdict(lambda: [0, 0]))  # rule -> category -> [hit, total]
    misses = defaultdict(list)
    st_persist = st_cont = st_contfw = None
    for i, l in enumerate(launches):
        prev = launches[i - 1] if i > 0 else None
        if prev is not None:
            cats = ["all", "family:" + family(l["sequence"])]
            if l["preceded_by"].find("memset") >= 0:
                kind = "after memset (invisible kernel between)"
            elif prev["multiwave"]:
                kind = "after a multi-wave launch"
            elif prev["n"] <= 8:
                kind = "after a launch of <= 8 blocks"
            else:
                kind = "after a single-wave launch of >= 9 blocks"
            cats.append("prev:" + kind)
            cats.append("gap:" + ("sync" if l["sync_before"] == "1" else
                                  "sleep" if "sleep" in l["preceded_by"] else "none"))
            preds = {}
            if l["lead"] >= 0 and prev["lead"] >= 0:
                preds["lead toggle"] = (prev["lead"] ^ 4, l["lead"])
            if l["lead"] >= 0:
                preds["lead last-L-half"] = (prev["last_L_half"], l["lead"])
                preds["final lead"] = (0 if l["n"] <= 2 else prev["last_L_half"], l["lead"])
            if l["row"] >= 0:
                for name, s in (("row persist", st_persist), ("row continue", st_cont),
                                ("row continue-first-wave", st_contfw)):
                    if s is not None:
                        preds[name] = (s, l["row"])
                if st_cont is not None:
                    r = st_cont
                    while r not in l["rows_used"]:
                        r = (r + 1) % 8
                    preds["final row"] = (r, l["row"])
            if "final lead" in preds and "final row" in preds:
                preds["final both"] = ((preds["final lead"][0], preds["final row"][0]),
                                       (preds["final lead"][1], preds["final row"][1]))
            for rule, (p, o) in preds.items():
                for c in cats:
                    stats[rule][c][1] += 1
                    stats[rule][c][0] += p == o
                if p != o:
                    misses[rule].append("launch %s %s rep %s step %s (%dx%d, preceded_by %s; prev %dx%d): "
                                        "predicted %s, observed %s" % (
                                            l["launch"], l["sequence"], l["rep"], l["step"], l["n"], l["t"],
                                            l["preceded_by"], prev["n"], prev["t"], p, o))
        # state updates
        if l["row"] >= 0:
            st_persist = l["row"]
        if l["last_row_any"] is not None:
            st_cont = (l["last_row_any"] + 1) % 8
        if l["last_row_fw"] is not None:
            st_contfw = (l["last_row_fw"] + 1) % 8

    print("# walk-state analysis of %s: %d launches" % (d, len(launches)))
    print()
    print("## Rule hits (launches whose value is identifiable and that have a predecessor)")
    order = ["lead toggle", "lead last-L-half", "row persist", "row continue", "row continue-first-wave",
             "final lead", "final row", "final both"]
    for rule in order:
        s = stats[rule]
        h, t = s["all"]
        print()
        print("%-26s %4d / %4d" % (rule, h, t))
        for c in sorted(k for k in s if k != "all"):
            print("    %-58s %4d / %4d" % (c, s[c][0], s[c][1]))
    for rule in ("final lead", "final row"):
        print()
        print("## Misses of '%s' (%d)" % (rule, len(misses[rule])))
        for m in misses[rule]:
            print("  " + m)

    # ---- launches after a cudaMemsetAsync: does the memset act like some launch? ----
    print()
    print("## Launches preceded by a cudaMemsetAsync (memset kernel not observed)")
    for size in ("memset1MiB", "memset64MiB"):
        same_row = lead0 = total = 0
        for i, l in enumerate(launches):
            if size in l["preceded_by"]:
                prev = launches[i - 1]
                # state the final rule gives before the memset
                row_state = (prev["last_row_any"] + 1) % 8 if prev["last_row_any"] is not None else None
                total += 1
                same_row += l["row"] == row_state
                lead0 += l["lead"] == 0
        print("   %-12s %d launches: start_row = the state before the memset in %d, lead_start = 0 in %d"
              % (size, total, same_row, lead0))

    # ---- grids of 9..12 blocks ----
    print()
    print("## Grids of 9..12 blocks: SMs of blocks 8.. against the row state of the final rule")
    small = defaultdict(int)
    st = None
    for l, m in zip(launches, maps):
        if 9 <= l["n"] <= 12:
            small[(l["n"], st, m["sms"].split(";", 8)[8])] += 1
        if l["last_row_any"] is not None:
            st = (l["last_row_any"] + 1) % 8
    for (n, state, sms), c in sorted(small.items(), key=lambda kv: (kv[0][0], -1 if kv[0][1] is None else kv[0][1])):
        print("   %2d blocks, state %s: blocks 8.. on SMs %s  (%d launches)" % (n, state, sms, c))

    # ---- the walk inside a launch ----
    print()
    print("## Does each launch follow the walk of its own (lead_start, start_row)?")
    print("   (walk_match: the first min(blocks,132) blocks equal L rotated by lead_start, then rows from start_row)")
    by = defaultdict(lambda: [0, 0, 0])
    for l in launches:
        key = "%dx%d" % (l["n"], l["t"])
        by[key][0 if l["walk_ok"] == 1 else 1 if l["walk_ok"] == 0 else 2] += 1
    print("   %-12s %6s %6s %6s" % ("shape", "match", "differ", "n/a"))
    for key in sorted(by, key=lambda k: (int(k.split("x")[1]), int(k.split("x")[0]))):
        print("   %-12s %6d %6d %6d" % ((key,) + tuple(by[key])))
    print()
    print("## Observed values")
    vals = defaultdict(int)
    for l in launches:
        if l["n"] >= 9:
            vals[(l["lead"], l["row"])] += 1
    print("   (lead_start, start_row) counts over launches of >= 9 blocks: " +
          ", ".join("%s: %d" % (k, v) for k, v in sorted(vals.items())))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Checks the dispatch-walk rules (docs/scheduling.md) against every launch of the walk-state data.

Re-implements the rules of policy `walk` for the H100 (lead 124..131, rows A..H of TPC pairs,
the lead again after 5 then every 6 rows, the per-round limit and the partial-round quota) and
compares the first wave of each launch in maps.csv.gz, started where the launch started
(lead_start from block 0; start_row from block 8; grids of 8 blocks or fewer use only the lead
and are checked with either lead start, as their block 0 hides it).

Usage: python3 validation/scripts/check-walk-rules.py validation/data/h100/walk_state/maps.csv.gz
"""
import collections
import csv
import gzip
import sys

SMS = 132
LEAD = [124, 125, 126, 127, 128, 129, 130, 131]
RANGES = [(0, 15), (16, 31), (32, 47), (48, 63), (64, 77), (78, 91), (92, 105), (106, 119), (120, 123)]
GROUPS = [list(range(a, b + 1)) for a, b in RANGES]


def row(k):
    """Row k: TPC k of each SM-id range, ranges right-aligned to 8 TPCs."""
    sms = []
    for first, last in RANGES:
        tpcs = (last - first + 1) // 2
        idx = k - (8 - tpcs)
        if 0 <= idx < tpcs:
            sms += [first + 2 * idx, first + 2 * idx + 1]
    return sms


ROWS = [row(k) for k in range(8)]
QUOTA_ORDER = ([m for m in LEAD if m % 2 == 0] + [m for m in LEAD if m % 2 == 1] +
               [m for g in GROUPS for m in g if m % 2 == 0] + [m for g in GROUPS for m in g if m % 2 == 1])


def first_wave(blocks, slots, start_row, lead_start, first_gap=5, gap=6):
    lead = LEAD[lead_start:] + LEAD[:lead_start]
    room = [slots] * SMS
    count = [0] * SMS
    limit = max(1, blocks // SMS)
    out, quota = [], None
    n = min(blocks, SMS * slots)

    def new_round():
        left = blocks - len(out)
        candidates = [m for m in QUOTA_ORDER if room[m] > 0 and count[m] < limit]
        return set(candidates[:left]) if left < len(candidates) else None

    def visit(group):
        placed = False
        for m in group:
            if len(out) >= n:
                return placed
            if room[m] > 0 and count[m] < limit and (quota is None or m in quota):
                room[m] -= 1
                count[m] += 1
                out.append(m)
                placed = True
        return placed

    def bump():
        nonlocal limit, quota
        if all(count[m] >= limit or room[m] == 0 for m in range(SMS)):
            limit += 1
            quota = new_round()

    quota = new_round()
    visit(lead)
    r, rows_done, due, next_due = start_row, 0, False, first_gap
    while len(out) < n:
        visit(ROWS[r % 8])
        r += 1
        rows_done += 1
        bump()
        if rows_done == next_due:
            due, next_due = True, rows_done + gap
        if due and any(room[m] > 0 for m in lead):
            if visit(lead):
                due = False
            bump()
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check-walk-rules.py MAPS.csv.gz")
    slots_of = {32: 32, 256: 8, 1024: 2}
    result = collections.defaultdict(lambda: [0, 0])
    with gzip.open(sys.argv[1], "rt") as f:
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            blocks, threads = int(r["blocks"]), int(r["threads"])
            sms = [int(x) for x in r["sms"].split(";")]
            slots = slots_of[threads]
            n = min(blocks, SMS * slots)
            if blocks > 8:
                starts = [([k for k in range(8) if ROWS[k][0] == sms[8]] or [-1])[0]]
                leads = [LEAD.index(sms[0])] if sms[0] in LEAD else []
            else:
                starts, leads = [0], [0, 4]
            ok = any(s >= 0 and first_wave(blocks, slots, s, l)[:n] == sms[:n] for s in starts for l in leads)
            result[(blocks, threads)][0] += ok
            result[(blocks, threads)][1] += 1
    matched = sum(v[0] for v in result.values())
    total = sum(v[1] for v in result.values())
    for key in sorted(result):
        print(f"{key[0]:5d} blocks x {key[1]:4d} threads: {result[key][0]} of {result[key][1]} launches exact")
    print(f"all: {matched} of {total} launches' first waves exact")
    return 0 if matched == total else 1


if __name__ == "__main__":
    sys.exit(main())

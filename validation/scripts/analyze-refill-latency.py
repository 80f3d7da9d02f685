#!/usr/bin/env python3
"""Block end -> refill start on the GPU, from `gpusched-runner refill-latency` timelines.

    validation/scripts/analyze-refill-latency.py [DIR]   (default validation/data/h100/refill_latency)

Reads DIR/<case>.csv (the last repetition of each case, placement timeline schema) and
DIR/summary.csv (every repetition) and prints Markdown tables:

* isolated_bs<T>: for each refill (a block that starts after some block of its SM ended) the
  freed slot = the earliest-ending not yet reused block of its SM with end <= the refill's start;
  gap = refill start - that end. Also the trigger gap = start - the latest end on the SM before the
  start, and how many refills start together on one SM (same start ns). A least-squares line of the
  median trigger gap vs warps per block tests "gap = L + b * warps".
* burst_bs<T>: the first wave ends at one instant; gaps of the first 100 refills; the burst
  phase (the first C refills, C = capacity) as a GPU-wide rate; the steady rate (refills between
  the 10% and 90% refill in start order, per us); start spacing of consecutive refills on one SM
  vs GPU-wide during the burst.
* sizes_k<k>: 32-thread blocks, k per SM: steady refill rate vs k and the slot-limited rate
  132 k / (mean block time + median gap).
Python 3 standard library only.
"""
import csv
import os
import statistics
import sys
from collections import defaultdict


def quantile(v, q):
    if not v:
        return float("nan")
    v = sorted(v)
    pos = q * (len(v) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (pos - lo) * (v[hi] - v[lo])


def load(path):
    meta, rows = {}, []
    with open(path) as f:
        lines = []
        for line in f:
            if line.startswith("# "):
                k, _, v = line[2:].rstrip("\n").partition("=")
                meta[k] = v
            else:
                lines.append(line)
    for r in csv.DictReader(lines):
        rows.append((int(r["block"]), int(r["sm"]), int(r["start_ns"]), int(r["end_ns"])))
    return meta, rows


def refills(blocks):
    """Per refill: (block, freed block, trigger end, co-starts on the SM incl. itself)."""
    by_sm = defaultdict(list)
    for b in blocks:
        by_sm[b[1]].append(b)
    out = []
    for sm_blocks in by_sm.values():
        by_start = sorted(sm_blocks, key=lambda b: (b[2], b[0]))
        by_end = sorted(sm_blocks, key=lambda b: (b[3], b[0]))
        ends = sorted(b[3] for b in sm_blocks)
        starts = defaultdict(int)
        for b in sm_blocks:
            starts[b[2]] += 1
        m = 0
        for b in by_start:
            if m < len(by_end) and by_end[m][3] <= b[2]:
                trigger = max(e for e in ends if e <= b[2])
                out.append((b, by_end[m], trigger, starts[b[2]]))
                m += 1
    out.sort(key=lambda r: (r[0][2], r[0][0]))
    return out


def q3(v):
    return "%.0f / %.0f / %.0f" % (quantile(v, 0.5), quantile(v, 0.1), quantile(v, 0.9))


def steady_rate(starts):
    starts = sorted(starts)
    if len(starts) < 10:
        return float("nan")
    a, b = len(starts) // 10, len(starts) * 9 // 10
    return 1e3 * (b - a) / (starts[b] - starts[a]) if starts[b] > starts[a] else float("nan")


def load_summary(path):
    per_case = defaultdict(list)
    if not os.path.exists(path):
        return per_case
    with open(path) as f:
        for r in csv.DictReader(l for l in f if not l.startswith("#")):
            per_case[r["case"]].append(r)
    return per_case


def rep_range(rows, key):
    v = [float(r[key]) for r in rows]
    return "%.0f..%.0f" % (min(v), max(v)) if v else "-"


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "validation/data/h100/refill_latency"
    summary = load_summary(os.path.join(d, "summary.csv"))
    cases = {}
    for name in sorted(os.listdir(d)):
        if name.endswith(".csv") and name.startswith(("isolated_", "burst_", "sizes_")):
            cases[name[:-4]] = load(os.path.join(d, name))
    sms = int(next(iter(cases.values()))[0]["sm_count"])
    iso = sorted((c for c in cases if c.startswith("isolated_")), key=lambda c: int(cases[c][0]["threads"]))
    bur = sorted((c for c in cases if c.startswith("burst_")), key=lambda c: int(cases[c][0]["threads"]))
    siz = sorted((c for c in cases if c.startswith("sizes_")), key=lambda c: int(cases[c][0]["blocks_per_sm"]))

    print("## Isolated refills (last repetition; ns, median / p10 / p90)\n")
    print("| threads | warps | blocks/SM | refills | gap to freed slot | trigger gap (latest end on SM) "
          "| refills starting in pairs | gap p50 over 5 reps | warp entry spread p50 / max |")
    print("|---|---|---|---|---|---|---|---|---|")
    fit = []
    for c in iso:
        meta, blocks = cases[c]
        t = int(meta["threads"])
        r = refills(blocks)
        gap = [x[0][2] - x[1][3] for x in r]
        trig = [x[0][2] - x[2] for x in r]
        paired = sum(1 for x in r if x[3] > 1)
        fit.append((t // 32, quantile(trig, 0.5), quantile(gap, 0.5)))
        s = summary.get(c, [])
        spread = "%s / %s" % (rep_range(s, "warp_spread_p50_ns"), rep_range(s, "warp_spread_max_ns")) if s else "-"
        print("| %d | %d | %s | %d | %s | %s | %d (%.0f%%) | %s | %s |" % (
            t, t // 32, meta["blocks_per_sm"], len(r), q3(gap), q3(trig), paired, 100.0 * paired / max(len(r), 1),
            rep_range(s, "gap_p50_ns"), spread))
    if len(fit) >= 2:
        xs = [w for w, _, _ in fit]
        for label, idx in (("trigger gap", 1), ("gap to freed slot", 2)):
            ys = [f[idx] for f in fit]
            mx, my = statistics.fmean(xs), statistics.fmean(ys)
            b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
            a = my - b * mx
            res = max(abs(y - (a + b * x)) for x, y in zip(xs, ys))
            print("\nFit of the median %s vs warps: gap = %.1f ns + %.2f ns x warps (max |residual| %.1f ns); "
                  "the simulator's D + a + b x warps = 55.5 + 4.26 x warps gives %.0f ns (1 warp) .. %.0f ns (32)."
                  % (label, a, b, res, 55.5 + 4.26, 55.5 + 4.26 * 32))

    print("\n## Bursts: the whole first wave ends at one instant (last repetition)\n")
    print("| threads | capacity C | first-100 gap (med / p10 / p90) | burst: C refills within (ns) | burst rate "
          "(blocks/us) | burst rate (warps/us) | same-SM start spacing in burst (med) | all-refill gap (med / p10 / p90) "
          "| steady rate (blocks/us) | steady rate, 5 reps |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for c in bur:
        meta, blocks = cases[c]
        t, cap = int(meta["threads"]), int(meta["capacity"])
        r = refills(blocks)
        gap = [x[0][2] - x[1][3] for x in r]
        first = gap[:100]
        burst = r[:cap]
        span = burst[-1][0][2] - burst[0][0][2] if len(burst) > 1 else 0
        rate = 1e3 * (len(burst) - 1) / span if span > 0 else float("nan")
        per_sm = defaultdict(list)
        for x in burst:
            per_sm[x[0][1]].append(x[0][2])
        spacing = []
        for v in per_sm.values():
            v.sort()
            spacing += [v[i + 1] - v[i] for i in range(len(v) - 1)]
        s = summary.get(c, [])
        print("| %d | %d | %s | %d | %.0f | %.0f | %s | %s | %.0f | %s |" % (
            t, cap, q3(first), span, rate, rate * t / 32,
            "%.0f" % quantile(spacing, 0.5) if spacing else "-", q3(gap), steady_rate([x[0][2] for x in r]),
            rep_range(s, "steady_rate_per_us")))

    print("\n## Sustained refill rate vs resident blocks per SM (32-thread blocks, 1 us, grid 5 x capacity)\n")
    print("| k (blocks/SM) | dynamic smem (B) | capacity | steady rate (blocks/us) | rate / k | slot-limited "
          "132 k / (block time + gap) | gap (med / p10 / p90) | steady rate, 5 reps |")
    print("|---|---|---|---|---|---|---|---|")
    for c in siz:
        meta, blocks = cases[c]
        k = int(meta["blocks_per_sm"])
        r = refills(blocks)
        gap = [x[0][2] - x[1][3] for x in r]
        rate = steady_rate([x[0][2] for x in r])
        dur = statistics.fmean(b[3] - b[2] for b in blocks)
        slot = 1e3 * sms * k / (dur + quantile(gap, 0.5))
        s = summary.get(c, [])
        print("| %d | %s | %d | %.0f | %.1f | %.0f | %s | %s |" % (
            k, meta["smem"], int(meta["capacity"]), rate, rate / k, slot, q3(gap), rep_range(s, "steady_rate_per_us")))

    print("\n## First-wave dispatch at launch (last repetition)\n")
    print("| case | first-wave blocks | all started within (ns) | blocks/us |")
    print("|---|---|---|---|")
    for c in iso + bur + siz:
        meta, blocks = cases[c]
        cap = int(meta["capacity"])
        st = sorted(b[2] for b in blocks if b[0] < cap)
        span = st[-1] - st[0]
        print("| %s | %d | %d | %s |" % (c, cap, span, "%.0f" % (1e3 * (cap - 1) / span) if span else "-"))


if __name__ == "__main__":
    main()

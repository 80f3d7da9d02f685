#!/usr/bin/env python3
"""What concurrent CUDA-graph branches do to the SSSP kernels: the instrumented timelines against K=4 C=1.

Reads validation/data/h100/sssp/timeline_n4096_d8_*_t256.csv. Every block (kernel, source, iteration,
block index) of a C > 1 run exists in the K=4 C=1 run when its source is 0..3, with the same work, so
its duration ratio to that block isolates the effect of the other branches. Printed per run: per kernel,
the median block duration and launch span, the mean ratio overall, by the other launches running
(time-averaged over the block) and by where it ran (the same SM as at C = 1 or not); the SMs that host
blocks of two launches at once; and the gap from a kernel's end to the next kernel of its stream,
split by the other kernels that start inside it and, for gaps no other kernel starts in, by whether
other kernels run during it.

Usage: analyse-sssp-concurrency.py [SSSP_DIR=validation/data/h100/sssp]
"""
import bisect
import collections
import csv
import os
import sys

KERNELS = ("relax", "minimum", "update")


def load(path):
    with open(path) as f:
        rows = csv.DictReader(line for line in f if not line.startswith("#"))
        return [{"k": r["kernel"], "l": int(r["launch"]), "b": int(r["block"]), "sm": int(r["sm"]),
                 "s": int(r["start_ns"]), "e": int(r["end_ns"]), "st": int(r["stream"]),
                 "src": int(r["instance"]), "it": int(r["iteration"])} for r in rows]


def median(v):
    v = sorted(v)
    return v[len(v) // 2] if v else float("nan")


def mean(v):
    return sum(v) / len(v) if v else float("nan")


def running_average(times, counts, a, e):
    """Time average over [a, e) of a step function (counts[i] from times[i] on)."""
    if e <= a:
        return 0.0
    i = bisect.bisect_right(times, a) - 1
    j = bisect.bisect_left(times, e)
    pts = [a] + times[i + 1:j] + [e]
    vals = counts[max(i, 0):j]
    return sum((pts[q + 1] - pts[q]) * vals[q] for q in range(len(pts) - 1)) / (e - a)


def launches_of(blocks):
    out = {}
    for b in blocks:
        l = out.setdefault(b["l"], {"first": 1 << 62, "end": 0, "st": b["st"], "k": b["k"]})
        l["first"] = min(l["first"], b["s"])
        l["end"] = max(l["end"], b["e"])
    return out


def analyse(name, blocks, ref, ref_sm):
    launches = launches_of(blocks)
    events = sorted([(l["first"], 1) for l in launches.values()] + [(l["end"], -1) for l in launches.values()])
    times, counts, cur = [], [], 0
    for t, d in events:
        cur += d
        times.append(t)
        counts.append(cur)
    print(f"== {name}: {len(launches)} launches, span {(max(l['end'] for l in launches.values()) - min(l['first'] for l in launches.values())) / 1e3:.1f} us")
    for k in KERNELS:
        durs = [b["e"] - b["s"] for b in blocks if b["k"] == k]
        spans = [l["end"] - l["first"] for l in launches.values() if l["k"] == k]
        ratios, by_running, by_sm = [], collections.defaultdict(list), collections.defaultdict(list)
        for b in blocks:
            key = (b["k"], b["src"], b["it"], b["b"])
            if b["k"] != k or key not in ref or ref[key] < 250:
                continue
            r = (b["e"] - b["s"]) / ref[key]
            ratios.append(r)
            l = launches[b["l"]]
            others = running_average(times, counts, l["first"], l["end"]) - 1
            by_running[min(round(others), 6)].append(r)
            by_sm["same SM" if b["sm"] == ref_sm[key] else "other SM"].append(r)
        line = f"  {k:7s} block median {median(durs)} ns, launch span median {median(spans)} ns"
        if ratios:
            line += f"; block / same block at C=1: mean {mean(ratios):.3f}"
            line += "; by other launches running " + " ".join(f"{n}:{mean(v):.3f}({len(v)})" for n, v in sorted(by_running.items()))
            line += "; " + ", ".join(f"{s} {mean(v):.3f}" for s, v in sorted(by_sm.items()))
        print(line)
    shared = 0
    by_sm = collections.defaultdict(list)
    for b in blocks:
        by_sm[b["sm"]].append(b)
    for v in by_sm.values():
        v.sort(key=lambda b: b["s"])
        shared += sum(1 for a, b in zip(v, v[1:]) if b["s"] < a["e"] and b["l"] != a["l"])
    print(f"  blocks starting on an SM while another launch's block runs there: {shared} of {len(blocks)}")
    starts = sorted(l["first"] for l in launches.values())
    by_stream = collections.defaultdict(list)
    for l in launches.values():
        by_stream[l["st"]].append(l)
    gaps, by_starts, quiet = [], collections.defaultdict(list), collections.defaultdict(list)
    for v in by_stream.values():
        v.sort(key=lambda l: l["first"])
        for a, b in zip(v, v[1:]):
            g = b["first"] - a["end"]
            n = bisect.bisect_left(starts, b["first"]) - bisect.bisect_right(starts, a["end"])
            gaps.append(g)
            by_starts[min(n, 6)].append(g)
            if n == 0:
                busy = running_average(times, counts, a["end"], b["first"]) > 0.5
                quiet["others running" if busy else "nothing else running"].append(g)
    print(f"  gap end -> next kernel of the stream: median {median(gaps)}, mean {mean(gaps):.0f} ns; "
          "by other starts in it " + " ".join(f"{n}:{median(v)}({len(v)})" for n, v in sorted(by_starts.items())))
    if len(by_stream) > 1:
        print("  gaps no other kernel starts in: " + ", ".join(f"{s} median {median(v)} ns ({len(v)})" for s, v in sorted(quiet.items())))


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "validation/data/h100/sssp"
    base = load(os.path.join(d, "timeline_n4096_d8_graph_k4_c1_t256.csv"))
    ref = {(b["k"], b["src"], b["it"], b["b"]): b["e"] - b["s"] for b in base}
    ref_sm = {(b["k"], b["src"], b["it"], b["b"]): b["sm"] for b in base}
    for name in ("graph_k4_c1", "graph_k4_c4", "graph_k8_c8", "stream_k8_c8"):
        analyse(name, load(os.path.join(d, f"timeline_n4096_d8_{name}_t256.csv")), ref, ref_sm)


if __name__ == "__main__":
    main()

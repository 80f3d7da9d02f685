#!/usr/bin/env python3
"""Measures the H100's tensor power limit (execution.tensor_power_sms) from the committed bf16 GEMM data.

A tensor-core kernel's SM cycles do not depend on the clock it runs at (its operands come from shared
memory and L2, hidden behind the tensor work), so Nsight Compute's `sm__cycles_elapsed.avg` of a GEMM
(ncu-green, the GPU's own clock management) divided by the same GEMM's duration in a profiled trace is
the clock the trace ran it at. With the GEMM's FLOPs F (its shapes), the dtype's tensor rate R per SM per
cycle and the N = min(grid, SMs) SMs it occupies, its tensor activity per SM and cycle is
a = F / (R N cycles). The power rule (docs/gpu-spec.md, "Power-limited tensor clock") gives
f = f_t min(1, (P / (N a))^(1/3)), so each throttled kernel measures P = N a (f / f_t)^3.

    python3 validation/scripts/tensor-power.py [--data validation/data/h100] [--tensor-clock 1830] [--rate 4096]
        [--shapes torch_shapes] [--recordings 'torch*']

Prints, per recording and GEMM: grid, F, cycles, traced duration, clock, a, P; then the median P over the
kernels that ran below f_t (the ones that measure the limit); then the rule's shape in K under Nsight
Compute's conditions: each GEMM's P from its whole-GPU clock there, the clock the rule predicts at
K = 128..16 against the one Nsight Compute measured.
"""
import argparse
import csv
import glob
import gzip
import io
import json
import os
import statistics


def ncu_rows(path):
    lines = gzip.open(path, "rt").read().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('"ID"'))
    rows = list(csv.reader(io.StringIO("\n".join(lines[start:]))))
    head, data = rows[0], rows[2:]  # the second row holds the units
    num = lambda r, key: float(r[head.index(key)].replace(",", ""))
    return [{"name": r[head.index("Kernel Name")], "cycles": num(r, "sm__cycles_elapsed.avg"),
             "grid": num(r, "launch__grid_size"), "ns": num(r, "gpu__time_duration.sum")} for r in data]


def trace_gemms(path):
    """The tensor GEMM kernels (nvjet) of a trace in time order, and its aten::mm shapes in time order."""
    events = json.load(gzip.open(path))["traceEvents"]
    kernels = sorted((e for e in events if e.get("cat") == "kernel" and e["name"].startswith("nvjet")), key=lambda e: e["ts"])
    mms = sorted((e for e in events if e.get("cat") == "cpu_op" and e["name"] == "aten::mm"), key=lambda e: e["ts"])
    return kernels, mms


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="validation/data/h100")
    ap.add_argument("--tensor-clock", type=float, default=1830.0, help="execution.tensor_clock_mhz (MHz)")
    ap.add_argument("--rate", type=float, default=4096.0, help="bf16 tensor FLOPs per SM per cycle")
    ap.add_argument("--sms", type=int, default=132)
    ap.add_argument("--shapes", default="torch_shapes",
                    help="the folder under --data whose gemm trace gives the GEMMs' shapes (default torch_shapes)")
    ap.add_argument("--recordings", default="torch*",
                    help="the folders under --data (a glob) whose gemm traces, and those of their round*/ folders, "
                         "measure the limit (default torch*)")
    args = ap.parse_args()
    ncu = [r for r in ncu_rows(os.path.join(args.data, f"torch/ncu-green/gemm_k{args.sms}.csv.gz")) if r["name"].startswith("nvjet")]
    kernels, mms = trace_gemms(os.path.join(args.data, args.shapes, f"gemm_k{args.sms}.json.gz"))
    if not mms or len(kernels) != len(mms):
        raise SystemExit(f"the shapes trace has {len(kernels)} nvjet kernels and {len(mms)} aten::mm operators")
    flops = []
    for op in mms[:len(ncu)]:
        (m, k), (k2, n) = op["args"]["Input Dims"][:2]
        assert k == k2, op["args"]["Input Dims"]
        flops.append(2.0 * m * n * k)
    per_kernel = []
    for r, f in zip(ncu, flops):
        sms = min(r["grid"], args.sms)
        a = f / (args.rate * sms * r["cycles"])
        per_kernel.append((sms, f, r["cycles"], a))
    print(f"{'recording':44s} {'i':>2s} {'grid':>5s} {'GFLOP':>8s} {'Mcycles':>8s} {'us':>8s} {'MHz':>6s} {'a':>5s} {'P':>6s}")
    limits = []
    recordings = sorted(glob.glob(os.path.join(args.data, args.recordings, f"gemm_k{args.sms}.json.gz")) +
                        glob.glob(os.path.join(args.data, args.recordings, "round*", f"gemm_k{args.sms}.json.gz")))
    for path in recordings:
        kernels, _ = trace_gemms(path)
        for j, e in enumerate(kernels):
            i = j % len(per_kernel)
            sms, f, cycles, a = per_kernel[i]
            mhz = cycles / e["dur"]  # cycles per microsecond
            p = sms * a * min(1.0, mhz / args.tensor_clock) ** 3
            if mhz < args.tensor_clock:
                limits.append(p)
            print(f"{os.path.relpath(path, args.data):44s} {i:2d} {sms:5.0f} {f / 1e9:8.1f} {cycles / 1e6:8.3f} {e['dur']:8.1f} "
                  f"{mhz:6.0f} {a:5.3f} {p:6.1f}")
    print(f"tensor_power_sms: median {statistics.median(limits):.1f} over {len(limits)} throttled kernels "
          f"(range {min(limits):.1f}-{max(limits):.1f})")
    # The rule's shape in K under Nsight Compute's own conditions: P from the whole GPU's clock of each GEMM,
    # then the clock the f^3 rule predicts at every other K against the one Nsight Compute measured there.
    print(f"\nthe f^3 rule across K (ncu-green, the GPU's own clock management): P from K = {args.sms}")
    print(f"{'i':>2s} {'K':>4s} {'measured MHz':>12s} {'rule MHz':>9s} {'error':>7s}")
    for i, (sms, f, cycles, a) in enumerate(per_kernel):
        whole = ncu[i]["cycles"] / ncu[i]["ns"] * 1e3
        p = sms * a * min(1.0, whole / args.tensor_clock) ** 3
        for k in (128, 96, 64, 32, 16):
            rows = [r for r in ncu_rows(os.path.join(args.data, f"torch/ncu-green/gemm_k{k}.csv.gz")) if r["name"].startswith("nvjet")]
            measured = rows[i]["cycles"] / rows[i]["ns"] * 1e3
            busy = min(sms, k) * a
            rule = args.tensor_clock * min(1.0, (p / busy) ** (1 / 3))
            print(f"{i:2d} {k:4d} {measured:12.0f} {rule:9.0f} {100 * (rule / measured - 1):+6.1f}%")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Times cuBLAS's bf16 GEMMs of many tile counts on the whole GPU and in green contexts of fewer SMs.

The persistent `nvjet` GEMMs launch one block per SM of the whole GPU whatever SMs a green context
leaves them, and measure 1.03-1.47x at 128 SMs where 132/128 would give 1.03
(docs/validation.md, "Kernels whose wave count changes"): how the blocks share the output tiles decides it.
This sweep gives that rule its data: for each shape M x N x K (M, N multiples of 256 and 128, so the
tile count of a 256 x 128 tile is M N / 32768), each K_SMS, the kernel cuBLAS picked, its grid and its
median duration over REPS launches (torch.profiler, after a warm-up).

  python3 validation/torch/persistent_gemm_sweep.py --out FILE.csv [--sms 132,128,120,96,64] [--reps 7]

Writes FILE.csv: sms, m, n, k, kernel, grid, median_us, min_us. Changes no GPU setting.
"""
import argparse
import csv
import json
import os
import statistics
import sys
import tempfile

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from profile_workloads import Partition  # noqa: E402


def shapes():
    """M x N x K with 256 x 128 tile counts from 32 to 2048 (several near multiples of 128 and 132)."""
    out = []
    for m in (1024, 2048, 3072, 4096, 5120, 6144, 8192):
        for n in (1024, 2048, 2176, 4096, 4224, 8192):
            out.append((m, n, 4096))
    return out


def kernels_of(prof):
    """The profile's kernels as (name, grid, duration us), from its Kineto trace."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "trace.json")
        prof.export_chrome_trace(path)
        with open(path) as f:
            events = json.load(f)["traceEvents"]
    return [(e["name"], "x".join(str(g) for g in e.get("args", {}).get("grid", [])), float(e["dur"]))
            for e in events if e.get("cat") == "kernel"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--sms", default="132,128,120,96,64")
    ap.add_argument("--reps", type=int, default=7)
    args = ap.parse_args()
    total = torch.cuda.get_device_properties(0).multi_processor_count
    rows = []
    for sms in [int(s) for s in args.sms.split(",")]:
        with Partition(min(sms, total), total):
            for m, n, k in shapes():
                a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
                b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
                for _ in range(3):
                    a @ b
                torch.cuda.synchronize()
                with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
                    for _ in range(args.reps):
                        a @ b
                    torch.cuda.synchronize()
                kernels = kernels_of(prof)
                if not kernels:
                    print(f"K={sms} {m}x{n}x{k}: no kernel in the profile", file=sys.stderr)
                    continue
                # The GEMM: the kernel that took the most time (a split-K reduction may follow it).
                main_kernel = max(set(name for name, _, _ in kernels),
                                  key=lambda name: sum(d for x, _, d in kernels if x == name))
                times = [d for name, _, d in kernels if name == main_kernel]
                grid = next(g for name, g, _ in kernels if name == main_kernel)
                rows.append({"sms": sms, "m": m, "n": n, "k": k, "kernel": main_kernel, "grid": grid,
                             "median_us": f"{statistics.median(times):.3f}", "min_us": f"{min(times):.3f}"})
                print(f"K={sms:3d} {m:5d}x{n:5d}x{k}: {statistics.median(times):9.2f} us  grid {grid:10s} {main_kernel[:50]}",
                      flush=True)
    with open(args.out, "w", newline="") as f:
        f.write(f"# device={torch.cuda.get_device_name(0)}\n# sm_count={total}\n# torch={torch.__version__}\n")
        w = csv.DictWriter(f, fieldnames=["sms", "m", "n", "k", "kernel", "grid", "median_us", "min_us"])
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()

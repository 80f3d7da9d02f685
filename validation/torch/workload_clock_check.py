#!/usr/bin/env python3
"""Measures the SM clock and board power while the profiled workloads run, as profile_workloads.py runs them.

The trace-only what-if of the bf16 GEMM chain scales with its waves on fewer SMs while the hardware
scales better, and a sustained GEMM loop runs the whole H100 power-limited at 1410 MHz against 1980 MHz
in a green context of 16 SMs (gemm_clock_check.py). Whether the profiled steps themselves ran
power-limited is what this samples (validation/data/h100/power/README.md: at 10 ms it sees the idle board, not the
GEMMs' own clock, which validation/scripts/tensor-power.py derives from their cycles): for each K and workload it repeats
profile_workloads.py's sequence
(3 warm-up steps, 20 timed steps, then 5 traced steps under torch.profiler: wait 1, warm-up 1, active 3)
while nvidia-smi samples the SM clock and power every 10 ms, and then runs the workload back to back for
--steady seconds from that state (the clock a long job would settle at). Changes nothing on the GPU.

    python3 validation/torch/workload_clock_check.py --out DIR [--sms 132,64,16] [--workloads gemm,transformer]

Writes DIR/workload_clock.csv (one row per workload, K and phase: samples, SM clock median / min / max,
power median) and DIR/clock_samples.csv.gz (every sample: seconds since the script began, MHz, W).
"""
import argparse
import csv
import datetime
import gzip
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import torch

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from profile_workloads import KNOWN, Partition, make_workload, profile, timed_iterations  # noqa: E402


class Sampler:
    """nvidia-smi every 10 ms in the background; each sample stamped with its own timestamp field."""

    def __init__(self):
        self.samples = []  # (epoch seconds, MHz, W)
        self.proc = subprocess.Popen(
            ["nvidia-smi", "--query-gpu=timestamp,clocks.sm,power.draw", "--format=csv,noheader,nounits", "-lms", "10"],
            stdout=subprocess.PIPE, text=True)
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        for line in self.proc.stdout:
            parts = [p.strip() for p in line.split(",")]
            if len(parts) != 3:
                continue
            try:
                stamp = datetime.datetime.strptime(parts[0], "%Y/%m/%d %H:%M:%S.%f").timestamp()
                self.samples.append((stamp, float(parts[1]), float(parts[2])))
            except ValueError:
                continue

    def stop(self):
        self.proc.terminate()
        self.thread.join(timeout=5)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--sms", default="132,64,16")
    ap.add_argument("--workloads", default="gemm,transformer,cnn,elementwise")
    ap.add_argument("--steady", type=float, default=2.0, help="seconds of back-to-back steps after the traced ones")
    ap.add_argument("--idle", type=float, default=2.0, help="seconds idle before each workload")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True
    total = torch.cuda.get_device_properties(0).multi_processor_count
    names = [w for w in args.workloads.split(",") if w]
    for name in names:
        if name not in KNOWN:
            raise SystemExit(f"unknown workload {name!r} (known: {', '.join(KNOWN)})")
    sampler = Sampler()
    phases = []  # (workload, K, phase, t0, t1)
    begin = time.time()
    scratch = tempfile.mkdtemp()
    for sms in [int(s) for s in args.sms.split(",")]:
        for name in names:
            time.sleep(args.idle)
            with Partition(sms, total):
                step = make_workload(name)
                t = time.time()
                for _ in range(3):
                    step()
                torch.cuda.synchronize()
                timed_iterations(step, 20)
                phases.append((name, sms, "timed", t, time.time()))
                t = time.time()
                profile(step, os.path.join(scratch, f"{name}_k{sms}.json.gz"))
                phases.append((name, sms, "traced", t, time.time()))
                t = time.time()
                while time.time() - t < args.steady:
                    step()
                    torch.cuda.synchronize()
                phases.append((name, sms, "steady", t, time.time()))
                phases.append((name, sms, "steady_last_half", t + args.steady / 2, time.time()))
            print(f"{name} K={sms} done", flush=True)
    time.sleep(0.2)
    sampler.stop()
    samples = sampler.samples
    with open(os.path.join(args.out, "workload_clock.csv"), "w", newline="") as f:
        f.write(f"# device={torch.cuda.get_device_name(0)}\n# sm_count={total}\n# torch={torch.__version__}\n"
                f"# nvidia-smi every 10 ms; phases as profile_workloads.py runs them, then --steady {args.steady} s\n")
        w = csv.writer(f)
        w.writerow(["workload", "sms", "phase", "seconds", "samples", "clock_median_mhz", "clock_min_mhz",
                    "clock_max_mhz", "power_median_w"])
        for name, sms, phase, t0, t1 in phases:
            inside = [s for s in samples if t0 <= s[0] <= t1]
            clocks = [s[1] for s in inside] or [float("nan")]
            power = [s[2] for s in inside] or [float("nan")]
            w.writerow([name, sms, phase, f"{t1 - t0:.3f}", len(inside), f"{statistics.median(clocks):.0f}",
                        f"{min(clocks):.0f}", f"{max(clocks):.0f}", f"{statistics.median(power):.1f}"])
            print(f"{name:12s} K={sms:3d} {phase:16s} {t1 - t0:6.3f} s {len(inside):4d} samples  clock median "
                  f"{statistics.median(clocks):5.0f} MHz (min {min(clocks):.0f}, max {max(clocks):.0f})  power "
                  f"{statistics.median(power):5.1f} W", flush=True)
    with gzip.open(os.path.join(args.out, "clock_samples.csv.gz"), "wt") as f:
        f.write("seconds,clock_mhz,power_w\n")
        for stamp, mhz, watts in samples:
            f.write(f"{stamp - begin:.3f},{mhz:.0f},{watts:.1f}\n")


if __name__ == "__main__":
    main()

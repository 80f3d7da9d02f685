"""Measures the SM clock and power while a bf16 GEMM loop runs on the whole GPU and in green contexts of K SMs.

Tests whether cuBLAS's bf16 GEMMs do more FLOPs per SM per second on few SMs because the whole GPU runs
them at a power-limited clock (docs/validation.md "What-if from the trace alone"). Reads the clocks with
nvidia-smi (changes nothing). Writes one CSV row per K: K, FLOP/s per SM, median SM clock and power over
the run, the GPU's name.

    python3 validation/torch/gemm_clock_check.py --out gemm_clock.csv --sms 132,64,16
"""
import argparse
import statistics
import subprocess
import sys
import time

import torch

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from profile_workloads import Partition  # noqa: E402


def sample_clocks(seconds):
    """Starts nvidia-smi sampling SM clock (MHz) and power (W) every 100 ms for `seconds`."""
    return subprocess.Popen(["nvidia-smi", "--query-gpu=clocks.sm,power.draw", "--format=csv,noheader,nounits",
                             "-lms", "100"], stdout=subprocess.PIPE, text=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--sms", default="132,64,16")
    ap.add_argument("--seconds", type=float, default=4.0)
    ap.add_argument("--n", type=int, default=8192)
    args = ap.parse_args()
    total = torch.cuda.get_device_properties(0).multi_processor_count
    name = torch.cuda.get_device_name(0)
    rows = []
    for k in [int(x) for x in args.sms.split(",")]:
        with Partition(k, total):
            a = torch.randn(args.n, args.n, device="cuda", dtype=torch.bfloat16)
            b = torch.randn(args.n, args.n, device="cuda", dtype=torch.bfloat16)
            for _ in range(3):
                torch.mm(a, b)
            torch.cuda.synchronize()
            smi = sample_clocks(args.seconds)
            start = time.perf_counter()
            count = 0
            while time.perf_counter() - start < args.seconds:
                for _ in range(4):
                    torch.mm(a, b)
                torch.cuda.synchronize()
                count += 4
            elapsed = time.perf_counter() - start
            smi.terminate()
            out, _ = smi.communicate()
        samples = [line.split(",") for line in out.strip().splitlines() if line.count(",") == 1]
        clocks = [float(c) for c, _ in samples[2:]] or [0.0]
        power = [float(p) for _, p in samples[2:]] or [0.0]
        flops = 2.0 * args.n ** 3 * count / elapsed
        used = min(k, total)
        rows.append((used, flops / used, statistics.median(clocks), statistics.median(power), len(clocks)))
        print(f"K={used}: {flops / 1e12:.1f} TFLOP/s, {flops / used / 1e12:.3f} per SM, SM clock median "
              f"{statistics.median(clocks):.0f} MHz, power median {statistics.median(power):.0f} W ({len(clocks)} samples)",
              flush=True)
    with open(args.out, "w") as f:
        f.write(f"# device_name={name}\n# n={args.n}\n# seconds={args.seconds}\n")
        f.write("sms,flops_per_sm_per_s,sm_clock_mhz_median,power_w_median,samples\n")
        for r in rows:
            f.write(f"{r[0]},{r[1]:.6g},{r[2]:.0f},{r[3]:.1f},{r[4]}\n")


if __name__ == "__main__":
    main()

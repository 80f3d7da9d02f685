#!/usr/bin/env python3
"""The fraction of the roofline peak the vendor libraries' compute kernels reach, per family, from traces with shapes.

  validation/scripts/library-efficiency.py [--bin build/apps/gpusched] [--gpu h100] [--min-us 10] TRACE.json.gz...

Each trace (recorded with record_shapes=True on the GPU of --gpu, e.g. validation/data/h100/torch_shapes/
*_k132.json.gz) is imported with `gpusched import torch`; every kernel of the families gemm, conv and
attention whose FLOPs came from data (work_from shapes or profiler-flops) and that ran at least --min-us
(the importer's rules apply from 10 us on) gives

    achieved = flops / (measured x rate(dtype) x clock x min(blocks, SMs))

with rate the preset's FLOPs per SM per cycle for its dtype (execution.tensor_flops_per_sm_cycle, or
fma_flops_per_sm_cycle for fp32) and clock its execution.clock_mhz, both read from `gpusched show gpu`.
Prints per family the count, median, time-weighted mean, min and max; the median is the preset's
execution.library_efficiency (docs/importing.md "Compute families without shapes").
"""
import argparse
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

FAMILIES = ("gemm", "conv", "attention")


def preset_numbers(binary, gpu):
    text = subprocess.run([binary, "show", "gpu", gpu], check=True, capture_output=True, text=True).stdout
    clock = float(re.search(r"^\s*clock_mhz: ([\d.]+)", text, re.M).group(1))
    sms = int(re.search(r"^sm_count: (\d+)", text, re.M).group(1))
    rates = {"fp32": float(re.search(r"^\s*fma_flops_per_sm_cycle: ([\d.]+)", text, re.M).group(1))}
    block = re.search(r"tensor_flops_per_sm_cycle:\n((?:    \w+: [\d.]+\n)+)", text)
    for line in block.group(1).splitlines() if block else []:
        dtype, value = line.split(":")
        rates[dtype.strip()] = float(value)
    return clock, sms, rates


def kernels(yaml_text):
    """(family, work_from, dtype, flops, measured_us, blocks) of each kernel item of an imported workload."""
    for item in yaml_text.split("\n  - kernel:")[1:]:
        get = lambda key: (m.group(1) if (m := re.search(r"^    " + key + r": (\S+)", item, re.M)) else None)
        grid = get("grid")
        measured = get("measured")
        if not grid or not measured or not measured.endswith("us"):
            continue
        x, y, z = (int(v) for v in grid.split("x"))
        yield get("family"), get("work_from"), get("dtype"), get("flops"), float(measured[:-2]), x * y * z


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default="build/apps/gpusched")
    parser.add_argument("--gpu", default="h100")
    parser.add_argument("--min-us", type=float, default=10.0)
    parser.add_argument("traces", nargs="+")
    args = parser.parse_args()
    clock, sms, rates = preset_numbers(args.bin, args.gpu)
    found = {f: [] for f in FAMILIES}
    with tempfile.TemporaryDirectory() as tmp:
        for trace in args.traces:
            out = Path(tmp) / "w.yaml"
            subprocess.run([args.bin, "import", "torch", trace, "--out", str(out)], check=True, capture_output=True)
            for family, work_from, dtype, flops, measured_us, blocks in kernels(out.read_text()):
                if (family not in found or work_from not in ("shapes", "profiler-flops") or dtype not in rates or not flops
                        or measured_us < args.min_us):
                    continue
                peak = measured_us * 1e-6 * rates[dtype] * clock * 1e6 * min(blocks, sms)
                found[family].append((float(flops) / peak, measured_us))
    print(f"{args.gpu}: clock {clock:g} MHz, {sms} SMs; {len(args.traces)} traces; kernels of {args.min_us:g} us or more")
    print("family      kernels  median  time_weighted  min    max")
    for family, rows in found.items():
        if not rows:
            print(f"{family:11s} {0:7d}  (none)")
            continue
        values = [r[0] for r in rows]
        weighted = sum(a * t for a, t in rows) / sum(t for _, t in rows)
        print(f"{family:11s} {len(rows):7d}  {statistics.median(values):.3f}   {weighted:.3f}          "
              f"{min(values):.3f}  {max(values):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

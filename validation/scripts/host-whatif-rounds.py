#!/usr/bin/env python3
"""The iteration what-if at K SMs against green-context measurements, with the host's speed matched.

  validation/scripts/host-whatif-rounds.py [--bin build/apps/gpusched] [--jobs 2] [--csv OUT.csv]
        [--workloads cnn,transformer,gemm,elementwise] [--steps 2,3,4] [--max-median P] [--max-worst P] DIR...

Each DIR holds <workload>_k<K>.json.gz traces of one sweep (profile_workloads.py, one process:
validation/data/h100/torch_rounds/round1..3, torch_rounds_shapes/round1..3). Per workload, profiled
step and K, from the k132 trace only (imported as `gpusched import torch --steps S`, joined with
validation/data/h100/torch/ncu/<w>.csv.gz when DIR's traces carry no shapes, else trace-only):
  - what-if:       simulate --sms K, the host as the k132 trace recorded it
  - host-matched:  simulate --sms K --host-speed H132/HK, where H is the step's host work (the sum of
                   its calls' CPU times and gaps, cpu_ns + gap_ns of `simulate --json`: what the CPU did,
                   not what it waited for) in the k132 and the kK trace: the what-if for the CPU the kK run had.
Each predicts the span ratio T(K)/T(132), compared with the measured ratio of the two traces' step
spans (first host call to last GPU end, `import --timeline`). Only H is taken from the kK trace; its
kernels, durations and gaps are not used. Prints one row per (DIR, workload, step, K) and a summary;
with --max-median/--max-worst, exits 1 when the host-matched |ratio error| over K < 132 exceeds them.
"""
import argparse
import concurrent.futures as cf
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile

WORKLOADS = ("cnn", "transformer", "gemm", "elementwise")
KS = (132, 128, 96, 64, 32, 16)
STEPS = (2, 3, 4)


def run(args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def host_work_us(binary, yaml_path):
    """The workload's host work (every thread's cpu_ns + gap_ns of simulate --json), in us: the CPU's own
    time, which does not depend on the GPU (so the fixed execution model, the quickest, gives it)."""
    args = [binary, "simulate", "--gpu", "h100", "--exec", "fixed", "--workload", yaml_path, "--json", "--quiet"]
    threads = json.loads(run(args))["host_threads"]
    return sum(t["cpu_ns"] + t["gap_ns"] for t in threads) / 1000


def span_measured_us(timeline_csv):
    end = 0.0
    with open(timeline_csv) as f:
        for line in f:
            if line.startswith("#") or line.startswith("kernel"):
                continue
            cols = line.split(",")
            end = max(end, float(cols[4]))
    return end / 1000


def simulate_us(binary, workload, sms, speed=None):
    args = [binary, "simulate", "--gpu", "h100", "--sms", str(sms), "--workload", workload, "--json", "--quiet"]
    if speed is not None:
        args += ["--host-speed", f"{speed:.6f}"]
    return json.loads(run(args))["makespan_ns"] / 1000


def one_step(binary, ncu_dir, directory, w, step, tmp):
    """Rows for every K of one (DIR, workload, step)."""
    tag = f"{os.path.basename(os.path.dirname(directory))}-{os.path.basename(directory)}-{w}-{step}"
    base = os.path.join(tmp, tag)
    imported = {}
    for k in KS:
        y, t = f"{base}-k{k}.yaml", f"{base}-k{k}.csv"
        run([binary, "import", "torch", os.path.join(directory, f"{w}_k{k}.json.gz"), "--steps", str(step),
             "--out", y, "--timeline", t])
        imported[k] = (y, t)
    ref = imported[132][0]
    ncu = os.path.join(ncu_dir, f"{w}.csv.gz")
    shapes = "shapes" in directory
    if not shapes and os.path.exists(ncu):
        run([binary, "import", "ncu", ncu, "--workload", ref, "--out", base + "-ref-ncu.yaml"])
        ref = base + "-ref-ncu.yaml"
    m132 = span_measured_us(imported[132][1])
    s132 = simulate_us(binary, ref, 132)
    h132 = host_work_us(binary, imported[132][0])
    rows = []
    for k in KS:
        mk = span_measured_us(imported[k][1])
        hk = host_work_us(binary, imported[k][0])
        speed = h132 / hk
        # K = 132 is the reference itself at its own host speed: both predictions are s132.
        wi = s132 if k == 132 else simulate_us(binary, ref, k)
        hm = s132 if k == 132 else simulate_us(binary, ref, k, speed)
        rows.append({"dir": directory, "source": "trace-only" if shapes or not os.path.exists(ncu) else "ncu",
                     "workload": w, "step": step, "K": k, "measured_us": round(mk, 1), "host_work_us": round(hk, 1),
                     "host_speed": round(speed, 4), "measured_ratio": mk / m132, "whatif_ratio": wi / s132,
                     "matched_ratio": hm / s132})
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--bin", default="build/apps/gpusched")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--ncu", default=os.path.join(root, "validation/data/h100/torch/ncu"),
                    help="the Nsight Compute CSVs joined to traces without shapes (default: the repository's)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--csv")
    ap.add_argument("--workloads", default=",".join(WORKLOADS))
    ap.add_argument("--steps", default=",".join(map(str, STEPS)))
    ap.add_argument("--max-median", type=float, help="fail when the host-matched median |error| %% exceeds this")
    ap.add_argument("--max-worst", type=float, help="fail when the host-matched worst |error| %% exceeds this")
    args = ap.parse_args()
    workloads = [w for w in args.workloads.split(",") if w]
    for w in workloads:
        if w not in WORKLOADS:
            ap.error(f"--workloads: unknown workload {w!r} (known: {', '.join(WORKLOADS)})")
    steps = [int(s) for s in args.steps.split(",") if s]
    rows = []
    with tempfile.TemporaryDirectory() as tmp, cf.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(one_step, args.bin, args.ncu, d.rstrip("/"), w, s, tmp)
                   for d in args.dirs for w in workloads for s in steps]
        for f in futures:
            rows.extend(f.result())
    print("| dir | source | workload | step | K | measured us | host speed | measured ratio | what-if ratio | err "
          "| host-matched ratio | err |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    errs = {"whatif": [], "matched": []}
    for r in rows:
        ew = 100 * (r["whatif_ratio"] / r["measured_ratio"] - 1)
        em = 100 * (r["matched_ratio"] / r["measured_ratio"] - 1)
        r["whatif_err_pct"], r["matched_err_pct"] = round(ew, 2), round(em, 2)
        if r["K"] != 132:
            errs["whatif"].append(abs(ew))
            errs["matched"].append(abs(em))
        d = "/".join(r["dir"].split("/")[-2:])
        print(f"| {d} | {r['source']} | {r['workload']} | {r['step']} | {r['K']} | {r['measured_us']} | "
              f"{r['host_speed']:.3f} | {r['measured_ratio']:.3f} | {r['whatif_ratio']:.3f} | {ew:+.1f}% | "
              f"{r['matched_ratio']:.3f} | {em:+.1f}% |")
    for name, e in errs.items():
        e.sort()
        print(f"{name}: {len(e)} points (K < 132), |ratio error| median {statistics.median(e):.1f}%, "
              f"p90 {e[int(0.9 * (len(e) - 1))]:.1f}%, max {e[-1]:.1f}%")
    status = 0
    median, worst = statistics.median(errs["matched"]), errs["matched"][-1]
    if args.max_median is not None and median > args.max_median:
        print(f"FAILED: host-matched median {median:.2f}% > {args.max_median}%")
        status = 1
    if args.max_worst is not None and worst > args.max_worst:
        print(f"FAILED: host-matched worst {worst:.2f}% > {args.max_worst}%")
        status = 1
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)
    return status


if __name__ == "__main__":
    sys.exit(main())

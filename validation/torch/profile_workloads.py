#!/usr/bin/env python3
"""Profiles PyTorch workloads on the whole GPU and inside green contexts of K SMs.

For each workload and each K (132 = the whole GPU, no green context) it writes
  OUT/<workload>_k<K>.json.gz   a torch.profiler (Kineto) Chrome trace of 3 profiled iterations
                                (ProfilerStep#N markers), what `gpusched import torch` reads
and one row per timed iteration to OUT/iterations.csv (CUDA-event time of 20 iterations after
warm-up). Random weights and inputs, nothing downloaded. With --ncu-iteration it instead runs
one iteration between cudaProfilerStart/Stop, for `ncu --profile-from-start off`.
--record-shapes adds each operator's input shapes and dtypes and, where PyTorch counts them, its
FLOPs (record_shapes=True, with_flops=True) to the traces; PyTorch 2.11 does not export the FLOPs,
so they are written into the cpu_op events' args as "flops" after the export (add_flops).
--profile-steps sets the traced iterations (default 3). A (workload, K) that raises is reported on
stderr and in OUT/failures.txt, and the others still run.
--rounds R runs the whole sweep (every K, every workload) R times in the same process and writes
round r to OUT/round<r>/: the host's own speed moves between recordings of one program (up to 2x on
the validation machine, validation/data/h100/torch_rounds/README.md), and the rounds show that spread.

Workloads: cnn, transformer, gemm, elementwise (the default four, inference) and cnn_train
(a ResNet-18 training step: bf16 autocast, SGD with momentum, forward + backward + optimizer step).

  python3 validation/torch/profile_workloads.py --out DIR [--sms 132,128,96,64,32,16]
                                                [--workloads cnn,transformer,gemm,elementwise]
                                                [--record-shapes] [--profile-steps 3] [--rounds 1]
"""
import argparse
import csv
import gzip
import json
import os
import shutil
import statistics
import sys
import time

import torch

WORKLOADS = ("cnn", "transformer", "gemm", "elementwise")  # the default set
KNOWN = WORKLOADS + ("cnn_train",)


def make_workload(name):
    """Returns a zero-argument function running one iteration (inference without autograd, except
    cnn_train: one training step)."""
    torch.manual_seed(1234)
    dev = "cuda"
    if name == "cnn":
        import torchvision
        model = torchvision.models.resnet18(weights=None).to(dev).eval()
        x = torch.randn(32, 3, 224, 224, device=dev)

        def step():
            with torch.no_grad():
                return model(x)
    elif name == "cnn_train":
        import torchvision
        model = torchvision.models.resnet18(weights=None).to(dev).train()
        x = torch.randn(32, 3, 224, 224, device=dev)
        labels = torch.randint(0, 1000, (32,), device=dev)
        opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
        loss_fn = torch.nn.CrossEntropyLoss()

        def step():
            opt.zero_grad(set_to_none=True)
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = loss_fn(model(x), labels)
            loss.backward()
            opt.step()
            return loss
    elif name == "transformer":
        layer = torch.nn.TransformerEncoderLayer(d_model=1024, nhead=16, dim_feedforward=4096,
                                                 batch_first=True).to(dev).eval()
        x = torch.randn(8, 512, 1024, device=dev)

        def step():
            with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16):
                return layer(x)
    elif name == "gemm":
        # A chain of bf16 GEMMs of several shapes: large ones of many tiles, and 2048 x 2048 ones
        # whose tile count is near the SM count (one wave at 132 SMs, more below).
        shapes = [(8192, 8192, 8192), (2048, 2048, 8192), (4096, 4096, 4096), (2048, 4096, 2048),
                  (1024, 1024, 16384)]
        mats = [(torch.randn(m, k, device=dev, dtype=torch.bfloat16),
                 torch.randn(k, n, device=dev, dtype=torch.bfloat16)) for m, n, k in shapes]

        def step():
            return [a @ b for a, b in mats]
    elif name == "elementwise":
        x = torch.randn(64 * 1024 * 1024, device=dev)
        y = torch.randn(64 * 1024 * 1024, device=dev)
        m = torch.randn(16384, 4096, device=dev)

        def step():
            z = x * 2.0 + y
            z = torch.relu(z)
            s = z.sum()
            w = torch.softmax(m, dim=1)
            n = torch.nn.functional.layer_norm(m, (4096,))
            return s, w.amax(dim=1), n.mean(dim=0), torch.cumsum(x[: 1 << 22], 0)
    else:
        raise SystemExit(f"unknown workload {name!r} (known: {', '.join(KNOWN)})")
    return step


class Partition:
    """A green context of K SMs made current for the `with` body (none for the whole GPU)."""

    def __init__(self, sms, total):
        self.sms, self.total, self.ctx, self.stream_ctx = sms, total, None, None

    def __enter__(self):
        if self.sms < self.total:
            from torch.cuda import green_contexts
            self.ctx = green_contexts.GreenContext.create(num_sms=self.sms, device_id=0)
            self.ctx.set_context()
            if hasattr(self.ctx, "Stream"):  # newer PyTorch: work goes on the context's stream
                self.stream_ctx = torch.cuda.stream(self.ctx.Stream())
                self.stream_ctx.__enter__()
        return self

    def __exit__(self, *exc):
        if self.ctx is not None:
            torch.cuda.synchronize()
            if self.stream_ctx is not None:
                self.stream_ctx.__exit__(None, None, None)
            self.ctx.pop_context()


def timed_iterations(step, n):
    times = []
    for _ in range(n):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        step()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    return times


def add_flops(prof, path):
    """Writes the FLOPs that with_flops counted into the exported trace's cpu_op events as
    args["flops"]: PyTorch computes them (prof.events()) but does not export them. The i-th event
    of a name in the trace (by start time) is the i-th of that name in prof.events(); an event whose
    input shapes differ between the two is left without. Returns (written, counted)."""
    counted = {}
    for e in sorted(prof.events(), key=lambda e: e.time_range.start):
        counted.setdefault(e.name, []).append(e)
    with open(path) as f:
        trace = json.load(f)
    ops = {}
    for ev in sorted((ev for ev in trace["traceEvents"] if ev.get("cat") == "cpu_op"),
                     key=lambda ev: ev.get("ts", 0)):
        ops.setdefault(ev.get("name"), []).append(ev)
    written = total = 0
    for name, events in counted.items():
        in_trace = ops.get(name, [])
        for i, e in enumerate(events):
            if not getattr(e, "flops", 0):
                continue
            total += 1
            if i < len(in_trace):
                args = in_trace[i].setdefault("args", {})
                dims = args.get("Input Dims")
                if dims is None or [list(d) for d in dims] == [list(d) for d in e.input_shapes]:
                    args["flops"] = int(e.flops)
                    written += 1
    with open(path, "w") as f:
        json.dump(trace, f)
    return written, total


def profile(step, path, record_shapes=False, steps=3):
    from torch.profiler import ProfilerActivity, profile as tprofile, schedule

    tmp = path[:-3]

    def ready(prof):
        prof.export_chrome_trace(tmp)
        if record_shapes:
            try:
                written, total = add_flops(prof, tmp)
                print(f"  {os.path.basename(path)}: flops written to {written} of {total} counted "
                      "operators", flush=True)
            except Exception as e:  # keep the trace without FLOPs rather than lose it
                print(f"  {os.path.basename(path)}: no flops written: {type(e).__name__}: {e}",
                      file=sys.stderr, flush=True)

    with tprofile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                  schedule=schedule(wait=1, warmup=1, active=steps), on_trace_ready=ready,
                  record_shapes=record_shapes, with_flops=record_shapes) as prof:
        for _ in range(2 + steps):
            step()
            torch.cuda.synchronize()
            prof.step()
    with open(tmp, "rb") as src, gzip.open(path, "wb", compresslevel=9) as dst:
        shutil.copyfileobj(src, dst)
    os.remove(tmp)


def measure_bandwidth(out, sms_list, total):
    """Device-memory bandwidth a partition of K SMs reaches: a 1 GiB copy (bytes read + written)
    and a 1 GiB sum (bytes read) from DRAM, and the same on a 16 MiB buffer that stays in L2."""
    rows = []
    for sms in sms_list:
        with Partition(sms, total):
            for where, n in (("dram", 1 << 28), ("l2", 1 << 22)):
                x = torch.randn(n, device="cuda")
                y = torch.empty_like(x)
                for op in ("copy", "read"):
                    def run():
                        if op == "copy":
                            y.copy_(x)
                        else:
                            x.sum()
                    reps = 20 if where == "dram" else 200
                    for _ in range(3):
                        run()
                    torch.cuda.synchronize()
                    a = torch.cuda.Event(enable_timing=True)
                    b = torch.cuda.Event(enable_timing=True)
                    a.record()
                    for _ in range(reps):
                        run()
                    b.record()
                    b.synchronize()
                    ms = a.elapsed_time(b) / reps
                    moved = n * 4 * (2 if op == "copy" else 1)
                    gbps = moved / (ms * 1e-3) / 1e9
                    rows.append({"sms": sms, "where": where, "op": op, "bytes": moved,
                                 "ms": f"{ms:.5f}", "gbps": f"{gbps:.1f}"})
                    print(f"K={sms:3d} {where:4s} {op:4s} {gbps:8.1f} GB/s  {gbps / sms:6.1f} GB/s per SM",
                          flush=True)
    with open(os.path.join(out, "bandwidth.csv"), "w", newline="") as f:
        f.write(f"# device={torch.cuda.get_device_name(0)}\n# sm_count={total}\n"
                f"# torch={torch.__version__}\n")
        w = csv.DictWriter(f, fieldnames=["sms", "where", "op", "bytes", "ms", "gbps"])
        w.writeheader()
        w.writerows(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--sms", default="132,128,96,64,32,16")
    ap.add_argument("--workloads", default=",".join(WORKLOADS))
    ap.add_argument("--iterations", type=int, default=20)
    ap.add_argument("--record-shapes", action="store_true",
                    help="record each operator's input shapes/dtypes and FLOPs in the traces "
                         "(torch.profiler record_shapes=True, with_flops=True)")
    ap.add_argument("--profile-steps", type=int, default=3,
                    help="iterations in each trace (ProfilerStep markers), default 3")
    ap.add_argument("--rounds", type=int, default=1,
                    help="run the whole sweep this many times in one process, round r into OUT/round<r>/ "
                         "(default 1: straight into OUT)")
    ap.add_argument("--bandwidth", action="store_true",
                    help="measure copy and read bandwidth from DRAM and L2 in green contexts of each K "
                         "(OUT/bandwidth.csv) and exit")
    ap.add_argument("--ncu-iteration", action="store_true",
                    help="run one iteration between cudaProfilerStart/Stop and exit (in a green context of "
                         "K SMs when --sms is one number K, else on the whole GPU)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    total = torch.cuda.get_device_properties(0).multi_processor_count
    names = [w for w in args.workloads.split(",") if w]
    for name in names:
        if name not in KNOWN:
            raise SystemExit(f"unknown workload {name!r} (known: {', '.join(KNOWN)})")
    if args.bandwidth:
        return measure_bandwidth(args.out, [int(s) for s in args.sms.split(",")], total)
    if args.ncu_iteration:
        # One K from --sms: the iteration runs in a green context of K SMs (the whole GPU when K >= total).
        sms = int(args.sms.split(",")[0]) if "," not in args.sms else total
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
        for name in names:
            with Partition(sms, total):
                step = make_workload(name)
                step(); step()
                torch.cuda.synchronize()
                torch.cuda.profiler.start()
                step()
                torch.cuda.synchronize()
                torch.cuda.profiler.stop()
        return
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True
    if args.rounds < 1:
        raise SystemExit(f"--rounds must be at least 1, got {args.rounds}")
    status = 0
    for r in range(1, args.rounds + 1):
        out = args.out if args.rounds == 1 else os.path.join(args.out, f"round{r}")
        os.makedirs(out, exist_ok=True)
        if args.rounds > 1:
            print(f"round {r} of {args.rounds} -> {out}", flush=True)
        status |= sweep(args, names, total, out)
    return status


def sweep(args, names, total, out):
    """One pass over every K and workload: a trace and the timed iterations of each into OUT."""
    rows = []
    failures = []
    for sms in [int(s) for s in args.sms.split(",")]:
        for name in names:
            t0 = time.time()
            try:
                with Partition(sms, total):
                    step = make_workload(name)
                    for _ in range(3):
                        step()
                    torch.cuda.synchronize()
                    times = timed_iterations(step, args.iterations)
                    profile(step, os.path.join(out, f"{name}_k{sms}.json.gz"),
                            record_shapes=args.record_shapes, steps=args.profile_steps)
            except Exception as e:  # e.g. a library kernel that fails inside a green context
                msg = f"{name} K={sms}: {type(e).__name__}: {e}"
                print("FAILED " + msg, file=sys.stderr, flush=True)
                failures.append(msg)
                continue
            for i, t in enumerate(times):
                rows.append({"workload": name, "sms": sms, "iteration": i, "ms": f"{t:.5f}"})
            print(f"{name:12s} K={sms:3d}  median {statistics.median(times):9.4f} ms  "
                  f"({time.time() - t0:.1f} s)", flush=True)
    with open(os.path.join(out, "iterations.csv"), "w", newline="") as f:
        f.write(f"# device={torch.cuda.get_device_name(0)}\n# sm_count={total}\n"
                f"# torch={torch.__version__}\n# cuda={torch.version.cuda}\n")
        w = csv.DictWriter(f, fieldnames=["workload", "sms", "iteration", "ms"])
        w.writeheader()
        w.writerows(rows)
    if failures:
        with open(os.path.join(out, "failures.txt"), "w") as f:
            f.write("\n".join(failures) + "\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What if a measured PyTorch model ran on fewer SMs, or on an H200? Import a trace, sweep, plot (docs/python.md).

Run from the repository root after the README's set-up:
    PYTHONPATH=build/python python3 examples/whatif_study.py --out whatif.png
"""
import argparse
import os
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 (after the backend is chosen)

import gpusched  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TRACE = os.path.join(HERE, "..", "validation", "data", "h100", "torch", "transformer_k132.json.gz")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trace", default=TRACE, help="PyTorch profiler trace (default: a committed H100 one)")
    parser.add_argument("--out", default="whatif.png", help="the plot (PNG, SVG or PDF by its name)")
    parser.add_argument("--csv", help="also write the results table here")
    args = parser.parse_args()

    model = gpusched.import_torch(args.trace)
    print(f"{len(model.launches)} launches imported from {os.path.basename(args.trace)}")
    with tempfile.TemporaryDirectory() as folder:
        study = {
            "study": "transformer-what-if",
            "workloads": {"model": {"file": model.save(os.path.join(folder, "model.yaml"))}},
            "points": [{"grid": {"gpu": ["h100", "h200"], "sm_count": [132, 96, 64, 32, 16]}}],
        }
        table = gpusched.sweep(study)
    if args.csv:
        table.to_csv(args.csv, index=False)

    figure, axes = plt.subplots(figsize=(6, 4))
    for name, rows in table.groupby("gpu"):
        rows = rows.sort_values("sm_count")
        axes.plot(rows["sm_count"], rows["makespan_ns"] / 1e3, marker="o", label=name)
    axes.set_xlabel("SMs")
    axes.set_ylabel("makespan (us)")
    axes.set_ylim(bottom=0)
    axes.set_title("transformer step: fewer SMs, another GPU")
    axes.legend()
    figure.tight_layout()
    figure.savefig(args.out)
    print(table[["gpu", "sm_count", "makespan_ns"]].to_string(index=False))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

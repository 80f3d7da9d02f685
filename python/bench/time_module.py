"""Times the Python module against the gpusched command (docs/performance.md, "Python module"): import, simulate, sweep.

    PYTHONPATH=build/python python3 python/bench/time_module.py [--gpusched build/apps/gpusched] [--runs 5]
Prints the median wall seconds of each pair and their ratio; nothing is judged.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
KERNEL = "synthetic:blocks=8000000,threads=128,duration=1us~3us,seed=1"
STUDY = os.path.join(HERE, "sweep-1000.yaml")


def wall(command):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def compare(name, module, command, runs):
    a, b = [], []
    for _ in range(runs):
        a.append(wall(module))
        b.append(wall(command))
    ma, mb = statistics.median(a), statistics.median(b)
    print(f"{name:10s} module {ma:8.3f} s   command {mb:8.3f} s   ratio {ma / mb:.3f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpusched", default=os.path.join(HERE, "..", "..", "build", "apps", "gpusched"))
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    py = sys.executable
    compare("import", [py, "-c", "import gpusched"], [py, "-c", "pass"], args.runs)
    compare("simulate", [py, "-c", f"import gpusched; gpusched.simulate(kernel='{KERNEL}')"],
            [args.gpusched, "simulate", "--kernel", KERNEL, "--json"], args.runs)
    compare("sweep", [py, "-c", f"import gpusched; gpusched.sweep('{STUDY}', threads=2)"],
            [args.gpusched, "sweep", STUDY, "-j", "2", "--quiet"], args.runs)


if __name__ == "__main__":
    main()

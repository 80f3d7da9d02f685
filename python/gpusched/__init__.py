"""gpusched from Python: GPU thread-block scheduling simulations, occupancy and what-if sweeps.

    import gpusched
    h100 = gpusched.gpu("h100")                     # gpusched.gpus() lists the presets
    r = gpusched.simulate(gpu=h100.with_(sm_count=64), kernel=gpusched.kernel("apsp-minplus", n=1000, block=16))
    r.summary            # the dict of `gpusched simulate --json`
    r.kernels            # one row per launch (pandas DataFrame)
    print(r.explain())   # the text of --explain
    r.gantt()            # the per-SM Gantt chart, shown inline in a notebook
    gpusched.occupancy(h100, threads=256, regs=32)
    gpusched.sweep({"study": "s", "workloads": {"k": "apsp-minplus:n=500"},
                    "points": [{"grid": {"sm_count": [32, 64, 132]}}]})

Bad input raises gpusched.InputError (a ValueError) with the command line's message.
Documentation: docs/python.md.
"""
from ._core import InputError, version as __version__
from ._simulate import DEFAULT_KERNEL, Gantt, Result, occupancy, simulate
from ._sweep import run_points, sweep
from ._values import GPU, Kernel, Workload, gpu, gpus, import_torch, kernel, workload

InputError.__doc__ = """Bad input (a preset, key, value, file, spec or study): a ValueError with
the command line's message, which names keys (not flags), files and lines."""
InputError.__module__ = "gpusched"

__all__ = ["InputError", "GPU", "Kernel", "Workload", "Result", "Gantt", "DEFAULT_KERNEL", "gpu", "gpus", "kernel",
           "workload", "import_torch", "simulate", "occupancy", "sweep", "run_points"]

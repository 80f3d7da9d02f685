"""gpusched.simulate and gpusched.occupancy: one run as `gpusched simulate` makes it, and its views."""
import html
import json

from . import _core
from ._tables import from_columns, from_records
from ._values import GPU, Workload, gpu as make_gpu

#: What simulate runs when given no kernel or workload (as `gpusched simulate` does).
DEFAULT_KERNEL = "apsp-minplus:n=1000,block=16,regs=32"


class Gantt:
    """The per-SM Gantt chart of a run (what `gpusched simulate --gantt FILE.svg` writes).

    .svg is the SVG text; a notebook shows it inline (_repr_html_, _repr_svg_); .save(path) writes it."""

    def __init__(self, svg):
        self.svg = svg

    def _repr_html_(self):
        return self.svg[self.svg.find("<svg"):]  # inline in HTML: the element without its XML declaration

    def _repr_svg_(self):
        return self.svg

    def save(self, path):
        """Writes the SVG to `path`."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.svg)
        return path


class Result:
    """What gpusched.simulate returns.

    summary   dict: exactly the keys and values of `gpusched simulate --json`
    kernels   one row per launch (summary["kernels"]) as a DataFrame
    blocks    with simulate(blocks=True): one row per block (kernel, launch, block, sm,
              dispatch_ns, start_ns, end_ns, in completion order, as --timeline writes them)
    makespan_ns, str(result): the text summary; explain(); gantt()
    """

    def __init__(self, ask, raw):
        self._ask = ask
        self._raw = raw
        self.summary = json.loads(raw["summary_json"])

    @property
    def makespan_ns(self):
        """End of the last block, nanoseconds."""
        return self.summary["makespan_ns"]

    @property
    def kernels(self):
        """One row per launch: launch, name, stream, blocks, threads_per_block, blocks_per_sm, waves,
        ready_ns, start_ns, end_ns, binds (and terms_ns under shared)."""
        return from_records(self.summary["kernels"])

    @property
    def blocks(self):
        """One row per block, in completion order; needs simulate(..., blocks=True)."""
        if "blocks" not in self._raw:
            raise ValueError("this result kept no blocks: run gpusched.simulate(..., blocks=True)")
        import numpy
        raw = self._raw["blocks"]
        ints = {name: numpy.frombuffer(raw[name], dtype=numpy.int64) for name in raw}
        names = numpy.array(self._raw["launch_names"], dtype=object)
        columns = {"kernel": names[ints["launch"]] if len(names) else numpy.array([], dtype=object)}
        for name in ("launch", "block", "sm"):
            columns[name] = ints[name]
        for name in ("dispatch", "start", "end"):
            columns[name + "_ns"] = ints[name + "_ps"] / 1000.0
        return from_columns(columns)

    def _rerun(self, **more):
        return _core.simulate(**{**self._ask, **more})

    def explain(self):
        """The run explained in words: occupancy and its limit, waves, tail, what bound each launch and
        where the SM-time went; the text `gpusched simulate --explain` prints after the summary."""
        if not self._raw["explanation"]:
            self._raw["explanation"] = self._rerun(explain=True)["explanation"]
        return self._raw["explanation"]

    def gantt(self, colour="kernel"):
        """The per-SM Gantt chart (colour: "kernel" or "stream"), displayed inline by a notebook."""
        return Gantt(self._rerun(gantt="svg", gantt_colour=colour)["gantt"])

    def __str__(self):
        return self._raw["summary_text"]

    def _repr_html_(self):
        return "<pre>" + html.escape(self._raw["summary_text"]) + "</pre>"

    def __repr__(self):
        s = self.summary
        return (f"<gpusched.Result {s['application']} on {s['gpu']}: makespan {s['makespan_ns']} ns, "
                f"{s['total_blocks']} blocks>")


def _gpu_ask(gpu):
    value = gpu if isinstance(gpu, GPU) else make_gpu(gpu)
    return value.base, list(value.keys)


def simulate(gpu="h100", kernel=None, kernels=None, workload=None, replay=None, policy=None, execution=None,
             blocks=False, explain=False, calibrations=(), threads=None, regs=0, smem=0, walk_start=None):
    """Simulate one application on one GPU, as `gpusched simulate` does.

    gpu        a preset name, a GPU file or a gpusched.gpu(...) value (default h100)
    kernel     one kernel: a one-line spec or gpusched.kernel(...); or
    kernels    several, launched in order; or
    workload   a workload file's path or a Workload (gpusched.workload, gpusched.import_torch); or
    replay     a timeline CSV whose block durations to replay, with threads= (and regs=, smem=)
               of its blocks; none of them: the built-in default, DEFAULT_KERNEL
    policy     dispatch policy (gpusched list policies); default the GPU's defaults.policy
    execution  auto, fixed or shared; default the GPU's defaults.execution
    blocks     keep every block for result.blocks
    explain    also put the time account in summary["time_account"] (as --explain --json)
    calibrations  calibration files whose keys become defaults of the kernel specs
    walk_start "ROW[:LEAD]": where policy "walk" starts the GPU's dispatch walk

    Raises gpusched.InputError (a ValueError) with the command line's message for bad input.

    >>> r = gpusched.simulate(gpu="h100", kernel="synthetic:blocks=265,threads=1024,duration=50us")
    >>> r.summary["makespan_ns"], r.kernels
    """
    given = sum(x is not None for x in (kernel, kernels, workload, replay))
    if given > 1:
        raise _core.InputError("kernel, kernels, workload and replay are alternatives: give one of them")
    if replay is None and (threads is not None or regs or smem):
        raise _core.InputError("threads, regs and smem describe the blocks of replay; they need replay")
    specs = [str(kernel)] if kernel is not None else [str(k) for k in kernels] if kernels is not None else []
    if kernels is not None and not specs:
        raise _core.InputError("kernels: expected at least one kernel spec")
    yaml, source = "", ""
    if workload is not None:
        w = workload if isinstance(workload, Workload) else Workload(str(workload))
        yaml, source = w.yaml, w.source
    elif not specs and replay is None:
        specs = [DEFAULT_KERNEL]
    base, keys = _gpu_ask(gpu)
    ask = dict(gpu=base, keys=keys, kernels=specs, workload_yaml=yaml, workload_source=source,
               calibrations=[str(c) for c in calibrations], replay=str(replay or ""), replay_threads=int(threads or 0),
               replay_regs=int(regs), replay_smem=int(smem), policy=policy, walk_start=walk_start,
               execution=execution, blocks=bool(blocks), explain=bool(explain), gantt="", gantt_colour="kernel")
    return Result(ask, _core.simulate(**ask))


def occupancy(gpu="h100", threads=0, regs=0, smem=0, static_smem=0, barriers=1, carveout="default", cluster=None,
              cluster_nonportable=False):
    """Blocks per SM, warps, occupancy and limiting factors of one kernel shape: the object
    `gpusched occupancy --json` prints (gpu: a name or a gpusched.gpu value; cluster: N, XxY or XxYxZ).

    >>> gpusched.occupancy("h100", threads=256, regs=32)["blocks_per_sm"]
    8
    """
    base, keys = _gpu_ask(gpu)
    return json.loads(_core.occupancy_json(base, keys, int(threads), int(regs), int(smem), int(static_smem),
                                           int(barriers), str(carveout), str(cluster or ""),
                                           bool(cluster_nonportable)))


__all__ = ["Gantt", "Result", "simulate", "occupancy", "DEFAULT_KERNEL"]

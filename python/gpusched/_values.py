"""GPU, kernel and workload values of gpusched: what a simulation runs, checked when made."""
import json
import os

from . import _core
from ._tables import from_records


def _text(value):
    """A key's value as a GPU file or kernel spec writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _keys(keys):
    """Keyword arguments as (key, text) pairs; `sms` is sm_count."""
    return [("sm_count" if k == "sms" else k, _text(v)) for k, v in keys.items()]


class GPU:
    """A GPU: a preset (gpusched.gpus()) or a GPU YAML file, with any keys of docs/gpu-spec.md set.

    Made by gpusched.gpu(); immutable. Attributes: name (e.g. "h100 (sm_count=64)"), full_name,
    compute_capability, sm_count, keys (the (key, value) pairs set, in order).

    >>> gpusched.gpu("h100").with_(sm_count=64).sm_count
    64
    >>> gpusched.gpu("h100").with_(**{"memory.dram_bandwidth_gbps": 1500})
    """

    def __init__(self, base, keys=()):
        self.base = base
        self.keys = tuple(keys)
        info = json.loads(_core.gpu_info(base, list(self.keys)))
        self.name = info["name"]
        self.full_name = info["full_name"]
        self.compute_capability = info["compute_capability"]
        self.sm_count = info["sm_count"]
        self._yaml = info["yaml"]

    def with_(self, **keys):
        """This GPU with keys set: bare keys (sm_count, max_blocks_per_sm, clock_mhz), SECTION.KEY
        paths (memory.dram_bandwidth_gbps) or sms=K; a key set before takes the new value."""
        new = _keys(keys)
        names = {k for k, _ in new}
        return GPU(self.base, [kv for kv in self.keys if kv[0] not in names] + new)

    def yaml(self):
        """The GPU as a GPU YAML file (what `gpusched show gpu` prints for a preset)."""
        return self._yaml

    def __eq__(self, other):
        return isinstance(other, GPU) and (self.base, self.keys) == (other.base, other.keys)

    def __hash__(self):
        return hash((self.base, self.keys))

    def __repr__(self):
        return f"<gpusched.GPU {self.name}: {self.full_name}, cc {self.compute_capability}, {self.sm_count} SMs>"


def gpu(name="h100", **keys):
    """A GPU value: preset name (any case) or GPU YAML file, with keys set (sms=K or any GPU key).

    >>> gpusched.gpu("h100", sms=64)
    <gpusched.GPU h100 (sm_count=64): NVIDIA H100 SXM5 80GB, cc 9.0, 64 SMs>
    """
    return GPU(os.fspath(name)).with_(**keys) if keys else GPU(os.fspath(name))


def gpus():
    """The GPU preset names, oldest architecture first (gpusched list gpus)."""
    return list(_core.preset_names())


class Kernel:
    """A kernel launch as a one-line spec NAME:key=value,... (docs/workloads.md); str() is the spec."""

    def __init__(self, spec):
        self.spec = spec

    def with_(self, **keys):
        """This kernel with keys set (or replaced)."""
        return Kernel(_core.kernel_spec(self.spec, _keys(keys)))

    def __str__(self):
        return self.spec

    def __eq__(self, other):
        return isinstance(other, Kernel) and self.spec == other.spec

    def __hash__(self):
        return hash(self.spec)

    def __repr__(self):
        return f"<gpusched.Kernel {self.spec}>"


def kernel(spec, **keys):
    """A kernel: a generator name with keys, or a whole one-line spec.

    >>> gpusched.kernel("apsp-minplus", n=1000, block=16)
    <gpusched.Kernel apsp-minplus:n=1000,block=16>
    >>> gpusched.kernel("apsp-minplus:n=1000,block=16")
    """
    return Kernel(_core.kernel_spec(str(spec), _keys(keys)))


class Workload:
    """A workload: a workload YAML file, or the text of one (an import). Attributes: yaml (its text),
    source (its file or trace); .launches is one row per launch (a DataFrame)."""

    def __init__(self, source, yaml=""):
        self.source = source
        self.yaml = yaml
        self._launches = _core.workload_launches(yaml, source)

    @property
    def launches(self):
        """One row per launch: launch, name, family, stream, blocks, threads_per_block,
        registers_per_thread, shared_bytes, work_from (a DataFrame, or a record array without pandas)."""
        columns = ["launch", "name", "family", "stream", "blocks", "threads_per_block", "registers_per_thread",
                   "shared_bytes", "work_from"]
        return from_records(self._launches, columns)

    def save(self, path):
        """Writes the workload YAML to `path` (for `gpusched simulate --workload` or a study's {file: ...})."""
        text = self.yaml
        if not text:
            with open(self.source, encoding="utf-8") as f:
                text = f.read()
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def __repr__(self):
        return f"<gpusched.Workload {self.source}: {len(self._launches)} launches>"


def workload(path):
    """A workload YAML file (docs/workloads.md), checked as `gpusched simulate --workload` reads it."""
    return Workload(os.fspath(path))


def import_torch(trace, gpu=None):
    """A PyTorch profiler (Kineto) trace, gzip or plain JSON, as a workload (`gpusched import torch`,
    docs/importing.md). gpu: the preset it was measured on when the trace's device matches none.

    >>> w = gpusched.import_torch("validation/data/h100/torch/transformer_k132.json.gz")
    >>> w.launches.head()
    """
    path = os.fspath(trace)
    return Workload(path, _core.import_torch(path, gpu or "", "torch"))

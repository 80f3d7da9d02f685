#!/usr/bin/env python3
"""Writes a workload of N iterations of one imported step (issue 33: a long job from a committed trace).

    python3 bench/repeat_step.py STEP.yaml N OUT.yaml

STEP.yaml is what `gpusched import torch TRACE --steps S --out STEP.yaml` writes: `launches:` items, then
`host:` threads whose calls name items by index (`launch: I`). OUT.yaml has the items N times in a row and
each thread's calls N times, iteration k's `launch: I` naming item I + k x (items of one step); the first call
of each later iteration keeps its recorded gap. Notes and description are kept; nothing else is changed.
Standard library only (the file is the importer's own layout: top-level keys at column 0, items at "  - ").
"""
import re
import sys


def sections(lines):
    """The file's top-level sections: name -> its lines (the key line included), in order."""
    out, name = {}, None
    for line in lines:
        if line and not line[0].isspace() and not line.startswith("#") and ":" in line:
            name = line.split(":", 1)[0]
            out[name] = []
        if name is None:
            raise SystemExit(f"repeat_step.py: a line before the first top-level key: {line!r}")
        out[name].append(line)
    return out


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__.strip().splitlines()[2].strip())
    source, count, target = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if count < 1:
        raise SystemExit("repeat_step.py: N must be at least 1")
    with open(source, encoding="utf-8") as f:
        parts = sections(f.read().splitlines())
    if "launches" not in parts or "host" not in parts:
        raise SystemExit(f"repeat_step.py: {source}: expected `launches:` and `host:` (a `gpusched import torch` workload)")
    items = parts["launches"][1:]
    per_step = sum(1 for line in items if line.startswith("  - "))
    launch = re.compile(r"launch: (\d+)")
    out = []
    for name, body in parts.items():
        if name == "launches":
            out.append(body[0])
            for _ in range(count):
                out.extend(items)
        elif name == "host":
            out.append(body[0])
            threads, current = [], None
            for line in body[1:]:
                if line.startswith("  - "):
                    current = {"head": [line], "calls": []}
                    threads.append(current)
                elif line.startswith("      - "):
                    current["calls"].append(line)
                else:
                    current["head"].append(line)
            for thread in threads:
                out.extend(thread["head"])
                for k in range(count):
                    shift = k * per_step
                    out.extend(launch.sub(lambda m: f"launch: {int(m.group(1)) + shift}", call) for call in thread["calls"])
        else:
            out.extend(body)
    with open(target, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()

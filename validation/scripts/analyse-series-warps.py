#!/usr/bin/env python3
"""Reads gpusched-runner series-warps output: how warps spread over SMs and sub-partitions, in
which order they finish, and how a mean-value-analysis (MVA) queueing curve compares with the
measured latency-to-throughput knee; with a knee/ folder (2026-11-27), the knee warp by warp and
the runs in green contexts (k16/, k32/, k64/, k96/).

    python3 validation/scripts/analyse-series-warps.py validation/data/h100/series_warps \
        [validation/data/h100/curves/binomial.csv]
"""
import collections
import csv
import glob
import gzip
import os
import statistics
import sys

import series_knee


def rows_of(path):
    if not os.path.exists(path) and os.path.exists(path + '.gz'):
        path += '.gz'
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt') as f:
        return list(csv.DictReader(line for line in f if not line.startswith('#')))


def placement_table(directory):
    print('config      warps/SM (run)  blocks/SM (run)  max warps/sub-partition  span us  warp cycles median / max')
    files = glob.glob(os.path.join(directory, 'warps_b*_t*.csv'))
    key = lambda p: (int(p.rsplit('_t', 1)[1][:-4]), int(p.rsplit('_b', 1)[1].split('_')[0]))
    for path in sorted(files, key=key):
        threads, blocks = key(path)
        per_sm, per_part, blocks_on = collections.Counter(), collections.Counter(), collections.defaultdict(set)
        span, cycles = 0, []
        for r in rows_of(path):
            sm = int(r['sm'])
            per_sm[sm] += 1
            per_part[(sm, int(r['warp_slot']) % 4)] += 1
            blocks_on[sm].add(r['block'])
            span = max(span, int(r['end_ns']))
            cycles.append(int(r['cycles']))
        print(f"{blocks:5d} x {threads:4d}    {min(per_sm.values()):3d}-{max(per_sm.values()):<3d}   "
              f"{min(map(len, blocks_on.values())):3d}-{max(map(len, blocks_on.values())):<3d}     "
              f"{max(per_part.values()):3d}                    {span / 1000:7.1f}  "
              f"{statistics.median(cycles):8.0f} / {max(cycles)}")


def finish_order(directory, blocks, threads):
    """Median end time of the warps in each group of four warp slots (one per sub-partition)."""
    ends = collections.defaultdict(list)
    for r in rows_of(os.path.join(directory, f'warps_b{blocks}_t{threads}.csv')):
        ends[int(r['warp_slot']) // 4].append(int(r['end_ns']))
    groups = ' '.join(f'{statistics.median(ends[g]) / 1000:.1f}' for g in sorted(ends))
    print(f'{blocks} x {threads}: median end (us) of warp slots 0-3, 4-7, ...: {groups}')


def mva_throughput(customers, think, service):
    """Exact MVA of a closed network: `customers` warps, each alternating a delay `think` and one
    queueing server of mean `service` (the sub-partition's issue port). Returns throughput."""
    queue, x = 0.0, 0.0
    for k in range(1, customers + 1):
        response = service * (1 + queue)
        x = k / (think + response)
        queue = x * response
    return x


def knee_check(directory, binomial_csv):
    """One block per SM (132 blocks) at 1..8 warps per sub-partition: measured kernel time vs the
    sharp model max(lone, k x s) and MVA, both anchored at k = 1 (lone warp) and k = 8."""
    spans = {}
    for r in rows_of(os.path.join(directory, 'runs.csv')):
        spans[(int(r['blocks']), int(r['threads']))] = float(r['plain_median_ms']) * 1000
    lone_run, full_run = spans[(528, 32)], spans[(132, 1024)]
    # In-kernel spans of the same two runs give the launch overhead inside the event times.
    span_of = {}
    for b, t in ((528, 32), (132, 1024)):
        span_of[(b, t)] = max(int(r['end_ns']) for r in rows_of(os.path.join(directory, f'warps_b{b}_t{t}.csv'))) / 1000
    overhead = statistics.mean([lone_run - span_of[(528, 32)], full_run - span_of[(132, 1024)]])
    lone, full = lone_run - overhead, full_run - overhead
    service = full / 8
    think = lone - service
    measured = {int(r['threads']): float(r['median_ms']) * 1000 - overhead
                for r in rows_of(binomial_csv) if int(r['blocks']) == 132}
    print(f'launch overhead {overhead:.1f} us; lone warp {lone:.1f} us; s = {service:.2f} us, Z = {think:.2f} us')
    print('warps per sub-partition  measured us  sharp model (err %)  MVA (err %)')
    for k, threads in ((2, 256), (4, 512)):
        sharp = max(lone, k * service)
        mva = k / mva_throughput(k, think, service)
        m = measured[threads]
        print(f'{k:24d}  {m:10.1f}  {sharp:8.1f} ({100 * (sharp / m - 1):+5.1f})  {mva:8.1f} ({100 * (mva / m - 1):+5.1f})')


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    directory = sys.argv[1]
    placement_table(directory)
    print()
    for blocks, threads in ((4224, 32), (528, 256), (264, 512), (132, 1024)):
        finish_order(directory, blocks, threads)
    if len(sys.argv) == 3:
        print()
        knee_check(directory, sys.argv[2])
    if os.path.isdir(os.path.join(directory, 'knee')):
        print()
        series_knee.report(directory, rows_of)


if __name__ == '__main__':
    main()

"""The series kernel's knee warp by warp (series_warps/knee/) and in green contexts (series_warps/kK/):
tables for docs/validation.md "The knee warp by warp". Used by analyse-series-warps.py."""
import collections
import os
import statistics

TERMS = 999          # loop iterations each warp's clock64 interval covers
CLOCK_GHZ = 1.98     # the SM clock of the runs (knee/nvidia-smi.csv)
SASS_ISSUE = 15.25   # warp-instructions per term (curves/binomial_work.txt)


def runs_of(directory, rows_of):
    return {(int(r['blocks']), int(r['threads'])): r for r in rows_of(os.path.join(directory, 'runs.csv'))}


def warps_of(directory, blocks, threads, rows_of):
    return [{k: int(v) for k, v in r.items()} for r in rows_of(os.path.join(directory, f'warps_b{blocks}_t{threads}.csv'))]


def slowest_cycles(warps):
    """Median over SMs of the SM's slowest warp, clock64 cycles per term."""
    by_sm = collections.defaultdict(list)
    for w in warps:
        by_sm[w['sm']].append(w['cycles'])
    return statistics.median(max(c) for c in by_sm.values()) / TERMS


def by_age(warps):
    """Cycles per term by age rank on a scheduler (block order), median over the schedulers that hold the most warps."""
    groups = collections.defaultdict(list)
    for w in warps:
        groups[(w['sm'], w['warp_slot'] % 4)].append(w)
    most = max(len(g) for g in groups.values())
    ranks = [[] for _ in range(most)]
    for g in groups.values():
        if len(g) == most:
            for i, w in enumerate(sorted(g, key=lambda w: (w['block'], w['warp']))):
                ranks[i].append(w['cycles'] / TERMS)
    return [statistics.median(r) for r in ranks]


def mva_cycles(warps, think, service):
    """Cycles per term of each of `warps` warps sharing one scheduler (exact MVA: think + response)."""
    queue, x = 0.0, 0.0
    for k in range(1, warps + 1):
        response = service * (1 + queue)
        x = k / (think + response)
        queue = x * response
    return warps / x


def knee_table(knee, rows_of):
    runs = runs_of(knee, rows_of)
    print('warps per scheduler: one block per SM (132 x 128w threads) | one-warp blocks (528w x 32 threads)')
    print(' w | plain us  instr us  span us  slowest cyc/term | plain us  instr us  span us  slowest  fastest')
    single, lone = {}, None
    for w in range(1, 9):
        out = []
        for blocks, threads in ((132, 128 * w), (528 * w, 32)):
            r = runs[(blocks, threads)]
            warps = warps_of(knee, blocks, threads, rows_of)
            span = max(x['end_ns'] for x in warps) / 1000
            slow = slowest_cycles(warps)
            out.append((float(r['plain_median_ms']) * 1000, float(r['instr_median_ms']) * 1000, span, slow,
                        min(by_age(warps))))
            if threads == 128 * w:
                single[w] = slow
        a, b = out
        print(f'{w:2d} | {a[0]:8.1f}  {a[1]:8.1f}  {a[2]:7.1f}  {a[3]:16.1f} | {b[0]:8.1f}  {b[1]:8.1f}  {b[2]:7.1f}  '
              f'{b[3]:7.1f}  {b[4]:7.1f}')
    lone = single[1]
    print()
    print('One block per SM against one closed queue per scheduler (exact MVA, think = lone - s):')
    saturated = single[8] / 8
    print(f'  s = {saturated:.2f} cycles per term (8 warps: {single[8]:.1f} / 8) or {SASS_ISSUE} (SASS count)')
    for w in range(1, 9):
        fit = mva_cycles(w, lone - saturated, saturated)
        sass = mva_cycles(w, lone - SASS_ISSUE, SASS_ISSUE)
        print(f'  w = {w}: measured {single[w]:6.1f}  MVA s={saturated:.2f} {fit:6.1f} ({100 * (fit / single[w] - 1):+5.1f}%)'
              f'  MVA s={SASS_ISSUE} {sass:6.1f} ({100 * (sass / single[w] - 1):+5.1f}%)')


def age_table(knee, rows_of):
    print('Cycles per term by age on one scheduler (oldest first), one-warp blocks and 2- / 4-warp-per-scheduler blocks:')
    for blocks, threads in [(528 * w, 32) for w in range(2, 9)] + [(264, 256), (528, 256), (264, 512), (132, 1024)]:
        ranks = by_age(warps_of(knee, blocks, threads, rows_of))
        print(f'  {blocks:5d} x {threads:4d}: ' + ' '.join(f'{c:6.1f}' for c in ranks))


def green_table(directory, rows_of):
    print('Green contexts: busiest scheduler over the whole run (cycles per warp-term = span x clock / (its warps x terms))')
    for k in (16, 32, 64, 96):
        d = os.path.join(directory, f'k{k}')
        if not os.path.isdir(d):
            continue
        for (blocks, threads), r in sorted(runs_of(d, rows_of).items(), key=lambda i: (i[0][1], i[0][0])):
            warps = warps_of(d, blocks, threads, rows_of)
            per_sched = collections.Counter((w['sm'], w['warp_slot'] % 4) for w in warps)
            per_sm = collections.defaultdict(set)
            for w in warps:
                per_sm[w['sm']].add(w['block'])
            busiest = max(per_sched.values())
            span = max(w['end_ns'] for w in warps) / 1000
            print(f'  K={k:3d} {blocks:5d} x {threads:4d}: plain {float(r["plain_median_ms"]) * 1000:7.1f} us, span {span:7.1f} us, '
                  f'{len(per_sm)} SMs, <= {max(map(len, per_sm.values()))} blocks per SM, busiest scheduler {busiest} warps: '
                  f'{span * 1000 * CLOCK_GHZ / (busiest * TERMS):5.1f} cycles per warp-term')


def report(directory, rows_of):
    knee = os.path.join(directory, 'knee')
    knee_table(knee, rows_of)
    print()
    age_table(knee, rows_of)
    print()
    green_table(directory, rows_of)

#!/usr/bin/env bash
# Time and peak memory of `gpusched import torch` on a generated ~100 MB Kineto trace (issue 19: < 10 s, < 1 GB).
#   bench/bench_import.sh [GPUSCHED [MB]]   (default build-bench/apps/gpusched, 100; needs python3 and GNU time)
# The trace is a realistic mix per kernel: a cpu_op, a python_function, the cudaLaunchKernel, a flow event
# and the kernel, on 4 streams, with a ProfilerStep#N every 1000 kernels; written once as JSON and once
# gzip-compressed. Each row: file size, kernels, peak RSS, wall and user CPU time. Results: docs/performance.md.
set -euo pipefail
g=${1:-build-bench/apps/gpusched}
mb=${2:-100}
[ -x /usr/bin/time ] || { echo "bench_import.sh: needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 - "$tmp/trace.json" "$mb" <<'PY'
import sys
path, mb = sys.argv[1], int(sys.argv[2])
names = ["void gemm_kernel<128, 64>(float const*, float*, int)",
         "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)",
         "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4>)",
         "ampere_sgemm_128x64_tn"]
with open(path, "w") as f:
    f.write('{"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 84929347584, '
            '"computeMajor": 9, "computeMinor": 0, "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048, '
            '"regsPerBlock": 65536, "regsPerMultiprocessor": 65536, "warpSize": 32, "sharedMemPerBlock": 49152, '
            '"sharedMemPerMultiprocessor": 233472, "numSms": 132, "sharedMemPerBlockOptin": 232448}],\n"traceEvents": [\n')
    host, gpu = [1000.0], [0.0] * 4
    i, size, first = 0, 0, True
    while size < mb * 1000000:
        if i % 1000 == 0:
            f.write('%s{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d", "pid": 1, "tid": 1, "ts": %.3f, "dur": %.3f, "args": {"External id": %d}}'
                    % ("" if first else ",\n", i // 1000, host[0], 1000 * 9.0, i))
            first = False
        s, name = i % 4, names[i % 4]
        t = host[0]
        dur = 5.0 + (i * 7919 % 100) / 10.0
        start = max(gpu[s], t + 4.0)
        gpu[s] = start + dur
        ev = (',\n{"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": %.3f, "dur": 8.000, "args": {"External id": %d, "Sequence number": %d, "Input Dims": [[1024, 1024], [1024, 1024], []], "Input type": ["float", "float", "Scalar"]}}'
              ',\n{"ph": "X", "cat": "python_function", "name": "torch/nn/modules/linear.py(125): forward", "pid": 1, "tid": 1, "ts": %.3f, "dur": 9.000, "args": {"Python parent id": %d, "Python id": %d}}'
              ',\n{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": %.3f, "dur": 3.500, "args": {"cbid": 211, "correlation": %d, "External id": %d}}'
              ',\n{"ph": "f", "id": %d, "pid": 0, "tid": %d, "ts": %.3f, "cat": "ac2g", "name": "ac2g", "bp": "e"}'
              ',\n{"ph": "X", "cat": "kernel", "name": "%s", "pid": 0, "tid": %d, "ts": %.3f, "dur": %.3f, "args": {"External id": %d, "queued": 0, "device": 0, "context": 1, "stream": %d, "correlation": %d, "registers per thread": 64, "shared memory": 16384, "blocks per SM": 1.939394, "warps per SM": 15.515152, "grid": [256, 1, 1], "block": [256, 1, 1], "est. achieved occupancy %%": 24}}'
              % (t - 0.5, i, i, t - 1.0, i, i + 1, t, i + 1, i, i + 1, 7 + s, start, name, 7 + s, start, dur, i, 7 + s, i + 1))
        f.write(ev)
        size += len(ev)
        host[0] = t + 9.0
        i += 1
    f.write('\n], "traceName": "bench"}\n')
print(i, file=open(path + ".kernels", "w"))
PY
gzip -1 -c "$tmp/trace.json" > "$tmp/trace.json.gz"
kernels=$(cat "$tmp/trace.json.kernels")
printf '%-24s %10s %9s %10s %8s %8s\n' input file_MB kernels peak_MB wall_s user_s
for f in trace.json trace.json.gz; do
  /usr/bin/time -f '%M %e %U' -o "$tmp/time" "$g" import torch "$tmp/$f" --out "$tmp/out.yaml" --timeline "$tmp/out.csv" > /dev/null
  read -r kb s u < "$tmp/time"
  awk -v f="$f" -v bytes="$(stat -c %s "$tmp/$f")" -v k="$kernels" -v kb="$kb" -v s="$s" -v u="$u" \
    'BEGIN { printf "%-24s %10.1f %9d %10.1f %8.2f %8.2f\n", f, bytes / 1e6, k, kb / 1024, s, u }'
done

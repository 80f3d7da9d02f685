# Command-line tests: exit codes (0 ok, 2 bad input) and the messages users see.
set(GPUSCHED_CLI_DATA ${CMAKE_CURRENT_SOURCE_DIR}/cli/data)

# gpusched_cli_test(NAME CODE STREAM REGEX ARG...)
function(gpusched_cli_test name code stream regex)
  add_test(NAME cli.${name}
           COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gpusched> "-DARGS=${ARGN}" -DEXPECT_CODE=${code}
                   -DSTREAM=${stream} "-DEXPECT_REGEX=${regex}" -DWORKDIR=${GPUSCHED_CLI_DATA}
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_cli.cmake)
endfunction()

# --- help and success paths ---
gpusched_cli_test(help 0 stdout "occupancy" --help)
gpusched_cli_test(occupancy_help 0 stdout "--carveout" occupancy --help)
gpusched_cli_test(list_gpus 0 stdout "h100.*132" list gpus)
gpusched_cli_test(show_gpu 0 stdout "sm_count: 132" show gpu h100)
# The roofline: list gpus' FP32 and tensor peaks and ruled-key counts; show gpu's peaks in comments; --set of a tensor dtype.
gpusched_cli_test(list_gpus_roofline 0 stdout "h100 .* 66.9  1070.5 bf16 +3\n.*b200 .*NVIDIA B200 .* 2250.2 bf16 +33" list gpus)
gpusched_cli_test(show_gpu_roofline 0 stdout "tensor_flops_per_sm_cycle:\n    fp64: 256.*# Roofline .*bf16 1070.5.*ridge point bf16 / DRAM 357" show gpu h100)
gpusched_cli_test(set_tensor_rate 0 stdout "h100 \\(execution.tensor_flops_per_sm_cycle.bf16=8192\\)"
                  occupancy --gpu h100 --threads 256 --set execution.tensor_flops_per_sm_cycle.bf16=8192)
gpusched_cli_test(set_tensor_rate_negative 2 stderr
                  "--set execution.tensor_flops_per_sm_cycle.bf16=-1: key 'execution.tensor_flops_per_sm_cycle.bf16': expected a number"
                  occupancy --gpu h100 --threads 256 --set execution.tensor_flops_per_sm_cycle.bf16=-1)
gpusched_cli_test(set_tensor_rate_unknown_dtype 2 stderr
                  "--set execution.tensor_flops_per_sm_cycle.fp4=1: unknown key 'execution.tensor_flops_per_sm_cycle.fp4' \\(known keys here: bf16"
                  occupancy --gpu h100 --threads 256 --set execution.tensor_flops_per_sm_cycle.fp4=1)
gpusched_cli_test(set_tensor_power_negative 2 stderr
                  "--set execution.tensor_power_sms=-1: key 'execution.tensor_power_sms': expected a number in \\[0.001, 1e\\+06\\], got '-1'"
                  occupancy --gpu h100 --threads 256 --set execution.tensor_power_sms=-1)
gpusched_cli_test(set_tensor_power_alone 2 stderr
                  "--set execution.tensor_power_sms=50: key 'execution.tensor_power_sms': tensor_clock_mhz and tensor_power_sms go together"
                  occupancy --gpu a100 --threads 256 --set execution.tensor_power_sms=50)
gpusched_cli_test(show_gpu_file 0 stdout "name: tiny" show gpu ./tiny_gpu.yaml)
gpusched_cli_test(occupancy_text 0 stdout "Blocks per SM  8" occupancy --gpu h100 --threads 256 --regs 32)
gpusched_cli_test(occupancy_json 0 stdout "\"blocks_per_sm\": 8,.*\"limited_by\": \\[[^]]*\"warps\""
                  occupancy --gpu h100 --threads 256 --regs 32 --json)
gpusched_cli_test(occupancy_file_gpu 0 stdout "Blocks per SM  2" occupancy --gpu tiny_gpu.yaml --threads 256)
# Help examples, unknown-flag suggestions, case-insensitive presets, one --exec default, chart units, plot notes:
include(${CMAKE_CURRENT_LIST_DIR}/cli_usability_tests.cmake)

# --- bad input: exit code 2 and a message naming what and where ---
gpusched_cli_test(no_command 2 stderr "subcommand")
gpusched_cli_test(unknown_command 2 stderr "frobnicate" frobnicate)
gpusched_cli_test(unknown_gpu 2 stderr "unknown GPU 'h1000'.*h100" occupancy --gpu h1000 --threads 32)
gpusched_cli_test(missing_threads 2 stderr "--threads" occupancy --gpu h100)
gpusched_cli_test(non_numeric_threads 2 stderr "--threads" occupancy --threads abc)
gpusched_cli_test(huge_threads 2 stderr "--threads" occupancy --threads 99999999999999)
gpusched_cli_test(zero_threads 2 stderr "--threads" occupancy --threads 0)
gpusched_cli_test(too_many_threads 2 stderr "1024 threads per block" occupancy --threads 2048)
gpusched_cli_test(too_many_regs 2 stderr "255 registers per thread" occupancy --threads 32 --regs 300)
gpusched_cli_test(regs_per_block 2 stderr "registers per block" occupancy --threads 1024 --regs 255)
gpusched_cli_test(negative_regs 2 stderr "--regs" occupancy --threads 32 --regs -4)
gpusched_cli_test(too_much_smem 2 stderr "shared memory per block" occupancy --threads 32 --smem 300000)
gpusched_cli_test(absurd_smem 2 stderr "--smem" occupancy --threads 32 --smem 9223372036854775807)
gpusched_cli_test(bad_carveout 2 stderr "--carveout.*percentage" occupancy --threads 32 --carveout lots)
gpusched_cli_test(percent_carveout_old_gpu 2 stderr "7.0" occupancy --gpu c2075 --threads 32 --carveout 50)
gpusched_cli_test(missing_gpu_file 2 stderr "nope.yaml: cannot read GPU spec file: No such file" occupancy --gpu nope.yaml --threads 32)
gpusched_cli_test(empty_gpu_file 2 stderr "empty_gpu.yaml: empty YAML" show gpu ./empty_gpu.yaml)
gpusched_cli_test(malformed_gpu_file 2 stderr "malformed_gpu.yaml:[0-9]+: YAML syntax error" show gpu ./malformed_gpu.yaml)
gpusched_cli_test(out_of_range_gpu_file 2 stderr "bad_range_gpu.yaml:[0-9]+: key 'limits.max_blocks_per_sm'"
                  show gpu ./bad_range_gpu.yaml)
gpusched_cli_test(bad_l2_bandwidth_gpu_file 2 stderr "bad_l2_gpu.yaml:[0-9]+: key 'memory.l2_bandwidth_gbps'.*0.001"
                  show gpu ./bad_l2_gpu.yaml)
gpusched_cli_test(missing_key_gpu_file 2 stderr "missing_key_gpu.yaml:[0-9]+: key 'limits.registers_per_sm': required"
                  show gpu ./missing_key_gpu.yaml)
gpusched_cli_test(binary_gpu_file 2 stderr "binary_gpu.yaml" show gpu ./binary_gpu.yaml)
gpusched_cli_test(show_unknown 2 stderr "h1000" show gpu h1000)

# --- simulate ---
gpusched_cli_test(simulate_default 0 stdout "makespan" simulate)
gpusched_cli_test(simulate_default_says_what 0 stderr "built-in default" simulate)
gpusched_cli_test(simulate_help 0 stdout "--replay" simulate --help)
# 265 blocks of 1024 threads: 2 per SM x 132 = 264 in the first 60us wave; block 264 waits.
# h100 overheads: the launch is ready at 1418 ns; a block starts D = 182 ns after its dispatch on
# an idle SM (1600), the second of its SM a + b w = 5.5 + 32 x 4.26 = 141.82 ns later (1741.82).
# Block 264 takes the slot freed at 1600 + 60000, starts max(61600 + 182, 1741.82 + 141.82) =
# 61782 and ends at 121782 ns. Block 264 takes SM 124, the first in the preset's SM order, so
# SM 0 runs 2 blocks.
gpusched_cli_test(simulate_json 0 stdout "\"makespan_ns\":121782.0,.*\"waves\":2.*\"per_sm_blocks\":\\[2,2,"
                  simulate --kernel synthetic:blocks=265,threads=1024,duration=60us --json)
gpusched_cli_test(simulate_policy 0 stdout "static-rr" simulate --policy static-rr --kernel synthetic:blocks=10,threads=64,duration=1us)
gpusched_cli_test(simulate_workload_file 0 stdout "makespan" simulate --workload ${PROJECT_SOURCE_DIR}/tests/workloads/data/workload_example.yaml)
# One definition of a wave: the background launch's stream may use 5 SMs (8 blocks each = 40 a wave), so
# 1024 blocks are ceil(1024 / 40) = 26 waves in the summary and 25 full + 1 partial in --explain.
gpusched_cli_test(simulate_waves_masked_stream 0 stdout
                  "background +2 +1024 +256 +8 +26 .*25 full waves of 40 blocks \\(its stream may use 5 of the 132 SMs\\), then a partial wave of 24 blocks"
                  simulate --workload ${PROJECT_SOURCE_DIR}/tests/workloads/data/workload_example.yaml --explain)
gpusched_cli_test(list_policies 0 stdout "most-room \\(default\\).*buckets.*sorted.*min" list policies)
gpusched_cli_test(list_workloads 0 stdout "synthetic" list workloads)
gpusched_cli_test(simulate_unknown_policy 2 stderr "--policy: unknown policy 'fifo'.*most-room" simulate --policy fifo)
gpusched_cli_test(simulate_unknown_exec 2 stderr "--exec: unknown execution model 'turbo'.*fixed, shared" simulate --exec turbo)
gpusched_cli_test(simulate_shared_needs_warp_work 2 stderr "per-warp work"
                  simulate --exec shared --kernel synthetic:blocks=4,threads=32,duration=1us)
gpusched_cli_test(simulate_auto_exec_shared 0 stdout "execution  shared" simulate --kernel apsp-minplus:n=100,block=16)
gpusched_cli_test(simulate_auto_exec_fixed 0 stdout "execution  fixed" simulate --kernel synthetic:blocks=4,threads=32,duration=1us)
# ceil(log2(99)) = 7 launches of a 7 x 7 grid (identical: one grouped row unless --all-launches).
gpusched_cli_test(simulate_apsp_launches 0 stdout "     6  apsp-minplus       0      49"
                  simulate --kernel apsp-minplus:n=100,block=16 --all-launches)
gpusched_cli_test(simulate_zero_blocks 2 stderr "blocks" simulate --kernel synthetic:blocks=0,threads=32,duration=1us)
gpusched_cli_test(simulate_negative_blocks 2 stderr "blocks" simulate --kernel synthetic:blocks=-5,threads=32,duration=1us)
gpusched_cli_test(simulate_non_numeric 2 stderr "threads" simulate --kernel synthetic:blocks=5,threads=many,duration=1us)
gpusched_cli_test(simulate_too_many_threads 2 stderr "1024 threads per block" simulate --kernel synthetic:blocks=5,threads=2048,duration=1us)
gpusched_cli_test(simulate_absurd_blocks 2 stderr "blocks" simulate --kernel synthetic:blocks=99999999999999999,threads=32,duration=1us)
gpusched_cli_test(simulate_bad_duration 2 stderr "duration" simulate --kernel synthetic:blocks=5,threads=32,duration=fast)
gpusched_cli_test(simulate_unknown_generator 2 stderr "synthetic" simulate --kernel warp:blocks=5)
gpusched_cli_test(simulate_two_sources 2 stderr "alternatives" simulate --kernel synthetic:blocks=1,threads=32,duration=1us --replay x.csv)
gpusched_cli_test(simulate_replay_no_threads 2 stderr "--threads" simulate --replay ${PROJECT_SOURCE_DIR}/tests/workloads/data/replay_plain.csv)
gpusched_cli_test(simulate_replay_missing 2 stderr "missing.csv" simulate --replay missing.csv --threads 32)
gpusched_cli_test(simulate_replay_end_before_start 2 stderr "replay_end_before_start.csv:[0-9]+"
                  simulate --replay ${PROJECT_SOURCE_DIR}/tests/workloads/data/replay_end_before_start.csv --threads 32)
gpusched_cli_test(simulate_replay_missing_column 2 stderr "replay_missing_column.csv.*column"
                  simulate --replay ${PROJECT_SOURCE_DIR}/tests/workloads/data/replay_missing_column.csv --threads 32)
gpusched_cli_test(simulate_replay_binary 2 stderr "replay_binary.csv"
                  simulate --replay ${PROJECT_SOURCE_DIR}/tests/workloads/data/replay_binary.csv --threads 32)
gpusched_cli_test(simulate_bad_workload 2 stderr "empty_gpu.yaml" simulate --workload empty_gpu.yaml)
gpusched_cli_test(simulate_priority_out_of_range 2 stderr
                  "stream 1: key 'priority': -6 is not a stream priority of GPU h100 \\(streams.priority_range: 0 \\(least\\) down to -5 \\(greatest\\)\\); expected normal, high or an integer from 0 down to -5"
                  simulate --gpu h100 --workload priority_out_of_range.yaml)
gpusched_cli_test(simulate_priority_rule_note 0 stdout "GPU 'k20' uses a rule, not data: streams.priority_range 0 \\(least\\) down to -1"
                  simulate --gpu k20 --notes all --workload priority_levels.yaml)
gpusched_cli_test(simulate_sssp 0 stdout "sssp-update" simulate --exec shared
                  --kernel sssp:graph=${PROJECT_SOURCE_DIR}/tests/workloads/data/sssp/tiny.gr,sources=2,streams=2)
gpusched_cli_test(simulate_sssp_bad_graph 2 stderr "truncated.gr:3: the file ends after 2 of the 3 arcs"
                  simulate --kernel sssp:graph=${PROJECT_SOURCE_DIR}/tests/workloads/data/sssp/truncated.gr)
gpusched_cli_test(simulate_sssp_binary_graph 2 stderr "binary.gr:2: not a text DIMACS graph"
                  simulate --kernel sssp:graph=${PROJECT_SOURCE_DIR}/tests/workloads/data/sssp/binary.gr)
# spmv: files and generated matrices; HYB is two launches; a bad .mtx exits 2 naming FILE:LINE.
gpusched_cli_test(simulate_spmv_file 0 stdout "spmv-csr +0 +1 +256"
                  simulate --kernel spmv:format=csr,matrix=${PROJECT_SOURCE_DIR}/tests/workloads/data/spmv/lengths_1_2_3_10.mtx)
gpusched_cli_test(simulate_spmv_hyb 0 stdout "spmv-hyb-ell.*spmv-hyb-coo"
                  simulate --gpu c2050 --kernel spmv:format=hyb,gen=harbor,rows=20000)
gpusched_cli_test(simulate_spmv_workload 0 stdout "spmv-hyb-ell.*spmv-hyb-coo.*spmv-csr"
                  simulate --workload ${PROJECT_SOURCE_DIR}/tests/workloads/data/spmv/workload_spmv.yaml)
gpusched_cli_test(simulate_spmv_truncated 2 stderr "truncated.mtx:5: the file ends after 3 of the 4 entries"
                  simulate --kernel spmv:format=ell,matrix=${PROJECT_SOURCE_DIR}/tests/workloads/data/spmv/truncated.mtx)
gpusched_cli_test(simulate_spmv_binary 2 stderr "binary.mtx:2: not a text Matrix Market file"
                  simulate --kernel spmv:format=coo,matrix=${PROJECT_SOURCE_DIR}/tests/workloads/data/spmv/binary.mtx)
gpusched_cli_test(simulate_spmv_missing 2 stderr "nope.mtx: cannot read Matrix Market file"
                  simulate --kernel spmv:format=csr,matrix=nope.mtx)
gpusched_cli_test(simulate_spmv_bad_gen 2 stderr "key 'gen': unknown matrix generator 'webbase'"
                  simulate --kernel spmv:format=csr,gen=webbase)
gpusched_cli_test(predict_strip 0 stdout "strip model .*S_COO 21504.*simulated"
                  predict --model strip --gpu c2050 --kernel spmv:format=coo,gen=qcd,rows=5000)
# Measured COO times on T = 5 + 0.5 I; qcd with 5000 rows has 195000 non-zeros: I = ceil(195000 / 21504) = 10 -> 10 us.
gpusched_cli_test(predict_strip_calibration 0 stdout "measured benchmark matrices.*strip model +10.000 us"
                  predict --model strip --gpu c2050 --kernel spmv:format=coo,gen=qcd,rows=5000
                  --calibration ${PROJECT_SOURCE_DIR}/tests/workloads/data/spmv/benchmarks_coo.csv)
gpusched_cli_test(predict_strip_bad_calibration 2 stderr "benchmarks_bad.csv:3: time_us"
                  predict --model strip --gpu c2050 --kernel spmv:format=coo,gen=qcd,rows=5000
                  --calibration ${PROJECT_SOURCE_DIR}/tests/workloads/data/spmv/benchmarks_bad.csv)
gpusched_cli_test(predict_strip_not_spmv 2 stderr "--model strip needs an spmv kernel"
                  predict --model strip --kernel synthetic:blocks=4,threads=32,duration=1us)
add_test(NAME cli.deterministic_spmv
         COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gpusched> -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}/determinism_spmv
                 "-DSPEC=spmv:format=csr,gen=protein,rows=3000,threads=128,seed=5" -DPOLICY=most-room
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_determinism.cmake)
gpusched_cli_test(simulate_bad_trace_limit 2 stderr "--trace-limit" simulate --trace-limit lots)
gpusched_cli_test(simulate_unwritable_output 2 stderr "--timeline: cannot write" simulate --timeline /nonexistent/dir/t.csv)
gpusched_cli_test(simulate_replay_flags_alone 2 stderr "need --replay" simulate --threads 64)
gpusched_cli_test(simulate_trace_cap 0 stderr "shows 10 of 1200 blocks" simulate --trace ${CMAKE_CURRENT_BINARY_DIR}/t_cap.json
                  --trace-limit 10 --kernel synthetic:blocks=1200,threads=1024,duration=20us~40us)

foreach(policy most-room round-robin static-rr buckets sorted walk)
  add_test(NAME cli.deterministic_${policy}
           COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gpusched> -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}/determinism_${policy}
                   "-DSPEC=synthetic:blocks=700,threads=256,regs=40,duration=5us~30us,seed=3" -DPOLICY=${policy}
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_determinism.cmake)
endforeach()

# --- predict ---
# C2075, n = 81, 8x8 blocks: 121 blocks on 14 SMs, 8 per SM. Full: ceil(121/14) = 9 blocks x 2 warps = 18;
# Buckets: one whole round of 8 per SM (112 blocks) + min(121 - 112, 8) = 8 -> 16 blocks x 2 warps = 32.
gpusched_cli_test(predict_interval 0 stdout "Full +18 .*Buckets +32 " predict --gpu c2075 --kernel apsp-minplus:n=81,block=8)
gpusched_cli_test(predict_calibrated 0 stdout "calibration factor f = " predict --gpu c2075 --kernel apsp-minplus:n=200,block=8 --measured 0.5 --at 81)
gpusched_cli_test(predict_json 0 stdout "\"Buckets\": {[^}]*\"warps_per_sm\": 32" predict --gpu c2075 --kernel apsp-minplus:n=81,block=8 --json)
# K20: 416 blocks of 128 threads = twice the 26,624-thread capacity: kappa = 1 / (2 + 2).
gpusched_cli_test(predict_compute_bound 0 stdout "kappa    0.2500 .*time     4.000 us"
                  predict --model compute-bound --gpu k20 --kernel binomial-series:blocks=416,threads=128 --tau-us 1)
gpusched_cli_test(predict_compute_bound_tau 0 stdout "a lone warp" predict --model compute-bound --gpu k20 --kernel binomial-series:blocks=13,threads=32)
gpusched_cli_test(predict_compute_bound_bad_tau 2 stderr "--tau-us" predict --model compute-bound --kernel binomial-series:blocks=1,threads=32 --tau-us 0)
gpusched_cli_test(predict_unknown_model 2 stderr "--model: unknown model 'roofline'" predict --model roofline --kernel apsp-minplus:n=81,block=8)
gpusched_cli_test(predict_measured_alone 2 stderr "--measured and --at" predict --kernel apsp-minplus:n=81,block=8 --measured 3)
gpusched_cli_test(predict_no_warp_work 2 stderr "per-warp work" predict --kernel synthetic:blocks=3,threads=32,duration=1us)
gpusched_cli_test(predict_bad_measured 2 stderr "--measured" predict --kernel apsp-minplus:n=81,block=8 --measured -1 --at 50)

# --- validate ---
# sssp simulates 75 configurations (minutes); tests/validation covers it with a subset. The
# curves (8 sweeps, seconds in Release, a minute under sanitizers) run once, in validate_report.
gpusched_cli_test(validate_h100 0 stdout "wave265 .*29 cases: .* within 1% .* with every block on its measured SM.*64 configurations: span median"
                  validate ${PROJECT_SOURCE_DIR}/validation/data/h100 --sections placement,series,spmv)
gpusched_cli_test(validate_json 0 stdout "\"exact_placements\": [0-9]+.*\"grids_match\": true"
                  validate ${PROJECT_SOURCE_DIR}/validation/data/h100 --json --sections placement,series,spmv)
gpusched_cli_test(validate_concurrency 0 stdout "hp_bigger_blocks +1 +high512 +-5 +132 +50.464 +50.305.*14 cases, 34 launches: 34 with start and end within 5%"
                  validate ${PROJECT_SOURCE_DIR}/validation/data/h100 --sections concurrency)
gpusched_cli_test(validate_bad_section 2 stderr "--sections: unknown section 'ssp'"
                  validate ${PROJECT_SOURCE_DIR}/validation/data/h100 --sections spmv,ssp)
gpusched_cli_test(validate_missing_dir 2 stderr "not a directory" validate /nonexistent/data)
# validate --trace: each profiled step of a trace against its own simulation (host timeline, measured durations):
# the transformer's three steps within 2% in span and kernel starts (measured: -0.5..-0.7%, starts within 1.22%).
gpusched_cli_test(validate_trace 0 stdout "3 steps: span median \\|error\\| 0\\.[0-9]%, max [01]\\.[0-9]% \\(target 2%\\); kernel starts within [01]\\.[0-9]+% of"
                  validate --trace ${PROJECT_SOURCE_DIR}/validation/data/h100/torch/transformer_k132.json.gz)
gpusched_cli_test(validate_trace_json 0 stdout "\"trace\": \\{.*\"steps\": \\[.*\"kernels_compared\""
                  validate --trace ${PROJECT_SOURCE_DIR}/validation/data/h100/torch/gemm_k132.json.gz --json)
gpusched_cli_test(validate_trace_and_dir 2 stderr "validate: give one of DATA_DIR .* --timelines DIR .* or --trace TRACE"
                  validate ${PROJECT_SOURCE_DIR}/validation/data/h100 --trace ${PROJECT_SOURCE_DIR}/validation/data/h100/torch/gemm_k132.json.gz)
gpusched_cli_test(validate_trace_sections 2 stderr "--sections: not with --trace"
                  validate --trace ${PROJECT_SOURCE_DIR}/validation/data/h100/torch/gemm_k132.json.gz --sections whatif)
gpusched_cli_test(validate_trace_missing 2 stderr "nope.json" validate --trace nope.json)
gpusched_cli_test(validate_no_timelines 2 stderr "no timeline CSV" validate ${PROJECT_SOURCE_DIR}/docs)
gpusched_cli_test(validate_section_without_data 2 stderr "--sections sssp: no measurements at '.*bad_streamcluster/sssp/runs.csv'"
                  validate ./bad_streamcluster --sections sssp)
gpusched_cli_test(validate_streamcluster 0 stdout "calibrated once at R = 16 .*grids identical to the runner's.*best R, pinned: measured 2, simulated 2, calibrated 2, documented keys 2"
                  validate ${PROJECT_SOURCE_DIR}/validation/data/h100 --sections streamcluster)
gpusched_cli_test(validate_streamcluster_json 0 stdout "\"streamcluster\": {.*\"best_rake_pageable\": {\n *\"measured\": 4"
                  validate ${PROJECT_SOURCE_DIR}/validation/data/h100 --json --sections streamcluster)
gpusched_cli_test(validate_streamcluster_bad_column 2 stderr "bad_streamcluster/streamcluster/runs.csv:3: missing column 'total_pinned_median_ms'"
                  validate ./bad_streamcluster --sections streamcluster)
gpusched_cli_test(validate_apsp_timelines 0 stdout "APSP block timelines of .*minplus_n90_bs8 +8 +1152 .*fw_n128_bs16 +129 +8256 .*block counts identical to the runner's"
                  validate ${PROJECT_SOURCE_DIR}/validation/data/h100 --sections apsp-timelines)
gpusched_cli_test(validate_apsp_timelines_json 0 stdout "\"apsp_timelines\": {\n *\"blocks_match\": true"
                  validate ${PROJECT_SOURCE_DIR}/validation/data/h100 --json --sections apsp-timelines)
gpusched_cli_test(validate_apsp_timelines_bad_row 2 stderr "bad_apsp_timeline/apsp_timeline/minplus_n90_bs32.csv:7: column 'sm': expected a non-negative integer"
                  validate ./bad_apsp_timeline --sections apsp-timelines)
gpusched_cli_test(validate_apsp_timelines_missing 2 stderr "--sections apsp-timelines: no measurements at '.*bad_streamcluster/apsp_timeline'"
                  validate ./bad_streamcluster --sections apsp-timelines)
# validate --timelines: a user's directory of timelines (docs/own-kernels.md).
gpusched_cli_test(validate_timelines 0 stdout "runs/b2b132x5.csv +b2b132x5 +5 +660 .*launch spans.*runs/b2b132x5.csv +4 +132 .*skipped summary.csv: not a timeline.*1 files: 1 within 2% of the measured span"
                  validate --timelines ./own_timelines)
gpusched_cli_test(validate_timelines_json 0 stdout "\"timelines\": \"./own_timelines\",\n *\"gpu\": \"h100\",\n *\"policy\": \"walk\".*\"launch_spans\": \\[.*\"skipped\": \\[\n *\"summary.csv\"\n *\\],\n *\"within_2_percent\": 1"
                  validate --timelines ./own_timelines --json)
gpusched_cli_test(validate_timelines_report 0 stdout "1 files: 1 within 2%" validate --timelines ./own_timelines
                  --report ${CMAKE_CURRENT_BINARY_DIR}/own_timelines_report.html)
gpusched_cli_test(validate_timelines_placement_dir 0 stdout "wave265.csv .*skipped nvidia-smi.csv.*skipped runs.csv.*29 files: 29 within 2% of the measured span"
                  validate --timelines ${PROJECT_SOURCE_DIR}/validation/data/h100/placement)
gpusched_cli_test(validate_timelines_and_dir 2 stderr "validate: give one of DATA_DIR \\(the project's measurements\\), --timelines DIR \\(your own timeline CSVs\\) or --trace TRACE"
                  validate ./own_timelines --timelines ./own_timelines)
gpusched_cli_test(validate_no_dir 2 stderr "validate: give one of DATA_DIR .* --timelines DIR .* or --trace TRACE" validate)
gpusched_cli_test(validate_timelines_sections 2 stderr "--sections: the sections are parts of a DATA_DIR; --timelines replays every timeline of its directory"
                  validate --timelines ./own_timelines --sections placement)
gpusched_cli_test(validate_timelines_missing 2 stderr "/nonexistent/t: not a directory of timeline CSV files" validate --timelines /nonexistent/t)
gpusched_cli_test(validate_timelines_none 2 stderr "bad_streamcluster: no timeline CSV files \\(a timeline's header names block, sm, start_ns and end_ns; [1-9][0-9]* other CSV files\\)"
                  validate --timelines ./bad_streamcluster)
# --durations: the probe's issue-bound varying_work stamps its blocks out of block order (auto takes
# slot durations, within 2%); the placement runner's spin kernels do not (auto keeps their stamps).
gpusched_cli_test(validate_timelines_probe_auto 0 stdout "varying_work.csv: [0-9]+ blocks first stamped > 1 us after a later-dispatched one; durations from inferred dispatch.*varying_work.csv +varying_work +3 +6144 +539.968 +539.875 +-0.02 .*3 files: 2 within 2%"
                  validate --timelines ${PROJECT_SOURCE_DIR}/validation/data/h100/probe)
gpusched_cli_test(validate_timelines_probe_stamps 0 stdout "varying_work.csv +varying_work +3 +6144 +539.968 +420.317 +-22.16 "
                  validate --timelines ${PROJECT_SOURCE_DIR}/validation/data/h100/probe --durations stamps)
gpusched_cli_test(validate_timelines_probe_slot_json 0 stdout "\"durations\": \"slot\",\n *\"out_of_order_stamps\": 0,.*\"within_2_percent\": 3"
                  validate --timelines ${PROJECT_SOURCE_DIR}/validation/data/h100/probe --durations slot --json)
gpusched_cli_test(validate_timelines_bad_durations 2 stderr "--durations: expected 'auto', 'slot' or 'stamps', got 'dispatch'"
                  validate --timelines ./own_timelines --durations dispatch)
gpusched_cli_test(validate_durations_without_timelines 2 stderr "--durations: only with --timelines"
                  validate ${PROJECT_SOURCE_DIR}/validation/data/h100 --durations stamps)
gpusched_cli_test(validate_timelines_other_gpu 2 stderr "b2b132x5.csv: recorded on a GPU with 132 SMs \\('# sm_count='\\), but the simulated GPU 'a100' has 108 SMs"
                  validate --timelines ./own_timelines --gpu a100)

# --- curve ---
gpusched_cli_test(curve_help 0 stdout "Examples:.*--n 50\\.\\.100" curve --help)
# C2075, 8x8 blocks: the 7th launch comes at n = 66 (ceil(log2(n-1))), the 9x9 grid at n = 65.
gpusched_cli_test(curve_table 0 stdout "simulated_us\n64 +6 +64 [^\n]*\n65 +6 +81 [^\n]*\n66 +7 +81 "
                  curve --gpu c2075 --kernel apsp-minplus:block=8 --n 64..66)
# The closed forms are those of `gpusched predict` (see predict_interval: 24.085 / 25.501 / 45.336 us at n = 81).
gpusched_cli_test(predict_interval_times 0 stdout "Full +18 +36\\.701\n.*Buckets +32 +56\\.536"
                  predict --gpu c2075 --kernel apsp-minplus:n=81,block=8)
gpusched_cli_test(curve_models_as_predict 0 stdout "\n81 +7 +121 +[0-9.]+ +35\\.285 +35\\.285 +36\\.701 +56\\.536"
                  curve --gpu c2075 --kernel apsp-minplus:block=8 --n 80..82 --models)
gpusched_cli_test(curve_bad_range 2 stderr "--n: expected FIRST\\.\\.LAST.*got '50-100'"
                  curve --kernel apsp-minplus:block=8 --n 50-100)
gpusched_cli_test(curve_range_not_integer 2 stderr "--n: expected FIRST\\.\\.LAST" curve --kernel apsp-minplus:block=8 --n 50..x)
gpusched_cli_test(curve_range_overflow 2 stderr "--n: expected FIRST\\.\\.LAST"
                  curve --kernel apsp-minplus:block=8 --n 50..99999999999999999999)
gpusched_cli_test(curve_n_below_2 2 stderr "--n: sizes start at n = 2, got 1" curve --kernel apsp-minplus:block=8 --n 1..10)
gpusched_cli_test(curve_empty_range 2 stderr "--n: empty range 100\\.\\.50" curve --kernel apsp-minplus:block=8 --n 100..50)
gpusched_cli_test(curve_too_many_points 2 stderr "--n/--step: 100001 points; at most 100000"
                  curve --kernel apsp-minplus:block=8 --n 2..100002)
gpusched_cli_test(curve_zero_step 2 stderr "--step 0: expected an integer in \\[1, 10\\]"
                  curve --kernel apsp-minplus:block=8 --n 50..60 --step 0)
gpusched_cli_test(curve_negative_step 2 stderr "--step -2: expected an integer in \\[1, 10\\] \\(the width of --n\\)"
                  curve --kernel apsp-minplus:block=8 --n 50..60 --step -2)
gpusched_cli_test(curve_not_apsp 2 stderr "--kernel: curve sweeps n of apsp-minplus or apsp-fw, got kernel 'synthetic'"
                  curve --kernel synthetic:blocks=4,threads=32,duration=1us --n 2..3)
gpusched_cli_test(curve_spec_with_n 2 stderr "--kernel: leave n= out of the spec"
                  curve --kernel apsp-minplus:block=8,n=50 --n 50..60)
gpusched_cli_test(curve_spec_with_spaced_n 2 stderr "--kernel: leave n= out of the spec"
                  curve --kernel "apsp-minplus: n = 50 ,block=8" --n 50..60)
gpusched_cli_test(curve_bad_spec 2 stderr "--kernel: .*'block'" curve --kernel apsp-minplus --n 50..60)
gpusched_cli_test(curve_n_beyond_kernel 2 stderr "--kernel: key 'n'" curve --kernel apsp-fw:block=16 --n 999999..1000001)
gpusched_cli_test(curve_bad_exec 2 stderr "--exec: expected auto, shared or fixed, got 'turbo'"
                  curve --kernel apsp-minplus:block=8 --n 50..60 --exec turbo)
gpusched_cli_test(curve_unwritable_csv 2 stderr "--csv: cannot write" curve --kernel apsp-minplus:block=32 --n 50..51
                  --csv /nonexistent/dir/c.csv)
gpusched_cli_test(curve_unknown_gpu 2 stderr "unknown GPU 'h1000'" curve --gpu h1000 --kernel apsp-minplus:block=8 --n 50..51)
add_test(NAME cli.curve_csv_and_determinism
         COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gpusched> -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}/curve_outputs
                 "-DARGS=curve;--gpu;c2075;--kernel;apsp-minplus:block=16;--n;90..100;--models" -DROWS=11
                 "-DMARK=n=97: blocks 36-&gt;49" -P ${CMAKE_CURRENT_SOURCE_DIR}/charts/check_curve.cmake)
add_test(NAME cli.curve_step_csv
         COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gpusched> -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}/curve_step
                 "-DARGS=curve;--gpu;gtx780;--kernel;apsp-fw:block=32;--n;50..100;--step;7;--exec;fixed" -DROWS=8
                 "-DMARK=n=71: launches 64-&gt;71, blocks 4-&gt;9" -P ${CMAKE_CURRENT_SOURCE_DIR}/charts/check_curve.cmake)
gpusched_cli_test(validate_report 0 stdout "29 cases.*apsp-minplus +queued +16 +104" validate ${PROJECT_SOURCE_DIR}/validation/data/h100
                  --sections placement,curves,series,spmv --report ${CMAKE_CURRENT_BINARY_DIR}/validation_report.html)
gpusched_cli_test(validate_report_unwritable 2 stderr "--report: cannot write" validate
                  ${PROJECT_SOURCE_DIR}/validation/data/h100 --report /nonexistent/dir/r.html)

# --- sweep and merge (docs/sweep.md) ---
gpusched_cli_test(sweep_help 0 stdout "--shard" sweep --help)
gpusched_cli_test(sweep_small 0 stdout "\npoint,gpu,policy,exec,workload,threads,blocks,execution,makespan_ns,.*\n3,h100,most-room,auto,syn,2048,50,,[^\n]*cannot launch"
                  sweep sweep_small.yaml -j 2 --quiet)
# Progress is drawn only on a terminal: off one, stderr has only the sweep's note on failed points.
gpusched_cli_test(sweep_quiet_off_terminal 0 stderr "^gpusched sweep: 3 of 10 points could not run \\(see the error column\\)" sweep sweep_small.yaml -j 1)
file(GLOB sweep_examples CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/examples/sweep-*.yaml)
foreach(example ${sweep_examples})
  get_filename_component(name ${example} NAME_WE)
  gpusched_cli_test(example_${name} 0 stdout "^# gpusched sweep results\n" sweep ${example} -j 2 --quiet)
endforeach()
gpusched_cli_test(sweep_missing_study 2 stderr "nope.yaml: cannot read study file: No such file" sweep nope.yaml)
gpusched_cli_test(sweep_unknown_key 2 stderr "sweep_unknown_key.yaml:5: unknown key 'pointz'" sweep sweep_unknown_key.yaml)
gpusched_cli_test(sweep_unknown_param 2 stderr "sweep_unknown_param.yaml:6: key 'frobs': unknown parameter" sweep sweep_unknown_param.yaml)
gpusched_cli_test(sweep_bad_gpu_value 2 stderr "sweep_bad_gpu_value.yaml:6: point 1 \\(sm_count=0\\): .*key 'sm_count': expected an integer in \\[1, 100000\\], got '0'"
                  sweep sweep_bad_gpu_value.yaml)
gpusched_cli_test(sweep_bad_kernel_value 2 stderr "point 1 \\(threads=lots\\): workload 'w': key 'threads': expected an integer"
                  sweep sweep_bad_kernel_value.yaml)
gpusched_cli_test(sweep_empty_axis 2 stderr "key 'points\\[0\\].grid.threads': empty list" sweep sweep_empty_axis.yaml)
gpusched_cli_test(sweep_absurd_points 2 stderr "more than 10000000 points" sweep sweep_absurd.yaml)
gpusched_cli_test(sweep_shard_beyond 2 stderr "--shard: I out of range \\(expected I/N with 0 <= I < N" sweep sweep_small.yaml --shard 3/2)
gpusched_cli_test(sweep_shard_zero 2 stderr "--shard: N out of range" sweep sweep_small.yaml --shard 0/0)
gpusched_cli_test(sweep_shard_syntax 2 stderr "--shard: no '/'" sweep sweep_small.yaml --shard 2)
gpusched_cli_test(sweep_zero_threads 2 stderr "-j: expected a thread count in \\[1, 1024\\], got 0" sweep sweep_small.yaml -j 0)
gpusched_cli_test(merge_not_results 2 stderr "tiny_gpu.yaml:1: not a gpusched sweep results file" merge tiny_gpu.yaml --out /dev/null)
gpusched_cli_test(merge_needs_out 2 stderr "--out" merge tiny_gpu.yaml)
add_test(NAME cli.sweep_deterministic_and_sharded
         COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gpusched> -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}/sweep_shards
                 -DSTUDY=${GPUSCHED_CLI_DATA}/sweep_small.yaml -DOTHER=${GPUSCHED_CLI_DATA}/sweep_small_other.yaml
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_sweep.cmake)
gpusched_cli_test(plot_curves 0 stdout "" plot sweep_small_results.csv --x blocks --y makespan_ns --series threads,policy
                  --out ${CMAKE_CURRENT_BINARY_DIR}/sweep_curves.svg)
gpusched_cli_test(plot_heatmap 0 stdout "" plot sweep_small_results.csv --heatmap --x blocks --y threads --value makespan_ns
                  --aggregate mean --log --out ${CMAKE_CURRENT_BINARY_DIR}/sweep_heatmap.html)
gpusched_cli_test(plot_unknown_column 2 stderr "--x: no column 'size' in sweep_small_results.csv \\(columns: point,"
                  plot sweep_small_results.csv --x size --y makespan_ns --out x.svg)
gpusched_cli_test(plot_ambiguous 2 stderr "3 rows fall on x = 128; they differ in policy, blocks: add those columns to --series"
                  plot sweep_small_results.csv --x threads --y makespan_ns --out x.svg)
gpusched_cli_test(plot_bad_out 2 stderr "--out: expected a .svg or .html file" plot sweep_small_results.csv --x blocks --y makespan_ns --out x.png)
gpusched_cli_test(plot_heatmap_needs_value 2 stderr "--heatmap needs --value" plot sweep_small_results.csv --heatmap --x blocks --y threads --out x.svg)

# --- applications as DAGs: copies, delays, events ---
gpusched_cli_test(copy_overlap_example 0 stdout "d2h +2 +33554432 +pinned +1"
                  simulate --workload ${PROJECT_SOURCE_DIR}/examples/copy-overlap.yaml)
gpusched_cli_test(copy_overlap_json 0 stdout "\"copies\":\\[{\"operation\":0,\"direction\":\"h2d\""
                  simulate --workload ${PROJECT_SOURCE_DIR}/examples/copy-overlap.yaml --json)
# Host-issued launches: launch i is issued at i x 3.466 us, ready 1.418 us later, starts 0.182 us
# after that (dispatch latency) and runs 1 us: the last (i = 199) ends at
# 199 x 3.466 + 1.418 + 0.182 + 1 = 692.334 us.
gpusched_cli_test(host_launches_example 0 stdout "makespan +692.334 us"
                  simulate --workload ${PROJECT_SOURCE_DIR}/examples/host-launches.yaml --exec fixed)
gpusched_cli_test(host_calls_need_interval 2 stderr "issue: host-calls.*tiny has no overheads.host_launch_interval_ns"
                  simulate --workload ${PROJECT_SOURCE_DIR}/examples/host-launches.yaml --exec fixed --gpu tiny_gpu.yaml)
gpusched_cli_test(dangling_wait 2 stderr "dangling_wait.yaml:2.*waits for event 'never-recorded'.*dangling"
                  simulate --workload dangling_wait.yaml)
gpusched_cli_test(dependency_cycle 2 stderr "cycle.*'upload'.*copy_cycle.yaml:2"
                  simulate --workload copy_cycle.yaml)

# --- streamcluster: the gain kernel with rake size R, its copies, the rake-size model ---
gpusched_cli_test(streamcluster_copies 0 stdout "d2h +0 +688128 +pinned.*d2h +0 +65536 +pinned"
                  simulate --kernel streamcluster:points=65536,dims=256,rake=8,regs=40)
gpusched_cli_test(streamcluster_missing_points 2 stderr "--kernel: kernel 'streamcluster': required key 'points' is missing"
                  simulate --kernel streamcluster:dims=4)
gpusched_cli_test(streamcluster_bad_copy 2 stderr "--kernel: key 'copy': expected pinned, pageable or none, got 'dma'"
                  simulate --kernel streamcluster:points=10,dims=4,copy=dma)
gpusched_cli_test(streamcluster_bad_rake 2 stderr "key 'rake'" simulate --kernel streamcluster:points=10,dims=4,rake=11)
# The measured H100 configuration: b = 1 (MW 48), the simulated best R is the measured one (2 pinned, 4 pageable).
gpusched_cli_test(predict_rake 0 stdout "ceil\\(65536 / \\(132 x 48 x 32\\)\\) = 1 .*a = 878 .*simulated best R = 2 "
                  predict --model rake --kernel streamcluster:points=65536,dims=256,regs=40,dim_latency_cycles=174
                  --rakes 1,2,4,8,16)
gpusched_cli_test(predict_rake_pageable 0 stdout "simulated best R = 4 "
                  predict --model rake --kernel streamcluster:points=65536,dims=256,regs=40,dim_latency_cycles=174,copy=pageable)
gpusched_cli_test(predict_rake_json 0 stdout "\"b\": 1,.*\"simulated_best_rake\": 2"
                  predict --model rake --kernel streamcluster:points=65536,dims=256,regs=40,dim_latency_cycles=174 --json)
gpusched_cli_test(predict_rake_not_streamcluster 2 stderr "--model rake needs a streamcluster kernel"
                  predict --model rake --kernel synthetic:blocks=1,threads=32,duration=1us)
gpusched_cli_test(predict_rake_no_copies 2 stderr "copy=none" predict --model rake --kernel streamcluster:points=100,dims=2,copy=none)
gpusched_cli_test(predict_rake_no_latency 2 stderr "host_link.latency_ns" predict --model rake --gpu no_copy_latency_gpu.yaml --kernel streamcluster:points=100,dims=2)
gpusched_cli_test(predict_rake_bad_rakes 2 stderr "--rakes: expected" predict --model rake --kernel streamcluster:points=100,dims=2 --rakes 0-3)
gpusched_cli_test(predict_rake_bad_delta 2 stderr "--delta" predict --model rake --kernel streamcluster:points=100,dims=2 --delta 0)
gpusched_cli_test(predict_rakes_other_model 2 stderr "--rakes and --delta apply to --model rake"
                  predict --kernel apsp-minplus:n=81,block=8 --rakes 1-4)

# --- calibrate and tune (docs/calibration.md) ---
gpusched_cli_test(calibrate_series 0 stdout "instr_per_term +18\\.[0-9]+.*term_latency_cycles +66\\.[0-9]+.*threads=32 held out.*blocks <= 132 -> blocks > 132"
                  calibrate series --data calibrate_series_small.csv --extrapolate-blocks 132)
gpusched_cli_test(calibrate_interval 0 stdout "one-point f \\(paper\\) +1\\.98.*n <= 140 -> n > 140.*least-squares f \\+ per-launch constant"
                  calibrate interval --data ${PROJECT_SOURCE_DIR}/validation/data/h100/curves/apsp_minplus.csv --block 16)
gpusched_cli_test(calibrate_missing_column 2 stderr "calibrate_series.yaml:[0-9]+: the header has no column 'blocks'"
                  calibrate series --data calibrate_series.yaml)
gpusched_cli_test(simulate_calibration 0 stdout "\"application\":\"binomial-series:blocks=132,threads=32,instr_per_term=19.88,term_latency_cycles=71.42\""
                  simulate --calibration calibrate_series.yaml --kernel binomial-series:blocks=132,threads=32 --json)
gpusched_cli_test(simulate_calibration_bad_key 2 stderr "calibrate_bad_key.yaml:5: key 'keys.instr_per_loop': not a key of binomial-series"
                  simulate --calibration calibrate_bad_key.yaml --kernel binomial-series:blocks=132,threads=32)
gpusched_cli_test(simulate_calibration_needs_kernel 2 stderr "--calibration sets default keys of --kernel specs"
                  simulate --calibration calibrate_series.yaml)
gpusched_cli_test(predict_calibration_no_interval 2 stderr "calibrate_series.yaml: no 'interval' section"
                  predict --model interval --calibration calibrate_series.yaml --kernel apsp-minplus:n=100,block=16)
# One wave of 264 blocks of 1024 threads (2 per SM) beats two waves of 265 (tests/calibrate/tune_test.cpp).
gpusched_cli_test(tune_waves 0 stdout "265 +121\\.782.*264 +61\\.742 .*<- best.*best: blocks=264"
                  tune --kernel synthetic:blocks=1,threads=1024,duration=60us --param blocks=265,264)
gpusched_cli_test(tune_guideline 0 stdout "64 .*guideline.*smallest block size that maximises occupancy -> threads=64"
                  tune --kernel synthetic:threads=32,duration=10us --total-threads 8448 --param threads=32,64,128)
gpusched_cli_test(tune_bad_param 2 stderr "--param: expected KEY=V1,V2" tune --kernel synthetic:blocks=1,threads=32 --param threads)
# dim_latency_cycles: 179.8 since the h100 preset gives the sustained 3000 GB/s of DRAM (18x with the 3350 peak).
gpusched_cli_test(calibrate_key 0 stdout "dim_latency_cycles = 1[78][0-9]\\.[0-9]+.*leave one out.*rake <= 8 -> larger"
                  calibrate key --data ${PROJECT_SOURCE_DIR}/validation/data/h100/streamcluster/runs.csv
                  --kernel streamcluster:points={points},dims={dim},rake={rake},regs=40,copy=none
                  --key dim_latency_cycles --range 0:400 --time-column kernel_median_ms --group rake --extrapolate 8)
gpusched_cli_test(calibrate_key_integer_key 2 stderr "--key regs: the search tries values the spec refuses: .*regs = 17.2 .*expected an integer"
                  calibrate key --data ${PROJECT_SOURCE_DIR}/validation/data/h100/streamcluster/runs.csv
                  --kernel streamcluster:points={points},dims={dim},rake={rake},copy=none --key regs --range 16:64
                  --time-column kernel_median_ms --out regs.yaml)
gpusched_cli_test(walk_policy 0 stdout "policy +walk.*blocks per SM +min 2 / mean 2.008 / max 3"
                  simulate --policy walk --walk-start 2:4 --kernel synthetic:blocks=265,threads=1024,duration=50us)
gpusched_cli_test(walk_start_needs_walk 2 stderr "--walk-start sets where --policy walk starts; give --policy walk"
                  simulate --walk-start 2 --kernel synthetic:blocks=265,threads=1024,duration=50us)
gpusched_cli_test(walk_start_out_of_range 2 stderr "--walk-start: expected ROW or ROW:LEAD with ROW in 0..7 and LEAD in 0..7.*got '8:1'"
                  simulate --policy walk --walk-start 8:1 --kernel synthetic:blocks=265,threads=1024,duration=50us)
gpusched_cli_test(walk_needs_measured_walk 2 stderr "--policy walk: GPU 'a100' has no topology.dispatch_walk"
                  simulate --policy walk --gpu a100 --kernel synthetic:blocks=265,threads=1024,duration=50us)

# --- errors in the language of the input: a library names its keys; the command line maps them to its flags ---
gpusched_cli_test(occupancy_limit_names_flag 2 stderr "--threads 2048: cannot launch on h100: the maximum is 1024 threads per block"
                  occupancy --threads 2048)
gpusched_cli_test(simulate_limit_names_spec_key 2 stderr "gpusched: launch 0 \\(synthetic\\): threads 2048: cannot launch on h100"
                  simulate --kernel synthetic:blocks=5,threads=2048,duration=1us)
gpusched_cli_test(sweep_row_names_key 0 stdout ",launch 0 \\(synthetic\\): threads 2048: cannot launch on h100: the maximum is 1024"
                  sweep sweep_small.yaml -j 2 --quiet)
gpusched_cli_test(sweep_unknown_policy_names_parameter 2 stderr
                  "gpusched: sweep_unknown_policy.yaml: parameter 'policy': unknown policy 'fifo' \\(known: most-room"
                  sweep sweep_unknown_policy.yaml)
gpusched_cli_test(show_unknown_gpu_names_no_flag 2 stderr "gpusched: unknown GPU 'h1000' \\(presets: " show gpu h1000)

# --- standard output that cannot be written: exit 2 with a message, for every command that prints ---
# gpusched_cli_full_test(NAME ARG...): the command with its standard output on /dev/full.
function(gpusched_cli_full_test name)
  add_test(NAME cli.stdout_full_${name}
           COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gpusched> "-DARGS=${ARGN}" -DEXPECT_CODE=2 -DSTREAM=stderr
                   "-DEXPECT_REGEX=cannot write to standard output"
                   -DSTDOUT_FILE=/dev/full -DWORKDIR=${GPUSCHED_CLI_DATA} -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_cli.cmake)
endfunction()
if(EXISTS /dev/full)
  gpusched_cli_full_test(show_gpu show gpu h100)
  gpusched_cli_full_test(list_gpus list gpus)
  gpusched_cli_full_test(help --help)
  gpusched_cli_full_test(occupancy occupancy --gpu h100 --threads 256)
  gpusched_cli_full_test(simulate simulate --kernel synthetic:blocks=265,threads=1024,duration=50us)
  gpusched_cli_full_test(simulate_json simulate --kernel synthetic:blocks=265,threads=1024,duration=50us --json)
  gpusched_cli_full_test(predict predict --gpu c2075 --kernel apsp-minplus:n=81,block=8)
endif()

# --- bounded reads: devices, directories and endless input are refused with the file named ---
if(EXISTS /dev/zero)
  gpusched_cli_test(show_gpu_dev_zero 2 stderr "/dev/zero:1: line longer than 1048576 bytes in GPU spec file"
                    show gpu /dev/zero)
  gpusched_cli_test(gpu_flag_dev_zero 2 stderr "/dev/zero:1: line longer than .* in GPU spec file"
                    occupancy --gpu /dev/zero --threads 32)
  gpusched_cli_test(study_dev_zero 2 stderr "/dev/zero:1: line longer than .* in study file" sweep /dev/zero)
  gpusched_cli_test(merge_dev_zero 2 stderr "/dev/zero:1: line longer than .* in results file"
                    merge /dev/zero --out merged.csv)
  gpusched_cli_test(plot_dev_zero 2 stderr "/dev/zero:1: line longer than .* in results file"
                    plot /dev/zero --x n --y makespan_ns --out plot.svg)
  gpusched_cli_test(calibration_dev_zero 2 stderr "/dev/zero:1: line longer than .* in calibration file"
                    simulate --calibration /dev/zero --kernel binomial-series:blocks=8,threads=64)
  gpusched_cli_test(calibrate_data_dev_zero 2 stderr "/dev/zero:1: line longer than .* in measured data"
                    calibrate series --data /dev/zero --out cal.yaml)
endif()
gpusched_cli_test(show_gpu_directory 2 stderr "\\./: cannot read GPU spec file: is a directory" show gpu ./)
gpusched_cli_test(study_directory 2 stderr "\\.: cannot read study file: is a directory" sweep .)

# --- an output never overwrites an input (also through a link): refused before anything is written ---
# gpusched_input_kept_test(NAME "FILE;FILE" REGEX ARG...): FILEs copied from tests/cli/data into a fresh folder
# first; GPUSCHED_INPUT_KEPT_LINK ("NAME>TARGET"), when set, adds a symbolic link there.
function(gpusched_input_kept_test name files regex)
  add_test(NAME cli.input_kept_${name}
           COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gpusched> -DDATA=${GPUSCHED_CLI_DATA}
                   "-DLINK=${GPUSCHED_INPUT_KEPT_LINK}"
                   -DWORK=${CMAKE_CURRENT_BINARY_DIR}/input_kept/${name} "-DFILES=${files}" "-DARGS=${ARGN}"
                   "-DEXPECT_REGEX=${regex}" -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_input_kept.cmake)
endfunction()
gpusched_input_kept_test(sweep_study sweep_small.yaml "--out: 'sweep_small.yaml' is also an input"
                         sweep sweep_small.yaml --out sweep_small.yaml)
gpusched_input_kept_test(sweep_study_other_spelling sweep_small.yaml "--out: './sweep_small.yaml' is also an input"
                         sweep sweep_small.yaml --out ./sweep_small.yaml)
gpusched_input_kept_test(merge_part sweep_small_results.csv "--out: 'sweep_small_results.csv' is also an input"
                         merge sweep_small_results.csv --out sweep_small_results.csv)
set(GPUSCHED_INPUT_KEPT_LINK "results.svg>sweep_small_results.csv")
gpusched_input_kept_test(plot_results_through_link sweep_small_results.csv "--out: 'results.svg' is also an input"
                         plot sweep_small_results.csv --x n --y makespan_ns --out results.svg)
unset(GPUSCHED_INPUT_KEPT_LINK)
gpusched_input_kept_test(calibrate_data calibrate_series_small.csv "--out: 'calibrate_series_small.csv' is also an input"
                         calibrate series --data calibrate_series_small.csv --out calibrate_series_small.csv)
gpusched_input_kept_test(simulate_gpu_file tiny_gpu.yaml "--timeline: 'tiny_gpu.yaml' is also an input"
                         simulate --gpu tiny_gpu.yaml --kernel synthetic:blocks=4,threads=32,duration=1us
                         --timeline tiny_gpu.yaml)
gpusched_input_kept_test(simulate_workload ${PROJECT_SOURCE_DIR}/tests/workloads/data/workload_example.yaml
                         "--trace: 'workload_example.yaml' is also an input"
                         simulate --workload workload_example.yaml --trace workload_example.yaml)
gpusched_input_kept_test(timeline_is_trace tiny_gpu.yaml "--trace: 'same.csv' is also the file of --timeline"
                         simulate --kernel synthetic:blocks=4,threads=32,duration=1us --timeline same.csv --trace same.csv)
gpusched_input_kept_test(timeline_is_trace_other_spelling tiny_gpu.yaml "--trace: './same.csv' is also the file of --timeline"
                         simulate --kernel synthetic:blocks=4,threads=32,duration=1us --timeline same.csv --trace ./same.csv)
gpusched_input_kept_test(validate_report_over_data ${PROJECT_SOURCE_DIR}/validation/data/h100/occupancy.csv
                         "--report: 'occupancy.csv' is also an input"
                         validate . --report occupancy.csv)
gpusched_cli_test(timeline_dev_full 2 stderr "--timeline: cannot finish writing '/dev/full'"
                  simulate --kernel synthetic:blocks=4000,threads=32,duration=1us --timeline /dev/full)

# --- values out of range and unknown words, named as the user gave them ---
gpusched_cli_test(trace_limit_negative 2 stderr "--trace-limit"
                  simulate --kernel synthetic:blocks=4,threads=32,duration=1us --trace-limit -1 --trace t.json)
gpusched_cli_test(trace_limit_beyond_uint64 2 stderr "--trace-limit"
                  simulate --kernel synthetic:blocks=4,threads=32,duration=1us --trace-limit 18446744073709551616 --trace t.json)
add_test(NAME cli.help_text COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_help_text.sh $<TARGET_FILE:gpusched>)
add_test(NAME cli.plot_help_examples COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_plot_help_examples.sh $<TARGET_FILE:gpusched> ${CMAKE_SOURCE_DIR})
add_test(NAME cli.readme_sample COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_readme_sample.sh $<TARGET_FILE:gpusched> ${CMAKE_SOURCE_DIR}/README.md)
add_test(NAME cli.interrupt COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_interrupt.sh
                                    $<TARGET_FILE:gpusched> ${GPUSCHED_CLI_DATA})
# Empty values ('') cannot travel through a CMake list: a script passes them.
add_test(NAME cli.empty_values COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_empty_args.sh
                                       $<TARGET_FILE:gpusched> ${GPUSCHED_CLI_DATA})
gpusched_cli_test(predict_measured_inf 2 stderr "--measured: expected a positive, finite time"
                  predict --gpu c2075 --kernel apsp-minplus:n=81,block=8 --measured inf --at 81)
gpusched_cli_test(predict_measured_huge 2 stderr "--measured: expected a positive, finite time"
                  predict --gpu c2075 --kernel apsp-minplus:n=81,block=8 --measured 1e308 --at 81)
gpusched_cli_test(list_unknown 2 stderr "gpusched list: unknown subcommand 'nope' \\(expected gpus, policies, workloads, kernel-families\\)"
                  list nope)
gpusched_cli_test(show_unknown_subcommand 2 stderr "gpusched show: unknown subcommand 'cpu' \\(did you mean gpu\\?\\) \\(expected gpu, work\\)" show cpu h100)
gpusched_cli_test(validate_named_section_without_data 2 stderr "--sections curves: no measurements at '.*curves'"
                  validate ${CMAKE_CURRENT_SOURCE_DIR}/cli --sections curves)
gpusched_input_kept_test(tune_csv tiny_gpu.yaml "--csv: 'tiny_gpu.yaml' is also an input"
                         tune --gpu tiny_gpu.yaml --kernel synthetic:threads=32,duration=10us --param threads=32,64
                         --csv tiny_gpu.yaml)
gpusched_input_kept_test(curve_svg tiny_gpu.yaml "--svg: 'tiny_gpu.yaml' is also an input"
                         curve --gpu tiny_gpu.yaml --kernel apsp-minplus:block=8 --n 50..51 --exec fixed --svg tiny_gpu.yaml)
gpusched_cli_test(calibrate_more_folds_than_points 2 stderr "--folds 20: more folds than measured points \\(13 in"
                  calibrate interval --data apsp_minplus_few.csv --block 16 --folds 20 --out f.yaml)
gpusched_cli_test(calibrate_extrapolate_splits_nothing 2 stderr "--extrapolate-n -5: splits nothing \\(the measured n are 40..52"
                  calibrate interval --data apsp_minplus_few.csv --block 16 --extrapolate-n -5 --out f.yaml)

# Messages that name the flag or key the user gave (not the one a later step tripped over).
gpusched_cli_test(tune_unknown_exec 2 stderr "^gpusched: --exec: unknown execution model 'turbo' \\(known: auto, fixed, shared\\)"
                  tune --kernel synthetic:blocks=100,threads=64,duration=1us --param threads=64,128 --exec turbo)
gpusched_cli_test(tune_unknown_policy 2 stderr "^gpusched: --policy: unknown policy 'nope'"
                  tune --kernel synthetic:blocks=100,threads=64,duration=1us --param threads=64,128 --policy nope)
gpusched_cli_test(tune_negative_total_threads 2 stderr "^gpusched: --total-threads -1: expected a thread count in \\[1, "
                  tune --kernel synthetic:duration=1us --param threads=64,128 --total-threads -1)
# 2^51 threads: more than 2^40 blocks of 1024 threads
gpusched_cli_test(tune_huge_total_threads 2 stderr "^gpusched: --total-threads 2251799813685248: expected"
                  tune --kernel synthetic:duration=1us --param threads=64,128 --total-threads 2251799813685248)
gpusched_cli_test(calibrate_key_range_refused 2 stderr "^gpusched: --range -5: the kernel spec refuses dim_latency_cycles = -5"
                  calibrate key --data ${PROJECT_SOURCE_DIR}/validation/data/h100/streamcluster/runs.csv
                  --kernel streamcluster:points={points},dims={dim},rake={rake},regs=40,copy=none
                  --key dim_latency_cycles --range -5:400 --time-column kernel_median_ms)
gpusched_cli_test(sweep_broken_placeholder 2 stderr "sweep_broken_placeholder.yaml:4: key 'workloads.syn': broken placeholder '..b,threads=64,duration='"
                  sweep sweep_broken_placeholder.yaml)
gpusched_cli_test(gpu_sm_order_repeated 2 stderr "repeated_sm_gpu.yaml:29: key 'topology.sm_order': .*got SM 2 twice \\(entries 2 and 4\\)"
                  show gpu repeated_sm_gpu.yaml)
# --- the range of simulated time (2^63 ps), per-block keys, calibrations, measured metadata ---
gpusched_cli_test(time_two_waves_of_2p62 2 stderr "launch 0 \\(synthetic\\): block 264 starts at 4611686018429169.904 ns and runs 4611686018427387.904 ns: its end passes 2\\^63 ps \\(about 106 days\\)"
                  simulate --kernel synthetic:blocks=265,threads=1024,duration=4611686018427387904ps)
gpusched_cli_test(time_duration_2p63 2 stderr "--kernel: key 'duration': '9223372036854775808ps' reaches 2\\^63 ps"
                  simulate --kernel synthetic:blocks=1,threads=32,duration=9223372036854775808ps)
gpusched_cli_test(time_delays 2 stderr "operation 1 \\(delay on stream 0, time_delays.yaml:4\\): its end: 9223372000000000.000 ns \\+ 9223372000000000.000 ns passes 2\\^63 ps"
                  simulate --workload time_delays.yaml)
gpusched_cli_test(time_copies 2 stderr "operation 458 \\(copy on stream 0, time_copies.yaml:461\\): its end: .* passes 2\\^63 ps"
                  simulate --workload time_copies.yaml)
gpusched_cli_test(active_warps_beyond_block 2 stderr "--kernel: key 'active_warps': 3 exceeds the 2 warps of each block on this GPU"
                  simulate --kernel synthetic:blocks=2,threads=64,duration=1us,active_warps=3)
gpusched_cli_test(active_warps_within_block 0 stdout "makespan"
                  simulate --kernel synthetic:blocks=2,threads=64,duration=1us,active_warps=2)
gpusched_cli_test(calibration_bad_terms 2 stderr "calibration_bad_terms.yaml:5: key 'terms': expected an integer in \\[1, 1000000000000\\], got '0.5'"
                  simulate --calibration calibration_bad_terms.yaml --kernel binomial-series:blocks=132,threads=32)
gpusched_cli_test(tune_calibration_bad_terms 2 stderr "calibration_bad_terms.yaml:5: key 'terms'"
                  tune --calibration calibration_bad_terms.yaml --kernel binomial-series:blocks=132,threads=32 --param threads=32,64)
gpusched_cli_test(calibration_negative_launch_us 2 stderr "calibration_negative_launch.yaml:5: key 'interval.launch_us': expected a number in \\[0, 1e\\+06\\], got '-3'"
                  predict --model interval --calibration calibration_negative_launch.yaml --kernel apsp-minplus:n=1000,block=16)
gpusched_cli_test(validate_placement_short 2 stderr "short_placement/placement/wave265.csv:108: the rows end with 40 blocks of launch 0, but line 67 \\('# launch.0=... blocks=...'\\) says 265"
                  validate ./short_placement --sections placement)
gpusched_cli_test(validate_placement_cut_mid_row 2 stderr "cut_placement/placement/wave265.csv:109: the last line ends without a line break"
                  validate ./cut_placement --sections placement)
gpusched_cli_test(sssp_graph_cut 2 stderr "cut_graph.txt:4: the edge list ends after 2 edges, but its comment at line 1 announces edges=3"
                  simulate --kernel sssp:graph=cut_graph.txt,sources=1)

# Latency floors derived from the GPU and the provenance of the numbers (docs/gpu-spec.md "Provenance").
gpusched_cli_test(show_work_binomial_chain 0 stdout "per term: I2F k .*-> 32 cycles.*latency floor = terms x 32 = 32000 cycles \\(derived from the GPU\\).*execution\\.conversion_latency_cycles = 5 \\(rule: R4 "
                  show work binomial-series:blocks=132,threads=32 --gpu h100)
gpusched_cli_test(show_work_given_key 0 stdout "latency floor = terms x term_latency_cycles \\(given\\) = 59000 cycles"
                  show work binomial-series:blocks=132,threads=32,term_latency_cycles=59 --gpu k20)
# The GPU's ruled numbers: one line on stderr (none with --quiet), each in the summary with --notes all.
gpusched_cli_test(simulate_ruled_numbers_warn 0 stderr "^gpusched: note: GPU 'k20': 4 notes on numbers or defaults this run takes from documented rules, not data \\(docs/latency-sources.md explains each rule; --notes all lists them\\)\n$"
                  simulate --gpu k20 --kernel binomial-series:blocks=26,threads=128)
gpusched_cli_test(simulate_ruled_numbers_quiet 0 stderr "^$" simulate --gpu k20 --quiet --kernel binomial-series:blocks=26,threads=128)
gpusched_cli_test(simulate_ruled_numbers_all 0 stdout "note       GPU 'k20' uses a rule, not data: overheads\\.kernel_launch_ns 1418.*\\(R10 "
                  simulate --gpu k20 --notes all --kernel binomial-series:blocks=26,threads=128)
gpusched_cli_test(simulate_ruled_default_policy_note 0 stdout "\"notes\":\\[\"GPU 'h200' default policy most-room is a rule, not data \\(R15 "
                  simulate --gpu h200 --json --kernel binomial-series:blocks=132,threads=128)
gpusched_cli_test(simulate_ruled_note_text 0 stdout "  note       GPU 'c1060' uses a rule, not data: .*execution\\.sfu_latency_cycles 48"
                  simulate --gpu c1060 --notes all --kernel binomial-series:blocks=30,threads=128)
# --- what-if GPUs (--sms, --set) and the generic `kernel` generator ---
# 265 blocks of 1024 threads, 2 per SM: 64 SMs take 128 a wave, 3 waves of 50 us under the walk kept on SMs 0..63.
gpusched_cli_test(simulate_sms_walk 0 stdout "gpu +h100 \\(sm_count=64\\) \\(NVIDIA H100 SXM5 80GB\\), cc 9.0, 64 SMs.*waves.*     0  synthetic       0     265     1024          2      3"
                  simulate --sms 64 --policy walk --kernel synthetic:blocks=265,threads=1024,duration=50us)
gpusched_cli_test(simulate_set_json 0 stdout "\"gpu\":\"h100 \\(sm_count=96, limits.max_blocks_per_sm=1\\)\".*\"sm_count\":96.*\"blocks_per_sm\":1,\"waves\":2"
                  simulate --set sm_count=96 --set max_blocks_per_sm=1 --json --kernel synthetic:blocks=128,threads=64,duration=5us)
gpusched_cli_test(simulate_sms_zero 2 stderr "^gpusched: --sms 0: key 'sm_count': expected an integer in \\[1, 100000\\], got '0'"
                  simulate --sms 0 --kernel synthetic:blocks=1,threads=32,duration=1us)
gpusched_cli_test(simulate_set_unknown_key 2 stderr "^gpusched: --set frobs=1: unknown GPU key 'frobs'"
                  simulate --set frobs=1 --kernel synthetic:blocks=1,threads=32,duration=1us)
gpusched_cli_test(simulate_set_out_of_range 2 stderr "^gpusched: --set limits.max_blocks_per_sm=100000: key 'limits.max_blocks_per_sm': expected an integer in \\[1, 4096\\]"
                  simulate --set limits.max_blocks_per_sm=100000 --kernel synthetic:blocks=1,threads=32,duration=1us)
gpusched_cli_test(simulate_set_wrong_type 2 stderr "^gpusched: --set memory.dram_bandwidth_gbps=fast: key 'memory.dram_bandwidth_gbps': expected a number"
                  simulate --set memory.dram_bandwidth_gbps=fast --kernel synthetic:blocks=1,threads=32,duration=1us)
gpusched_cli_test(simulate_set_no_value 2 stderr "^gpusched: --set: expected KEY=VALUE"
                  simulate --set sm_count --kernel synthetic:blocks=1,threads=32,duration=1us)
gpusched_cli_test(simulate_set_twice 2 stderr "^gpusched: --set sm_count=8: key 'sm_count' is already set by --sms"
                  simulate --sms 4 --set sm_count=8 --kernel synthetic:blocks=1,threads=32,duration=1us)
gpusched_cli_test(occupancy_set 0 stdout "Blocks per SM  4" occupancy --set max_blocks_per_sm=4 --threads 64)
gpusched_cli_test(sweep_sms_walk 0 stdout "\n0,h100,walk,auto,syn,64,fixed,151968.760,1,265,3,[^\n]*,\n1,h100,walk,auto,syn,132,fixed,101782.000,1,265,2,"
                  sweep sweep_sms_walk.yaml -j 1 --quiet)
# A 128-block GEMM measured at 120 us on the full h100 (one block per SM): two waves at 96 SMs; the duration-only note.
gpusched_cli_test(simulate_kernel_measured_whatif 0 stdout "note +launch 0 \\(kernel\\): duration-only rule.*     0  kernel       0     128      256          1      2 .* 241\\.800"
                  simulate --sms 96 --kernel kernel:blocks=128,threads=256,smem=200000,measured=120us,measured_gpu=h100)
gpusched_cli_test(simulate_kernel_notes_json 0 stdout "\"notes\":\\[\"launch 0 \\(kernel\\): duration-only rule"
                  simulate --json --kernel kernel:blocks=128,threads=256,smem=200000,measured=120us,measured_gpu=h100)
gpusched_cli_test(simulate_kernel_hand 0 stdout "execution  shared.*makespan"
                  simulate --kernel kernel:blocks=264,threads=128,warp_instr=5000,warp_latency_cycles=2000)
# The labels an import writes (docs/importing.md "Work from the trace"): a bad value is exit 2 naming the key.
gpusched_cli_test(simulate_kernel_bad_family 2 stderr "key 'family'.*expected one of gemm, conv.*got 'matmul'"
                  simulate --kernel kernel:blocks=128,threads=256,measured=20us,measured_gpu=h100,family=matmul)
gpusched_cli_test(simulate_kernel_bad_dtype 2 stderr "key 'dtype'.*got 'float32'"
                  simulate --kernel kernel:blocks=128,threads=256,measured=20us,measured_gpu=h100,dtype=float32)
gpusched_cli_test(simulate_kernel_negative_flops 2 stderr "key 'flops'"
                  simulate --kernel kernel:blocks=128,threads=256,measured=20us,measured_gpu=h100,flops=-5)
gpusched_cli_test(simulate_kernel_no_work 2 stderr "^gpusched: --kernel: kernel 'kernel': give each warp's work"
                  simulate --kernel kernel:blocks=4,threads=32)

# Cluster occupancy (docs/gpu-spec.md "clusters"): 1024-thread blocks in clusters of 4 on the h100:
# groups of 8, 5 x 16 and 2 x 18 SMs at 2 blocks per SM hold 4 + 40 + 18 = 62 clusters.
gpusched_cli_test(occupancy_cluster 0 stdout "Clusters +62 active clusters of 4 blocks"
                  occupancy --gpu h100 --threads 1024 --cluster 4)
gpusched_cli_test(occupancy_cluster_json 0 stdout "\"max_active_clusters\": 58"
                  occupancy --json --gpu h100 --threads 128 --cluster 16 --cluster-nonportable)
gpusched_cli_test(occupancy_cluster_old_gpu 2 stderr "--cluster: thread-block clusters need compute capability 9.0 or newer; GPU 'a100' is 8.0"
                  occupancy --gpu a100 --threads 1024 --cluster 4)
gpusched_cli_test(occupancy_cluster_too_big 2 stderr "--cluster: a cluster of 16 blocks is over the portable limit of 8 on h100"
                  occupancy --gpu h100 --threads 1024 --cluster 16)
gpusched_cli_test(occupancy_cluster_shape 2 stderr "--cluster: expected a cluster shape N, XxY or XxYxZ with each dimension 1..16, got '2x0'"
                  occupancy --gpu h100 --threads 1024 --cluster 2x0)
gpusched_cli_test(occupancy_cluster_nonportable_alone 2 stderr "--cluster-nonportable: give --cluster SHAPE too"
                  occupancy --gpu h100 --threads 1024 --cluster-nonportable)

# --- simulate --explain, --gantt, --all-launches (docs/explain.md) ---
# 265 blocks of 32 warps, 2 per SM on 132 SMs: one full wave of 264 and a partial wave of 1 block.
gpusched_cli_test(simulate_explain_waves 0 stdout "1 full wave of 264 blocks, then a partial wave of 1 block.*131 SMs get no block"
                  simulate --kernel synthetic:blocks=265,threads=1024,duration=50us --explain)
# SM-time 132 x 101.782 us; the lone block of the second wave leaves 131 SMs and half of one idle for 50 us: the tail.
gpusched_cli_test(simulate_explain_account 0 stdout "SM-time = 132 SMs x 101.782 us = 13435.224 SM-us.*    tail +6589.553 SM-us  49.0%"
                  simulate --kernel synthetic:blocks=265,threads=1024,duration=50us --explain)
gpusched_cli_test(simulate_explain_json 0 stdout "\"time_account\":\\{\"sm_count\":132,\"makespan_ps\":101782000,\"total_ps\":13435224000,"
                  simulate --kernel synthetic:blocks=265,threads=1024,duration=50us --explain --json)
# 255 registers: 1 block of 8 warps per SM; 128 registers give 2.
gpusched_cli_test(simulate_explain_lift 0 stdout "limited by registers.*at most 128 registers per thread \\(now 255\\) give 2 blocks per SM"
                  simulate --kernel synthetic:blocks=400,threads=256,regs=255,duration=10us --explain)
gpusched_cli_test(simulate_binds_column 0 stdout "end_us  binds\n +0  synthetic .* duration"
                  simulate --kernel synthetic:blocks=265,threads=1024,duration=50us)
gpusched_cli_test(simulate_binds_json 0 stdout "\"binds\":\"l1\",\"terms_ns\":\\{\"issue\":"
                  simulate --kernel apsp-minplus:n=1000,block=16,regs=32 --json)
# ceil(log2(99)) = 7 identical launches of a 7 x 7 grid: one row, unless --all-launches.
gpusched_cli_test(simulate_grouped_launches 0 stdout "    0         7  apsp-minplus       0      49 .*7 launches in 1 row"
                  simulate --kernel apsp-minplus:n=100,block=16)
gpusched_cli_test(simulate_all_launches 0 stdout "     6  apsp-minplus       0      49"
                  simulate --kernel apsp-minplus:n=100,block=16 --all-launches)
gpusched_cli_test(simulate_gantt_svg 0 stdout "makespan" simulate --kernel apsp-minplus:n=100,block=16
                  --gantt ${CMAKE_CURRENT_BINARY_DIR}/g.svg)
# gpusched_cli_file_test(NAME FILE REGEX ARG...): exit 0 and FILE (written in the build's cli folder) matches REGEX.
function(gpusched_cli_file_test name file regex)
  add_test(NAME cli.${name}
           COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gpusched> "-DARGS=${ARGN}" -DEXPECT_CODE=0 -DSTREAM=stdout
                   -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR} -DOUTPUT_FILE=${file} "-DOUTPUT_REGEX=${regex}"
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_cli.cmake)
endfunction()
# A host timeline: a lane per host thread in the Gantt chart, a "Host" process in the trace, per-thread waits in JSON.
gpusched_cli_file_test(simulate_gantt_host_lanes host_lanes.svg ">host main<.*>host blocked \\(sync wait, full queue\\)<"
                       simulate --workload ${PROJECT_SOURCE_DIR}/examples/host-timeline.yaml --gantt host_lanes.svg --quiet)
gpusched_cli_file_test(simulate_trace_host_track host_track.json
                       "\"name\":\"Host\".*\"name\":\"host main\".*\"name\":\"sync stream 0\",\"cat\":\"host\""
                       simulate --workload ${PROJECT_SOURCE_DIR}/examples/host-timeline.yaml --trace host_track.json --quiet)
gpusched_cli_test(simulate_json_host_threads 0 stdout "\"host_threads\":\\[{\"thread\":\"main\",\"launches\":5,\"syncs\":1,.*\"sync_wait_ns\":75624.571"
                  simulate --workload ${PROJECT_SOURCE_DIR}/examples/host-timeline.yaml --json --quiet)
gpusched_cli_test(simulate_help_examples 0 stdout "Examples:.*--explain.*--gantt run.html" simulate --help)
gpusched_cli_test(simulate_gantt_bad_name 2 stderr "--gantt: expected a file name ending in .html or .svg, got 'g.png'"
                  simulate --gantt g.png)
gpusched_cli_test(simulate_gantt_empty 2 stderr "--gantt" simulate --gantt "")
gpusched_cli_test(simulate_gantt_unwritable 2 stderr "--gantt: cannot write" simulate --gantt /nonexistent/dir/g.svg)
gpusched_cli_test(simulate_gantt_bad_colour 2 stderr "--gantt-colour: expected kernel or stream, got 'launch'"
                  simulate --gantt g.svg --gantt-colour launch)
gpusched_cli_test(simulate_gantt_colour_alone 2 stderr "--gantt-colour colours the chart of --gantt; give --gantt"
                  simulate --gantt-colour stream)
add_test(NAME cli.deterministic_explain
         COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gpusched> -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}/determinism_explain
                 "-DSPEC=apsp-minplus:n=300,block=16" -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_explain_determinism.cmake)

# Thread-block clusters and SM partitions (docs/workloads.md): bad shapes and partitions exit 2 naming the key.
gpusched_cli_test(simulate_cluster_not_dividing 2 stderr "key 'cluster': a cluster of 4x1x1 blocks does not divide the grid 130x1x1"
                  simulate --gpu h100 --kernel synthetic:blocks=130,threads=256,duration=10us,cluster=4)
gpusched_cli_test(simulate_cluster_below_cc90 2 stderr "key 'cluster': thread-block clusters need compute capability 9.0 or newer; GPU 'a100' is 8.0"
                  simulate --gpu a100 --kernel synthetic:blocks=128,threads=256,duration=10us,cluster=4)
gpusched_cli_test(simulate_cluster_over_portable 2 stderr "key 'cluster': a cluster of 16 blocks is over the portable limit of 8 on h100 \\(up to 16 with the non-portable attribute\\)"
                  simulate --gpu h100 --kernel synthetic:blocks=128,threads=256,duration=10us,cluster=16)
# 128 blocks of 256 threads in clusters of 16 (non-portable): one wave, 8 blocks per SM, 10 us blocks.
gpusched_cli_test(simulate_cluster_nonportable 0 stdout "     0  synthetic       0     128      256          8      1 .*11.640"
                  simulate --gpu h100 --kernel synthetic:blocks=128,threads=256,duration=10us,cluster=16,cluster_nonportable=1)
gpusched_cli_test(simulate_partition_not_multiple 2 stderr "partitions_not_multiple.yaml:2: key 'partitions\\[0\\]': a partition of 20 SMs is not a positive multiple of 8"
                  simulate --gpu h100 --workload partitions_not_multiple.yaml)
gpusched_cli_test(simulate_partitions_too_many 2 stderr "key 'partitions': partitions of 144 SMs in all are more than the 128 SMs green contexts can take on h100"
                  simulate --gpu h100 --workload partitions_too_many.yaml)
# Two partitions of 64 SMs, 128 blocks of 1024 threads each (2 per SM): each fills its own 64 SMs in one
# wave, side by side; SMs 128..131 are in neither (min 0 blocks per SM).
gpusched_cli_test(simulate_partitions_two 0 stdout "blocks per SM  min 0 / mean 1.939 / max 2"
                  simulate --gpu h100 --workload partitions_two.yaml)

# Every command that simulates takes the GPU's defaults.policy when --policy is not given, as simulate does.
gpusched_cli_test(curve_gpu_default_policy 0 stdout "on c2050-round-robin-default \\(policy round-robin,"
                  curve --gpu round_robin_default_gpu.yaml --kernel apsp-minplus:block=8 --n 50..51)
gpusched_cli_test(tune_gpu_default_policy 0 stdout "on c2050-round-robin-default \\(round-robin, exec"
                  tune --gpu round_robin_default_gpu.yaml --kernel binomial-series:blocks=28 --param threads=64,128)
gpusched_cli_test(curve_policy_flag_wins 0 stdout "on c2050-round-robin-default \\(policy most-room,"
                  curve --gpu round_robin_default_gpu.yaml --kernel apsp-minplus:block=8 --n 50..51 --policy most-room)

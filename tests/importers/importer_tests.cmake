# Importer tests (included from tests/CMakeLists.txt): the library's doctests (test_importers) and the command
# line's `gpusched import` tests (exit codes and messages), which run in tests/cli/data like the others.
file(GLOB importer_tests CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/importers/*_test.cpp)
add_executable(test_importers ${importer_tests})
target_include_directories(test_importers PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(test_importers PRIVATE gpusched_importers gpusched_scheduler gpusched_sim gpusched_doctest_main ZLIB::ZLIB)
target_compile_definitions(test_importers PRIVATE GPUSCHED_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
                                                   GPUSCHED_TEST_TMP="${CMAKE_CURRENT_BINARY_DIR}/importers")
gpusched_test_headers(test_importers)
add_test(NAME importers COMMAND test_importers)

set(IMPORT_DATA ../../importers/data)
set(IMPORT_OUT ${CMAKE_CURRENT_BINARY_DIR}/importers)
file(MAKE_DIRECTORY ${IMPORT_OUT})

gpusched_cli_test(import_help 0 stdout "torch.*cupti.*ncu" import --help)
gpusched_cli_test(import_torch_help 0 stdout "--steps.*gpusched import torch validation/data/h100/torch/transformer_k132.json.gz" import torch --help)
# two_streams.json: 6 kernels, an HtoD and a DtoH copy, a memset, 4 host gaps, one cuda_sync stream wait,
# a stream and a device synchronisation (tests/importers/imported_application_test.cpp walks through it).
gpusched_cli_test(import_torch 0 stdout "imported 6 kernels, 2 copies, 1 memsets/device copies, 1 host threads, 1 cross-stream waits, 2 host syncs on 2 streams \\(GPU preset h100, steps all\\)"
                  import torch ${IMPORT_DATA}/two_streams.json --out ${IMPORT_OUT}/cli_two_streams.yaml)
gpusched_cli_test(import_torch_frozen 0 stdout "imported 6 kernels, 2 copies, 1 memsets/device copies, 4 host gaps, 1 cross-stream waits, 2 host syncs on 2 streams"
                  import torch ${IMPORT_DATA}/two_streams.json --frozen-gaps --out ${IMPORT_OUT}/cli_two_streams_frozen.yaml)
gpusched_cli_test(import_torch_gz_steps 0 stdout "imported 3 kernels.*steps 2-2 of ProfilerStep#1..#2"
                  import torch ${IMPORT_DATA}/two_streams.json.gz --steps 2 --out ${IMPORT_OUT}/cli_step2.yaml
                  --timeline ${IMPORT_OUT}/cli_step2.csv)
gpusched_cli_test(import_cupti 0 stdout "imported 3 kernels"
                  import cupti ${IMPORT_DATA}/cupti_recording.json --out ${IMPORT_OUT}/cli_cupti.yaml)
gpusched_cli_test(import_unknown_device_as_preset 0 stdout "GPU preset h100"
                  import torch ${IMPORT_DATA}/unknown_device.json --gpu h100 --out ${IMPORT_OUT}/cli_unknown.yaml)
# h100_pcie_device.json: two_streams' events on an "NVIDIA H100 PCIe" (114 SMs), a name of the h100-pcie preset.
gpusched_cli_test(import_device_name 0 stdout "GPU preset h100-pcie"
                  import torch ${IMPORT_DATA}/h100_pcie_device.json --out ${IMPORT_OUT}/cli_pcie.yaml)

# host_bad_calls.json: kernel k1 starts 2 us before its call (clocks), call 2 (107 us) overlaps call 1 (105..109 us)
# by 2 us, call 3 has no kernel (3 us), kernel k4 has no call: imported, each noted on standard error.
gpusched_cli_test(import_host_notes 0 stderr "1 GPU operations start before their host call \\(the clocks disagree by up to 2.0 us\\).*1 GPU operations without their host call.*1 launch or copy calls without a GPU operation on device 0 \\(3 us of CPU time"
                  import torch ${IMPORT_DATA}/host_bad_calls.json --gpu h100 --out ${IMPORT_OUT}/cli_host_notes.yaml)
gpusched_cli_test(import_host_overlap 0 stderr "1 host calls start before the previous call of their thread ended \\(traceEvents\\[3\\] starts before traceEvents\\[1\\] of host thread 5 ended, ...; 2.0 us in all\\)"
                  import torch ${IMPORT_DATA}/host_bad_calls.json --gpu h100 --out ${IMPORT_OUT}/cli_host_overlap.yaml)
gpusched_cli_test(import_shared_correlation 2 stderr "host_shared_correlation.json: traceEvents\\[2\\] and traceEvents\\[0\\]: two host calls that do not nest share correlation id 1"
                  import torch ${IMPORT_DATA}/host_shared_correlation.json --gpu h100 --out ${IMPORT_OUT}/never.yaml)
# --- bad input: exit 2 naming the file and the event, line or flag ---
gpusched_cli_test(import_unknown_device 2 stderr
                  "unknown_device.json: deviceProperties\\[0\\]: device 'NVIDIA RTX PRO 6000 Blackwell Server Edition' \\(cc 12.0, 188 SMs\\) matches no GPU preset; give --gpu PRESET to import it as one \\(presets: c1060, .*h100, .*b200; gpusched list gpus\\)"
                  import torch ${IMPORT_DATA}/unknown_device.json --out ${IMPORT_OUT}/never.yaml)
gpusched_cli_test(import_truncated_gzip 2 stderr "truncated.json.gz: truncated gzip stream \\(the file ends after 1000 bytes"
                  import torch ${IMPORT_DATA}/truncated.json.gz --out ${IMPORT_OUT}/never.yaml)
gpusched_cli_test(import_corrupt_gzip 2 stderr "corrupt.json.gz: corrupt gzip data near compressed byte"
                  import torch ${IMPORT_DATA}/corrupt.json.gz --out ${IMPORT_OUT}/never.yaml)
gpusched_cli_test(import_not_a_trace 2 stderr "tiny_gpu.yaml: not valid JSON at text byte"
                  import torch tiny_gpu.yaml --out ${IMPORT_OUT}/never.yaml)
gpusched_cli_test(import_missing_trace 2 stderr "nope.json: cannot read trace"
                  import torch nope.json --out ${IMPORT_OUT}/never.yaml)
gpusched_cli_test(import_missing_step 2 stderr "--steps: .*two_streams.json: no ProfilerStep#5 \\(the trace has ProfilerStep#1..#2\\)"
                  import torch ${IMPORT_DATA}/two_streams.json --steps 5-7 --out ${IMPORT_OUT}/never.yaml)
gpusched_cli_test(import_bad_steps 2 stderr "--steps: expected all, N or A-B \\(ProfilerStep numbers\\), got 'last'"
                  import torch ${IMPORT_DATA}/two_streams.json --steps last --out ${IMPORT_OUT}/never.yaml)
gpusched_cli_test(import_reversed_steps 2 stderr "--steps: expected A-B with A <= B, got '3-1'" import torch ${IMPORT_DATA}/two_streams.json
                  --steps 3-1 --out ${IMPORT_OUT}/never.yaml)
gpusched_cli_test(import_bad_gpu 2 stderr "--gpu: unknown GPU preset 'h1000'" import torch ${IMPORT_DATA}/two_streams.json --gpu h1000
                  --out ${IMPORT_OUT}/never.yaml)
gpusched_cli_test(import_bad_min_delay 2 stderr "--min-delay" import torch ${IMPORT_DATA}/two_streams.json --min-delay 5
                  --out ${IMPORT_OUT}/never.yaml)
gpusched_cli_test(import_wrong_device 2 stderr "--device 3: no GPU work on that device" import torch ${IMPORT_DATA}/two_streams.json
                  --device 3 --out ${IMPORT_OUT}/never.yaml)
gpusched_cli_test(import_out_is_input 2 stderr "--out: .*is also an input" import torch ${IMPORT_DATA}/two_streams.json
                  --out ${IMPORT_DATA}/two_streams.json)
gpusched_cli_test(import_same_outputs 2 stderr "--timeline: .*is also the file of --out" import torch ${IMPORT_DATA}/two_streams.json
                  --out ${IMPORT_OUT}/same.yaml --timeline ${IMPORT_OUT}/same.yaml)
gpusched_cli_test(import_ncu_other_program 2 stderr "ncu_other_program.csv:5: kernel row 1 \\(ID 0\\) 'conv2d_kernel'.*does not match kernel 1"
                  import ncu ${IMPORT_DATA}/ncu_other_program.csv --workload ${IMPORT_DATA}/two_streams.yaml --out ${IMPORT_OUT}/never.yaml)
gpusched_cli_test(import_ncu_short 2 stderr "ncu_short.csv:10: the CSV ends after 5 kernel rows"
                  import ncu ${IMPORT_DATA}/ncu_short.csv --workload ${IMPORT_DATA}/two_streams.yaml --out ${IMPORT_OUT}/never.yaml)
gpusched_cli_test(import_ncu_out_is_workload 2 stderr "--out: .*is also an input"
                  import ncu ${IMPORT_DATA}/two_streams_ncu.csv --workload ${IMPORT_DATA}/two_streams.yaml --out ${IMPORT_DATA}/two_streams.yaml)
gpusched_cli_test(import_ncu 0 stdout "joined 6 Nsight Compute rows"
                  import ncu ${IMPORT_DATA}/two_streams_ncu.csv --workload ${IMPORT_DATA}/two_streams.yaml --out ${IMPORT_OUT}/cli_ncu.yaml)

# Golden file, determinism, gzip = plain, and import -> simulate --workload (tests/importers/round_trip.sh).
add_test(NAME importers.round_trip
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/importers/round_trip.sh $<TARGET_FILE:gpusched> ${PROJECT_SOURCE_DIR}
                 ${CMAKE_CURRENT_BINARY_DIR}/importers/round_trip)

# Kernel families and work totals (docs/importing.md "Kernel families", "Work from the trace"): the summary
# lines per family, the counted notes of bad shapes, and the rule table.
gpusched_cli_test(import_shapes_families 0 stdout
                  "family conv: 1 kernel, 0.005 ms; from data 1 \\(0.005 ms\\) \\[shapes 1, profiler-flops 0\\], on a rule 0"
                  import torch ${IMPORT_DATA}/shapes.json --out ${IMPORT_OUT}/cli_shapes.yaml)
gpusched_cli_test(import_shapes_notes 0 stderr "note: 1 kernel without totals from shapes: zero elements \\(elementwise 1\\); duration only"
                  import torch ${IMPORT_DATA}/shapes.json --out ${IMPORT_OUT}/cli_shapes_notes.yaml)
gpusched_cli_test(import_no_shapes_bandwidth 0 stdout "family elementwise_scalar: 1 kernel, 0.010 ms.*on a rule 1 \\(0.010 ms\\) \\[bandwidth-rule 0, duration 1\\].*family copy: 1 kernel.*on a rule 1 \\(0.030 ms\\) \\[bandwidth-rule 1, duration 0\\]"
                  import torch ${IMPORT_DATA}/no_shapes.json --out ${IMPORT_OUT}/cli_no_shapes.yaml)
gpusched_cli_test(list_kernel_families 0 stdout "nchwtonhwc.*copy.*elementwise" list kernel-families)

# Memory guards: peak resident memory of runs that were per-launch or per-slot heavy (issue 18).
# Each runs gpusched under tests/memory/peak_rss.cpp, which fails when the run fails or its peak RSS
# (getrusage of the child) exceeds the limit. Release builds were at 26 MiB (100000 SMs) and 50 MiB
# (100000 launches) when written; before, the first tried to allocate over 16 GB and the second took
# 256 MiB (680 MiB with policy walk, which memoises nothing). Not registered in sanitizer builds:
# AddressSanitizer's shadow memory and quarantine make RSS meaningless there (the runs themselves
# are still covered by the CLI tests).
if(NOT GPUSCHED_SANITIZE)
  add_executable(peak_rss ${CMAKE_CURRENT_SOURCE_DIR}/memory/peak_rss.cpp)
  set(GPUSCHED_MEMORY_DATA ${CMAKE_CURRENT_SOURCE_DIR}/memory)
  add_test(NAME memory.sm_count_100000_one_block
           COMMAND peak_rss 100 $<TARGET_FILE:gpusched> simulate --gpu ${GPUSCHED_MEMORY_DATA}/gpu_100000_sms.yaml
                   --kernel synthetic:blocks=1,threads=32,duration=1us)
  add_test(NAME memory.launches_100000_repeat
           COMMAND peak_rss 100 $<TARGET_FILE:gpusched> simulate --workload ${GPUSCHED_MEMORY_DATA}/repeat_100000.yaml)
  add_test(NAME memory.launches_100000_unmemoised
           COMMAND peak_rss 100 $<TARGET_FILE:gpusched> simulate --workload ${GPUSCHED_MEMORY_DATA}/repeat_100000.yaml
                   --policy walk)
  add_test(NAME memory.launches_100000_spec
           COMMAND peak_rss 100 $<TARGET_FILE:gpusched> simulate
                   --kernel streamcluster:points=1024,dims=4,calls=100000,copy=none --json)
  # A launch and two copies per call (300000 operations): 49 MiB when written, 115 MiB before the compact
  # operations, launch records and summary rows (docs/performance.md).
  add_test(NAME memory.launches_100000_spec_copies
           COMMAND peak_rss 80 $<TARGET_FILE:gpusched> simulate
                   --kernel streamcluster:points=1024,dims=4,calls=100000 --json)
  set_tests_properties(memory.sm_count_100000_one_block memory.launches_100000_repeat
                       memory.launches_100000_unmemoised memory.launches_100000_spec
                       memory.launches_100000_spec_copies PROPERTIES TIMEOUT 120)
endif()

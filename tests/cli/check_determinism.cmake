# Runs the same simulation twice and requires byte-identical JSON, timeline CSV and trace; then
# replays the timeline with the same policy and requires the same makespan (used by cli_tests.cmake).
# -DEXE=path -DWORKDIR=dir -DSPEC=kernel-spec -DPOLICY=name
include(${CMAKE_CURRENT_LIST_DIR}/require_identical_runs.cmake)
file(MAKE_DIRECTORY ${WORKDIR}/a ${WORKDIR}/b)
foreach(run a b)
  execute_process(COMMAND ${EXE} simulate --kernel ${SPEC} --policy ${POLICY} --json
                          --timeline ${WORKDIR}/${run}/timeline.csv --trace ${WORKDIR}/${run}/trace.json
                  OUTPUT_FILE ${WORKDIR}/${run}/summary.json RESULT_VARIABLE code TIMEOUT 120)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "simulate failed with ${code}")
  endif()
endforeach()
require_identical_runs(${WORKDIR} summary.json timeline.csv trace.json)
file(READ ${WORKDIR}/a/summary.json summary)
string(REGEX MATCH "\"makespan_ns\":[0-9.]+" original "${summary}")
string(REGEX MATCH "threads=([0-9]+)" _ "${SPEC}")
set(threads ${CMAKE_MATCH_1})
set(regs 0)
if(SPEC MATCHES "regs=([0-9]+)")
  set(regs ${CMAKE_MATCH_1})
endif()
execute_process(COMMAND ${EXE} simulate --replay ${WORKDIR}/a/timeline.csv --threads ${threads} --regs ${regs} --policy ${POLICY} --json
                OUTPUT_VARIABLE replayed RESULT_VARIABLE code TIMEOUT 120)
string(REGEX MATCH "\"makespan_ns\":[0-9.]+" again "${replayed}")
if(NOT code EQUAL 0 OR NOT original STREQUAL again OR original STREQUAL "")
  message(FATAL_ERROR "replay of the timeline gave ${again} (exit ${code}); the run gave ${original}")
endif()
message(STATUS "identical outputs; replay makespan ${again}")

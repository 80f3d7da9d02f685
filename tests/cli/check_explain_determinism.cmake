# Runs `simulate --explain` with --gantt (HTML and SVG) twice and requires byte-identical text, JSON and charts.
# -DEXE=path -DWORKDIR=dir -DSPEC=kernel-spec
include(${CMAKE_CURRENT_LIST_DIR}/require_identical_runs.cmake)
file(MAKE_DIRECTORY ${WORKDIR}/a ${WORKDIR}/b)
foreach(run a b)
  execute_process(COMMAND ${EXE} simulate --kernel ${SPEC} --explain --gantt ${WORKDIR}/${run}/gantt.html
                  OUTPUT_FILE ${WORKDIR}/${run}/explain.txt RESULT_VARIABLE code TIMEOUT 120)
  execute_process(COMMAND ${EXE} simulate --kernel ${SPEC} --explain --json --gantt ${WORKDIR}/${run}/gantt.svg
                          --gantt-colour stream
                  OUTPUT_FILE ${WORKDIR}/${run}/explain.json RESULT_VARIABLE code2 TIMEOUT 120)
  if(NOT code EQUAL 0 OR NOT code2 EQUAL 0)
    message(FATAL_ERROR "simulate --explain failed with ${code} / ${code2}")
  endif()
endforeach()
require_identical_runs(${WORKDIR} explain.txt explain.json gantt.html gantt.svg)
file(READ ${WORKDIR}/a/explain.json summary)
if(NOT summary MATCHES "\"time_account\":\\{\"sm_count\":132")
  message(FATAL_ERROR "no time_account in the --explain --json output")
endif()
message(STATUS "identical explanations and charts")

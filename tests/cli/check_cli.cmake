# Runs one gpusched command and checks its exit code and output (used by cli_tests.cmake).
# -DEXE=path -DARGS=a;b;c -DEXPECT_CODE=N -DEXPECT_REGEX=re [-DSTREAM=stdout|stderr] [-DWORKDIR=dir]
# [-DSTDOUT_FILE=path]: standard output goes to that file (e.g. /dev/full) instead of being read
if(NOT WORKDIR)
  set(WORKDIR ".")
endif()
if(STDOUT_FILE)
  execute_process(COMMAND ${EXE} ${ARGS} RESULT_VARIABLE code OUTPUT_FILE ${STDOUT_FILE} ERROR_VARIABLE err
                  WORKING_DIRECTORY ${WORKDIR} TIMEOUT 180)
  set(out "")
else()
  execute_process(COMMAND ${EXE} ${ARGS} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err
                  WORKING_DIRECTORY ${WORKDIR} TIMEOUT 180)
endif()
if(NOT "${code}" STREQUAL "${EXPECT_CODE}")
  message(FATAL_ERROR "exit code ${code}, expected ${EXPECT_CODE}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(STREAM STREQUAL "stdout")
  set(text "${out}")
else()
  set(text "${err}")
endif()
if(DEFINED EXPECT_REGEX AND NOT text MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "${STREAM} does not match '${EXPECT_REGEX}'\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(EXPECT_CODE STREQUAL "2" AND err MATCHES "\n.*\n.*\n.*\n")
  message(FATAL_ERROR "bad-input message longer than a short note:\n${err}")
endif()

# require_identical_runs(WORKDIR FILES...): fails unless every file is byte-identical in WORKDIR/a and WORKDIR/b.
function(require_identical_runs workdir)
  foreach(file ${ARGN})
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${workdir}/a/${file} ${workdir}/b/${file}
                    RESULT_VARIABLE differ)
    if(differ)
      message(FATAL_ERROR "${file} differs between two identical runs")
    endif()
  endforeach()
endfunction()

# The lessons (docs/tutorials): every quoted number checked against its command, every picture redrawn.
add_test(NAME tutorials
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tutorials/check_lessons.sh $<TARGET_FILE:gpusched>
                 ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/tutorials)
set_tests_properties(tutorials PROPERTIES TIMEOUT 120)

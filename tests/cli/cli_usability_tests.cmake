# Command-line usability: every command's --help has runnable examples, a misspelt flag or command gets
# the nearest known one suggested, preset names match in any case, old output-flag names still work.

# gpusched_help_examples_test(NAME [MAY_SKIP_ALL] [WITH_VALIDATION] COMMAND WORD...): `gpusched WORDS --help`
# has an Examples section whose lines run (those reading files absent from tests/cli/data and examples/
# are skipped; WITH_VALIDATION also links the repository's validation/ there, for commands whose
# examples read its measurements quickly).
function(gpusched_help_examples_test name)
  set(may_skip_all 0)
  set(validation "")
  set(words ${ARGN})
  foreach(option MAY_SKIP_ALL WITH_VALIDATION)
    set(first "")
    if(words)
      list(GET words 0 first)
    endif()
    if(first STREQUAL "MAY_SKIP_ALL")
      set(may_skip_all 1)
      list(POP_FRONT words)
    elseif(first STREQUAL "WITH_VALIDATION")
      set(validation ${PROJECT_SOURCE_DIR}/validation)
      list(POP_FRONT words)
    endif()
  endforeach()
  add_test(NAME cli.help_examples.${name}
           COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gpusched> "-DCOMMAND=${words}" -DDATA=${GPUSCHED_CLI_DATA}
                   -DEXAMPLES=${PROJECT_SOURCE_DIR}/examples -DVALIDATION=${validation}
                   -DSCRATCH=${CMAKE_CURRENT_BINARY_DIR}/help_examples_${name}
                   -DMAY_SKIP_ALL=${may_skip_all} -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_help_examples.cmake)
endfunction()

gpusched_help_examples_test(gpusched)
gpusched_help_examples_test(simulate simulate)
gpusched_help_examples_test(predict predict)
gpusched_help_examples_test(curve curve)
gpusched_help_examples_test(calibrate calibrate)
gpusched_help_examples_test(calibrate_series calibrate series)
gpusched_help_examples_test(calibrate_interval WITH_VALIDATION calibrate interval)
# Its example fits a key to the measured streamcluster runs under validation/data (seconds).
gpusched_help_examples_test(calibrate_key WITH_VALIDATION calibrate key)
gpusched_help_examples_test(tune tune)
gpusched_help_examples_test(sweep sweep)
# The examples write the shard parts, then merge them.
gpusched_help_examples_test(merge merge)
gpusched_help_examples_test(plot plot)
gpusched_help_examples_test(validate WITH_VALIDATION validate)
# Importing needs a profiler trace, which tests/cli/data does not hold (tests/importers has the small ones).
gpusched_help_examples_test(import MAY_SKIP_ALL import)
gpusched_help_examples_test(import_torch MAY_SKIP_ALL import torch)
gpusched_help_examples_test(import_cupti MAY_SKIP_ALL import cupti)
gpusched_help_examples_test(import_ncu MAY_SKIP_ALL import ncu)
gpusched_help_examples_test(occupancy occupancy)
gpusched_help_examples_test(list list)
gpusched_help_examples_test(list_gpus list gpus)
gpusched_help_examples_test(list_policies list policies)
gpusched_help_examples_test(list_workloads list workloads)
gpusched_help_examples_test(show show)
gpusched_help_examples_test(show_gpu show gpu)
gpusched_help_examples_test(show_work show work)

# A misspelt flag: the nearest flag of that command, exit 2; one nowhere near: the command's --help.
gpusched_cli_test(unknown_flag_suggests 2 stderr "^gpusched simulate: unknown flag --polcy \\(did you mean --policy\\?\\)\n$"
                  simulate --polcy walk)
gpusched_cli_test(unknown_flag_with_value 2 stderr "^gpusched occupancy: unknown flag --thread \\(did you mean --threads\\?\\)\n$"
                  occupancy --thread=64)
gpusched_cli_test(unknown_flag_subcommand 2 stderr "^gpusched calibrate key: unknown flag --rang \\(did you mean --range\\?\\)"
                  calibrate key --data x.csv --kernel k --key k --rang 0:1)
gpusched_cli_test(unknown_flag_far 2 stderr "^gpusched curve: unknown flag --frobnicate \\(run gpusched curve --help for its flags\\)"
                  curve --frobnicate --kernel apsp-minplus --n 50..60)
gpusched_cli_test(unknown_command_suggests 2 stderr "^gpusched: unknown command 'simulat' \\(did you mean simulate\\?\\) \\(commands: simulate,"
                  simulat)
gpusched_cli_test(unknown_subcommand_suggests 2 stderr "^gpusched list: unknown subcommand 'gpu' \\(did you mean gpus\\?\\) \\(expected gpus, policies, workloads, kernel-families\\)"
                  list gpu)

# Preset names in any case; outputs name the preset as its file does.
gpusched_cli_test(preset_upper_case 0 stdout "Blocks per SM  8" occupancy --gpu H100 --threads 256 --regs 32)
gpusched_cli_test(preset_mixed_case_show 0 stdout "name: gtx480" show gpu GTX480)
gpusched_cli_test(preset_upper_case_simulate 0 stdout "gpu +c2075" simulate --gpu C2075 --kernel apsp-minplus:n=121,block=8)
gpusched_cli_test(preset_upper_case_measured_gpu 0 stdout "makespan"
                  simulate --kernel kernel:blocks=128,threads=256,measured=120us,measured_gpu=H100)

# --exec: when not given, every simulating command runs the GPU's defaults.execution (here set by
# --set to fixed), as simulate does; without it, a preset's stated auto (shared for APSP's per-warp work).
gpusched_cli_test(exec_default_curve 0 stdout "\\(policy most-room, exec fixed\\)"
                  curve --gpu c2075 --set defaults.execution=fixed --kernel apsp-minplus:block=8 --n 64..65)
gpusched_cli_test(exec_default_curve_preset 0 stdout "\\(policy most-room, exec shared\\)"
                  curve --gpu c2075 --kernel apsp-minplus:block=8 --n 64..65)
gpusched_cli_test(exec_default_tune 0 stdout "\\(most-room, exec fixed\\)"
                  tune --set defaults.execution=fixed --kernel binomial-series:blocks=264 --param threads=64,128)
gpusched_cli_test(exec_default_simulate 0 stdout "execution +fixed"
                  simulate --gpu c2075 --set defaults.execution=fixed --kernel apsp-minplus:n=121,block=8)
gpusched_cli_test(exec_given_wins 0 stdout "\\(policy most-room, exec shared\\)"
                  curve --gpu c2075 --set defaults.execution=fixed --exec shared --kernel apsp-minplus:block=8 --n 64..65)

# plot says what it wrote. sweep_small_results.csv: 7 rows without an error over 3 thread counts;
# makespan_ns up to about 1e4-1e5 ns, so microseconds.
gpusched_cli_test(plot_says_what 0 stderr "^gpusched plot: wrote [^\n]*plot_note\\.svg \\(SVG\\): 3 lines, 7 points: makespan \\(us\\) over blocks\n$"
                  plot sweep_small_results.csv --x blocks --y makespan_ns --series threads --out ${CMAKE_CURRENT_BINARY_DIR}/plot_note.svg)
gpusched_cli_test(plot_says_what_heatmap 0 stderr "^gpusched plot: wrote [^\n]*plot_note\\.html \\(an HTML page holding the SVG\\): heatmap of makespan \\(us\\) over blocks \\(columns\\) x threads \\(rows\\), 7 x 3 cells, 7 with a value\n$"
                  plot sweep_small_results.csv --heatmap --x blocks --y threads --value makespan_ns --out ${CMAKE_CURRENT_BINARY_DIR}/plot_note.html)

# Chart units by magnitude: APSP on the C2075 at n = 999..1000 runs for milliseconds, at n = 50 for microseconds.
gpusched_cli_test(curve_svg_ms 0 stdout ">time \\(ms\\)<"
                  curve --gpu c2075 --kernel apsp-minplus:block=8 --n 999..1000 --svg /dev/stdout)
gpusched_cli_test(curve_svg_us 0 stdout ">time \\(us\\)<"
                  curve --gpu c2075 --kernel apsp-minplus:block=8 --n 50..51 --svg /dev/stdout)
gpusched_cli_test(tune_svg_unit 0 stdout ">simulated run time \\(us\\)<"
                  tune --kernel binomial-series:blocks=264 --param threads=64,128 --svg /dev/stdout)

# Progress: on a terminal only (validate's sections, calibrate's simulations); nothing on a pipe.
add_test(NAME cli.terminal_progress COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_terminal_progress.sh
         $<TARGET_FILE:gpusched> ${PROJECT_SOURCE_DIR} ${GPUSCHED_CLI_DATA})
gpusched_cli_test(calibrate_quiet_off_terminal 0 stderr "^$" calibrate series --data calibrate_series_small.csv)

# core/analysis: kernel statistics, GPU idle gaps, launch latency, and strata-cli summary.
foreach(unit kernel_stats gpu_gaps launch_latency trace_summary correlation op_stats call_tree)
  strata_add_qtest(tst_${unit} SOURCES tst_${unit}.cpp analysis_trace_fixture.h LIBS strata_core)
endforeach()

# Two runs compared (core/analysis/compare/trace_diff.h): matching, the noise rules, the order.
strata_add_qtest(tst_trace_diff SOURCES tst_trace_diff.cpp analysis_trace_fixture.h LIBS strata_core)

# strata-cli summary on hand-made fixtures (tests/data/analysis/*.json), errors and usage.
strata_add_qtest(tst_cli_summary SOURCES tst_cli_summary.cpp process_run.h LIBS strata_core)
target_compile_definitions(tst_cli_summary PRIVATE STRATA_CLI="$<TARGET_FILE:strata-cli>")
add_dependencies(tst_cli_summary strata-cli)

# strata-cli summary --json against an independent python computation on every real trace in
# ../shared/traces (skipped, exit 77, where that folder is absent).
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  set(_summary_py ${CMAKE_CURRENT_SOURCE_DIR}/data/analysis/expected_summary.py)
  set(_shared_traces ${PROJECT_SOURCE_DIR}/../shared/traces)
  file(GLOB _real_traces CONFIGURE_DEPENDS ${_shared_traces}/*.json ${_shared_traces}/*.gz)
  if(_real_traces)
    foreach(trace ${_real_traces})
      get_filename_component(_trace_name ${trace} NAME)
      string(REGEX REPLACE "[^A-Za-z0-9_]" "_" _trace_id "${_trace_name}")
      add_test(NAME summary_real_${_trace_id}
               COMMAND ${Python3_EXECUTABLE} ${_summary_py} --gap-threshold-us 10 --gap-threshold-us 1
                       --gap-threshold-us 0 --check $<TARGET_FILE:strata-cli> ${trace})
      set_tests_properties(summary_real_${_trace_id} PROPERTIES
        LABELS "real_traces" SKIP_RETURN_CODE 77 TIMEOUT 600)
      # strata-cli gaps agrees with the summary: per-cause sums = the device gaps over 10 µs.
      add_test(NAME gaps_real_${_trace_id}
               COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/data/analysis/check_gaps_consistency.py
                       $<TARGET_FILE:strata-cli> ${trace})
      set_tests_properties(gaps_real_${_trace_id} PROPERTIES
        LABELS "real_traces" SKIP_RETURN_CODE 77 TIMEOUT 600)
      # Steps nest as the user means them (issue 28): each ProfilerStep's self time and the GPU
      # ops launched inside it against an independent nesting of the raw events.
      add_test(NAME steps_real_${_trace_id}
               COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/data/analysis/check_step_nesting.py
                       $<TARGET_FILE:strata-cli> ${trace})
      set_tests_properties(steps_real_${_trace_id} PROPERTIES
        LABELS "real_traces" SKIP_RETURN_CODE 77 TIMEOUT 600)
      # Each gap's breakdown sums to its length and equals an independent sweep of the trace.
      add_test(NAME gap_breakdown_real_${_trace_id}
               COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/data/analysis/check_gap_breakdown.py
                       $<TARGET_FILE:strata-cli> ${trace})
      set_tests_properties(gap_breakdown_real_${_trace_id} PROPERTIES
        LABELS "real_traces" SKIP_RETURN_CODE 77 TIMEOUT 600)
    endforeach()
    # strata-cli diff against a copy with planted changes (a kernel 20 % slower, one added, a
    # CPU op removed): exactly those found, totals worked out by the script.
    set(_diff_trace ${_shared_traces}/hta__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz)
    add_test(NAME diff_planted_real
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/data/analysis/check_diff_planted.py
                     $<TARGET_FILE:strata-cli> ${_diff_trace})
    set_tests_properties(diff_planted_real PROPERTIES
      LABELS "real_traces" SKIP_RETURN_CODE 77 TIMEOUT 600)
  else()
    add_test(NAME summary_real_traces
             COMMAND ${Python3_EXECUTABLE} ${_summary_py} --check $<TARGET_FILE:strata-cli> ${_shared_traces})
    set_tests_properties(summary_real_traces PROPERTIES LABELS "real_traces" SKIP_RETURN_CODE 77)
  endif()
endif()

# Why the GPU waited: a cause for every gap over the threshold, and strata-cli gaps (issue 18).
strata_add_qtest(tst_gap_causes SOURCES tst_gap_causes.cpp analysis_trace_fixture.h
                 LIBS strata_core nlohmann_json::nlohmann_json)
add_dependencies(tst_gap_causes strata-cli)

# Where each gap's time went and the cause that follows (issue 27), the clock checks both ways,
# and the advisor ranked by what each finding saves; fixtures with their truth worked out by hand.
strata_add_qtest(tst_gap_breakdown SOURCES tst_gap_breakdown.cpp analysis_trace_fixture.h
                 LIBS strata_core)
strata_add_qtest(tst_clock_checks SOURCES tst_clock_checks.cpp analysis_trace_fixture.h
                 LIBS strata_core nlohmann_json::nlohmann_json)
add_dependencies(tst_clock_checks strata-cli)
strata_add_qtest(tst_advisor SOURCES tst_advisor.cpp analysis_trace_fixture.h LIBS strata_core)

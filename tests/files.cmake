# Files Strata reads and writes (issue 42): util/output_file (never half a file, never one it was
# not asked to touch), util/input_file (regular files only, never blocking), and the same rules
# through strata-cli (convert, digest, export, summary, ranks onto and from devices, FIFOs and
# links) and the trace cache (its key, its folder, a file replaced while it loads).
strata_add_qtest(tst_output_file SOURCES tst_output_file.cpp LIBS strata_core)
strata_add_qtest(tst_trace_cache_safety SOURCES tst_trace_cache_safety.cpp LIBS strata_core
                 LABELS real_traces)
strata_add_qtest(tst_cli_outputs SOURCES tst_cli_outputs.cpp LIBS strata_core)
if(TARGET tst_cli_outputs)
  target_compile_definitions(tst_cli_outputs PRIVATE STRATA_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
                             STRATA_CLI="$<TARGET_FILE:strata-cli>")
  add_dependencies(tst_cli_outputs strata-cli)
endif()
# A set read through the trace cache (issue 43): served from it the second time, in core and
# through strata-cli --cache ranks / diff.
strata_add_qtest(tst_trace_set_cache SOURCES tst_trace_set_cache.cpp rank_set_fixture.h
                 process_run.h LIBS strata_core)
if(TARGET tst_trace_set_cache)
  target_compile_definitions(tst_trace_set_cache PRIVATE STRATA_CLI="$<TARGET_FILE:strata-cli>")
  add_dependencies(tst_trace_set_cache strata-cli)
endif()

# Model files and the trace cache (issue 33): io/snapshot (strata-cli convert), io/cache, the
# first picture while loading (io/load_preview.h).
strata_add_qtest(tst_trace_snapshot SOURCES tst_trace_snapshot.cpp LIBS strata_core
                 LABELS real_traces)
if(TARGET tst_trace_snapshot)
  target_compile_definitions(tst_trace_snapshot PRIVATE STRATA_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
                             STRATA_CLI="$<TARGET_FILE:strata-cli>")
  add_dependencies(tst_trace_snapshot strata-cli)
endif()
# Hostile model files (issue 42): overlapping and missing parts, headers the file cannot back,
# values no build makes.
strata_add_qtest(tst_snapshot_hostile SOURCES tst_snapshot_hostile.cpp LIBS strata_core)
strata_add_qtest(tst_trace_cache SOURCES tst_trace_cache.cpp LIBS strata_core LABELS real_traces)

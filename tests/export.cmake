# Perfetto JSON export (core/io/export, strata-cli export): round trips, the importer checklist
# (tests/data/export/check_perfetto_json.py, python3), range export, bad outputs.
strata_add_qtest(tst_export SOURCES tst_export.cpp LIBS strata_core)
if(TARGET tst_export)
  target_compile_definitions(tst_export PRIVATE STRATA_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  add_dependencies(tst_export strata-cli)
  set_tests_properties(tst_export PROPERTIES LABELS "real_traces")
endif()
# The export at its edges (issue 34): counters past 2^64, in-kernel sections as per-SM slices,
# ids at the ends of their ranges, SIGINT/SIGTERM during strata-cli export.
strata_add_qtest(tst_export_edges SOURCES tst_export_edges.cpp LIBS strata_core)
if(TARGET tst_export_edges)
  add_dependencies(tst_export_edges strata-cli)
endif()
if(TARGET strata_app_gui)
  strata_add_qtest(tst_export_gui SOURCES tst_export_gui.cpp LIBS strata_app_gui)
  target_compile_definitions(tst_export_gui PRIVATE
    STRATA_SAMPLE_TRACE="${PROJECT_SOURCE_DIR}/resources/sample_trace.json")
endif()

# Perfetto JSON export (core/io/export, strata-cli export): round trips, the importer checklist
# (tests/data/export/check_perfetto_json.py, python3), range export, bad outputs.
strata_add_qtest(tst_export SOURCES tst_export.cpp LIBS strata_core)
if(TARGET tst_export)
  target_compile_definitions(tst_export PRIVATE STRATA_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  add_dependencies(tst_export strata-cli)
  set_tests_properties(tst_export PROPERTIES LABELS "real_traces")
endif()

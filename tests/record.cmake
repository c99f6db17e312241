# The .strata format, the launcher (core/record) and `strata-cli record`.
strata_add_qtest(tst_strata_format SOURCES tst_strata_format.cpp LIBS strata_core)
strata_add_qtest(tst_strata_parallel_load SOURCES tst_strata_parallel_load.cpp LIBS strata_core)

# A stand-in target that writes its own .strata file through the writer, as the collector would.
add_executable(record_fake_target ${CMAKE_CURRENT_SOURCE_DIR}/record_fake_target.cpp)
target_link_libraries(record_fake_target PRIVATE strata_writer)
set_target_properties(record_fake_target PROPERTIES AUTOMOC OFF)

strata_add_qtest(tst_launcher SOURCES tst_launcher.cpp LIBS strata_core)
if(TARGET tst_launcher)
  add_dependencies(tst_launcher record_fake_target strata-cli)
endif()

# What was run is part of the trace: the Run record, appending it, `strata-cli info` (issue 15).
strata_add_qtest(tst_run_record SOURCES tst_run_record.cpp LIBS strata_core nlohmann_json::nlohmann_json)
if(TARGET tst_run_record)
  add_dependencies(tst_run_record strata-cli)
endif()
# The Launch dialog's arguments, split as a POSIX shell splits them (core/util/shell_words).
strata_add_qtest(tst_shell_words SOURCES tst_shell_words.cpp LIBS strata_core)

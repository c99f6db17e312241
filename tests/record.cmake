# The .strata format, the launcher (core/record) and `strata-cli record`.
strata_add_qtest(tst_strata_format SOURCES tst_strata_format.cpp LIBS strata_core)
strata_add_qtest(tst_strata_damage SOURCES tst_strata_damage.cpp LIBS strata_core)
strata_add_qtest(tst_strata_parallel_load SOURCES tst_strata_parallel_load.cpp LIBS strata_core)

# A stand-in target that writes its own .strata file through the writer, as the collector would.
add_executable(record_fake_target ${CMAKE_CURRENT_SOURCE_DIR}/record_fake_target.cpp)
target_link_libraries(record_fake_target PRIVATE strata_writer)
set_target_properties(record_fake_target PROPERTIES AUTOMOC OFF)

strata_add_qtest(tst_launcher SOURCES tst_launcher.cpp LIBS strata_core)
if(TARGET tst_launcher)
  add_dependencies(tst_launcher record_fake_target strata-cli)
endif()
strata_add_qtest(tst_launcher_options SOURCES tst_launcher_options.cpp LIBS strata_core)
if(TARGET tst_launcher_options)
  add_dependencies(tst_launcher_options record_fake_target strata-cli)
endif()

# Nothing lost, nothing hung (issue 34): each run completes only the files its own processes
# wrote (its run id), a trace that cannot be written is refused up front; the target's process
# group: signals reach its children, strata-cli forwards to it and keeps Ctrl-C in a terminal.
strata_add_qtest(tst_run_files SOURCES tst_run_files.cpp LIBS strata_core)
strata_add_qtest(tst_process_group SOURCES tst_process_group.cpp LIBS strata_core)
foreach(_t tst_run_files tst_process_group)
  if(TARGET ${_t})
    add_dependencies(${_t} record_fake_target strata-cli)
  endif()
endforeach()

# What was run is part of the trace: the Run record, appending it, `strata-cli info` (issue 15).
strata_add_qtest(tst_run_record SOURCES tst_run_record.cpp LIBS strata_core nlohmann_json::nlohmann_json)
if(TARGET tst_run_record)
  add_dependencies(tst_run_record strata-cli)
endif()
# The Launch dialog's arguments, split as a POSIX shell splits them (core/util/shell_words).
strata_add_qtest(tst_shell_words SOURCES tst_shell_words.cpp LIBS strata_core)

# Profiling from the GUI: Launch dialog, configurations, console, Stop, the trace opening
# (issue 15); the helper programs are tests/record_fake_target and sh.
if(TARGET strata_app_gui)
  strata_add_qtest(tst_launch SOURCES tst_launch.cpp LIBS strata_app_gui)
  add_dependencies(tst_launch record_fake_target)
endif()
# Stop and quit reach the target's whole process group; the GUI quits politely on SIGTERM.
if(TARGET strata_app_gui)
  strata_add_qtest(tst_stop_group SOURCES tst_stop_group.cpp LIBS strata_app_gui)
  add_dependencies(tst_stop_group strata)
  # `strata --launch` leaves nothing in TMPDIR: the console's log (issue 42).
  strata_add_qtest(tst_launch_temp_files SOURCES tst_launch_temp_files.cpp)
  add_dependencies(tst_launch_temp_files strata)
endif()
if(TARGET tst_screenshot)
  add_dependencies(tst_screenshot record_fake_target) # `strata --launch --run --screenshot`
endif()
# GPU (label gpu): the GUI launch path on kernels/samples/launch_gaps; skips without a GPU.
if(TARGET strata_app_gui)
  strata_add_qtest(tst_gpu_launch SOURCES tst_gpu_launch.cpp LIBS strata_app_gui LABELS gpu)
  target_compile_definitions(tst_gpu_launch PRIVATE
    STRATA_SAMPLES_DIR="${PROJECT_BINARY_DIR}/kernels/samples")
  if(TARGET strata_collector)
    add_dependencies(tst_gpu_launch strata_collector)
  endif()
  set_tests_properties(tst_gpu_launch PROPERTIES SKIP_REGULAR_EXPRESSION "SKIP   : TestGpuLaunch::initTestCase")
endif()

# Recordings that never destroy each other (issue 42): colliding output names leave one good file
# and one clear error, --force never replaces a live recording's file nor follows a link, a
# copied run id is not adopted, a killed strata-cli takes its target along.
strata_add_qtest(tst_record_isolation SOURCES tst_record_isolation.cpp LIBS strata_core)
if(TARGET tst_record_isolation)
  add_dependencies(tst_record_isolation record_fake_target strata-cli)
endif()

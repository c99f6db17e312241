# Collector tests. The schedule test is pure C++; the others build the collector a second time
# against the stand-in CUPTI (tests/fake_cupti, real CUPTI headers) and run scenarios in child
# processes (tests/collector_harness.cpp), reading the .strata files back with loadTrace.
# GPU tests (label gpu) record the samples in kernels/samples through strata-cli record; they
# skip with a message where no GPU is present.
strata_add_qtest(tst_collector_schedule
  SOURCES tst_collector_schedule.cpp ${PROJECT_SOURCE_DIR}/kernels/collector/capture_schedule.cpp)
if(TARGET tst_collector_schedule)
  target_include_directories(tst_collector_schedule PRIVATE ${PROJECT_SOURCE_DIR}/kernels/collector)
endif()

strata_add_qtest(tst_collector_units
  SOURCES tst_collector_units.cpp
          ${PROJECT_SOURCE_DIR}/kernels/collector/buffer_pool.cpp
          ${PROJECT_SOURCE_DIR}/kernels/collector/collector_config.cpp
          ${PROJECT_SOURCE_DIR}/kernels/collector/capture_schedule.cpp
  LIBS strata_core)
if(TARGET tst_collector_units)
  target_include_directories(tst_collector_units PRIVATE ${PROJECT_SOURCE_DIR}/kernels/collector)
  if(TARGET strata_collector) # CUPTI headers present: also test the NVTX callback decoding
    target_sources(tst_collector_units PRIVATE ${PROJECT_SOURCE_DIR}/kernels/collector/nvtx_events.cpp)
    target_include_directories(tst_collector_units PRIVATE ${CUDAToolkit_INCLUDE_DIRS})
    target_compile_definitions(tst_collector_units PRIVATE STRATA_HAVE_CUPTI_HEADERS)
  endif()
endif()

if(TARGET strata_collector)
  add_library(fake_cupti SHARED fake_cupti/fake_cupti.cpp)
  target_include_directories(fake_cupti PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/fake_cupti ${CUDAToolkit_INCLUDE_DIRS})
  set_target_properties(fake_cupti PROPERTIES AUTOMOC OFF)
  strata_add_collector(strata_collector_fake fake_cupti)

  add_executable(collector_harness collector_harness.cpp collector_harness_process.cpp)
  target_include_directories(collector_harness PRIVATE ${CUDAToolkit_INCLUDE_DIRS}
                                                       ${PROJECT_SOURCE_DIR}/kernels/include)
  target_link_libraries(collector_harness PRIVATE strata_collector_fake fake_cupti)
  set_target_properties(collector_harness PROPERTIES AUTOMOC OFF)

  # tst_collector: the recordings; tst_collector_process: forks and signals.
  foreach(_t tst_collector tst_collector_process)
    strata_add_qtest(${_t} SOURCES ${_t}.cpp LIBS strata_core)
    if(TARGET ${_t})
      add_dependencies(${_t} collector_harness strata_collector)
      target_compile_definitions(${_t} PRIVATE
        STRATA_COLLECTOR_HARNESS="$<TARGET_FILE:collector_harness>"
        STRATA_COLLECTOR_SO="$<TARGET_FILE:strata_collector>"
        STRATA_COLLECTOR_FAKE_SO="$<TARGET_FILE:strata_collector_fake>")
      if(TARGET strata-cli)
        add_dependencies(${_t} strata-cli)
        target_compile_definitions(${_t} PRIVATE STRATA_CLI="$<TARGET_FILE:strata-cli>")
      endif()
    endif()
  endforeach()

  strata_add_qtest(tst_gpu_record SOURCES tst_gpu_record.cpp LIBS strata_core LABELS gpu)
  if(TARGET tst_gpu_record AND TARGET strata-cli)
    target_compile_definitions(tst_gpu_record PRIVATE
      STRATA_CLI="$<TARGET_FILE:strata-cli>"
      STRATA_SAMPLES_DIR="${PROJECT_BINARY_DIR}/kernels/samples")
    add_dependencies(tst_gpu_record strata-cli strata_collector)
    # No GPU: initTestCase skips everything; CTest then reports the test as skipped, not passed.
    set_tests_properties(tst_gpu_record PROPERTIES SKIP_REGULAR_EXPRESSION "SKIP   : TestGpuRecord::initTestCase")
  endif()
endif()

# In-kernel timer sections: statistics, the timer-array imports (.npy, .csv, .json), the host
# helper's .sections file, the .strata Sections record and strata-cli sections, with values
# computed by hand; the device header compiled through NVRTC (where the CUDA toolkit is).
strata_add_qtest(tst_sections SOURCES tst_sections.cpp npy_fixture.h LIBS strata_core)
if(TARGET tst_sections)
  target_compile_definitions(tst_sections PRIVATE STRATA_CLI="$<TARGET_FILE:strata-cli>")
  add_dependencies(tst_sections strata-cli)
  if(STRATA_HAVE_CUDA)
    # The host helper's file hand-over (no CUDA call is made: only its header-only host part).
    target_include_directories(tst_sections PRIVATE ${CUDAToolkit_INCLUDE_DIRS}
                                                    ${PROJECT_SOURCE_DIR}/kernels/include)
    target_compile_definitions(tst_sections PRIVATE STRATA_HAVE_CUDA_HEADERS)
    target_link_libraries(tst_sections PRIVATE ${CMAKE_DL_LIBS})
  endif()
  if(TARGET strata_collector_fake) # the helper finds a collector the driver dlopen()ed
    add_dependencies(tst_sections strata_collector_fake)
    target_compile_definitions(tst_sections PRIVATE
      STRATA_COLLECTOR_FAKE_SO="$<TARGET_FILE:strata_collector_fake>")
  endif()
endif()
# At their limits (issue 34): torn .sections files, section ids and counts that must not size
# anything, the SM slot layout's cost, 1e400 in a timer JSON.
strata_add_qtest(tst_sections_limits SOURCES tst_sections_limits.cpp LIBS strata_core)
if(TARGET tst_sections_limits)
  target_compile_definitions(tst_sections_limits PRIVATE STRATA_CLI="$<TARGET_FILE:strata-cli>")
  add_dependencies(tst_sections_limits strata-cli)
endif()

if(STRATA_HAVE_CUDA AND TARGET CUDA::nvrtc)
  # sections.cuh through NVRTC (no GPU needed to compile): marks become clock, globaltimer, smid
  # reads and one atomic; with STRATA_SECTIONS=0 none of them remain.
  strata_add_qtest(tst_sections_nvrtc SOURCES tst_sections_nvrtc.cpp LIBS CUDA::nvrtc)
  target_compile_definitions(tst_sections_nvrtc PRIVATE
    STRATA_KERNELS_INCLUDE="${PROJECT_SOURCE_DIR}/kernels/include")
endif()

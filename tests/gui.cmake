# Main window, panels and the analyses behind them (core/analysis/slice_search, range_aggregation).
strata_add_qtest(tst_range_aggregation SOURCES tst_range_aggregation.cpp LIBS strata_core)
strata_add_qtest(tst_slice_search SOURCES tst_slice_search.cpp LIBS strata_core)

# The main window and its panels, driven through real widgets on the offscreen platform.
if(TARGET strata_widgets)
  strata_add_qtest(tst_time_text SOURCES tst_time_text.cpp LIBS strata_widgets)
  strata_add_qtest(tst_job_runner SOURCES tst_job_runner.cpp LIBS strata_widgets)
endif()
if(TARGET strata_app_gui)
  strata_add_qtest(tst_gpu_in_view SOURCES tst_gpu_in_view.cpp LIBS strata_app_gui)
  target_compile_definitions(tst_gpu_in_view PRIVATE
    STRATA_SAMPLE_TRACE="${PROJECT_SOURCE_DIR}/resources/sample_trace.json")
  strata_add_qtest(tst_main_window SOURCES tst_main_window.cpp LIBS strata_app_gui)
  # What a user sees first, on the real traces at 1600x900 (issue 28).
  strata_add_qtest(tst_first_view SOURCES tst_first_view.cpp LIBS strata_app_gui)
  set_tests_properties(tst_first_view PROPERTIES LABELS "real_traces" TIMEOUT 600)
  # Gap red follows idle time at every zoom (issue 21).
  strata_add_qtest(tst_gap_drawing SOURCES tst_gap_drawing.cpp LIBS strata_app_gui)
  strata_add_qtest(tst_main_window_views SOURCES tst_main_window_views.cpp LIBS strata_app_gui)
  # The trace cache and the first picture while loading (issue 33).
  strata_add_qtest(tst_trace_cache_gui SOURCES tst_trace_cache_gui.cpp LIBS strata_app_gui
                   LABELS real_traces)
  foreach(_t tst_main_window tst_main_window_views tst_trace_cache_gui)
    target_compile_definitions(${_t} PRIVATE
      STRATA_SAMPLE_TRACE="${PROJECT_SOURCE_DIR}/resources/sample_trace.json")
  endforeach()
endif()

# strata --screenshot under Xvfb on a real trace (skips when xvfb-run is missing).
if(TARGET strata)
  strata_add_qtest(tst_screenshot SOURCES tst_screenshot.cpp LIBS Qt6::Gui)
  target_compile_definitions(tst_screenshot PRIVATE
    STRATA_GUI_BIN="$<TARGET_FILE:strata>"
    STRATA_SAMPLE_TRACE="${PROJECT_SOURCE_DIR}/resources/sample_trace.json")
  add_dependencies(tst_screenshot strata)
  # strata with no display: --screenshot falls back to offscreen, the rest say so (issue 42).
  strata_add_qtest(tst_no_display SOURCES tst_no_display.cpp LIBS Qt6::Gui)
  target_compile_definitions(tst_no_display PRIVATE
    STRATA_GUI_BIN="$<TARGET_FILE:strata>"
    STRATA_SAMPLE_TRACE="${PROJECT_SOURCE_DIR}/resources/sample_trace.json")
  add_dependencies(tst_no_display strata)
endif()

# The Sections dock (tables cell by cell, chart export, SM timeline raster) and the timeline's
# in-kernel section lanes, on a recording written by the test.
if(TARGET strata_app_gui)
  strata_add_qtest(tst_sections_view SOURCES tst_sections_view.cpp npy_fixture.h
                   LIBS strata_app_gui)
  # An imported timer array analysed as iterations, figure by figure against strata-cli.
  strata_add_qtest(tst_sections_array SOURCES tst_sections_array.cpp npy_fixture.h
                   LIBS strata_app_gui)
  target_compile_definitions(tst_sections_array PRIVATE STRATA_CLI="$<TARGET_FILE:strata-cli>")
  add_dependencies(tst_sections_array strata-cli)
  # File > Import Timer Sections…: the names and clock rate asked, remembered per file.
  strata_add_qtest(tst_sections_import_dialog SOURCES tst_sections_import_dialog.cpp
                   LIBS strata_app_gui)
endif()

# The Gaps dock: table cell by cell, totals, row click, range restriction, export (issue 18).
if(TARGET strata_widgets)
  strata_add_qtest(tst_gaps_view SOURCES tst_gaps_view.cpp analysis_trace_fixture.h LIBS strata_widgets)
  # Names and numbers a user reads (issue 28): short kernel names, 4 significant digits with
  # the exact value on hover and in CSV, number columns never elided (Qwen/H100 trace).
  strata_add_qtest(tst_names_numbers SOURCES tst_names_numbers.cpp LIBS strata_widgets)
endif()

# The Console dock's memory bound: lines without a newline are cut and said so (issue 34).
if(TARGET strata_widgets)
  strata_add_qtest(tst_console_panel SOURCES tst_console_panel.cpp LIBS strata_widgets)
endif()

# Two runs compared in one window: the Compare dock and the timelines one above the other.
if(TARGET strata_app_gui)
  strata_add_qtest(tst_compare_window SOURCES tst_compare_window.cpp LIBS strata_app_gui)
  target_compile_definitions(tst_compare_window PRIVATE
    STRATA_SAMPLE_TRACE="${PROJECT_SOURCE_DIR}/resources/sample_trace.json")
endif()

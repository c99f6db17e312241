# Timeline: level-of-detail summary (core), time axis and ruler, and the TimelineView widget.
strata_add_qtest(tst_timeline_lod SOURCES tst_timeline_lod.cpp LIBS strata_core)
if(TARGET strata_widgets)
  strata_add_qtest(tst_timeline_axis SOURCES tst_timeline_axis.cpp LIBS strata_widgets)
  strata_add_qtest(tst_timeline_view SOURCES tst_timeline_view.cpp LIBS strata_widgets)
  # Folded levels (issue 28).
  strata_add_qtest(tst_level_folds SOURCES tst_level_folds.cpp LIBS strata_widgets)
  # Counter samples that are not finite: the scale and the drawn bars (issue 42).
  strata_add_qtest(tst_counter_painting SOURCES tst_counter_painting.cpp LIBS strata_widgets)
endif()

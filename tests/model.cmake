# The core model (TraceBuilder, Trace, ArgStore, StringPool).
strata_add_qtest(tst_trace_builder SOURCES tst_trace_builder.cpp LIBS strata_core)
strata_add_qtest(tst_arg_store SOURCES tst_arg_store.cpp LIBS strata_core)
strata_add_qtest(tst_build_steps SOURCES tst_build_steps.cpp LIBS strata_core)
strata_add_qtest(tst_slice_nesting SOURCES tst_slice_nesting.cpp LIBS strata_core)
# Short display names (core/model/names/display_name.h) on real kernel names and traces.
strata_add_qtest(tst_display_name SOURCES tst_display_name.cpp LIBS strata_core)

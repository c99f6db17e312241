# Main window, panels and the analyses behind them (core/analysis/slice_search, range_aggregation).
strata_add_qtest(tst_range_aggregation SOURCES tst_range_aggregation.cpp LIBS strata_core)
strata_add_qtest(tst_slice_search SOURCES tst_slice_search.cpp LIBS strata_core)

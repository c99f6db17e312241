# Chrome/Kineto JSON reader: hand-written fixtures (tests/data/json/), real traces in
# ../shared/traces (skipped when absent), the synthetic generator and fuzz regressions.
foreach(unit chrome_json_reader json_decimal synthetic_trace fuzz_regressions json_real_traces hostile_input json_damage)
  strata_add_qtest(tst_${unit} SOURCES tst_${unit}.cpp LIBS strata_core ZLIB::ZLIB)
endforeach()
# One input path: every format recognised by content (core/io/trace_reader.h).
strata_add_qtest(tst_trace_readers SOURCES tst_trace_readers.cpp LIBS strata_core ZLIB::ZLIB)
# Counter samples that are not finite, skipped and counted by the JSON and .strata readers
# (issue 42).
strata_add_qtest(tst_nonfinite_counters SOURCES tst_nonfinite_counters.cpp LIBS strata_core)

#pragma once
#include <string>
#include <vector>

namespace strata::bench {
using Args = std::vector<std::string>;
int load(const Args& args);       // bench_load.cpp: strata-bench load FILE
int loadSet(const Args& args);    // bench_load_set.cpp: strata-bench load-set FILE...
int render(const Args& args);     // bench_render.cpp: strata-bench render FILE [--size WxH]
int exportJson(const Args& args); // bench_export.cpp: strata-bench export FILE OUT [--gzip]
int sections(const Args& args);   // bench_sections.cpp: strata-bench sections FILE.strata
int docks(const Args& args);      // bench_docks.cpp: strata-bench docks FILE (GUI)
int open(const Args& args);       // bench_open.cpp: strata-bench open FILE (GUI)
int names(const Args& args);      // bench_names.cpp: strata-bench names FILE
int find(const Args& args);       // bench_find.cpp: strata-bench find FILE [QUERY...]
int query(const Args& args);      // bench_query.cpp: strata-bench query FILE [SQL...]
} // namespace strata::bench

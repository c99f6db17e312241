// Placeholder until strata-bench load lands.
#include "bench_commands.h"

#include <cstdio>

int strata::bench::load(const Args&) {
    std::fprintf(stderr, "strata-bench load: not built yet\n");
    return 2;
}

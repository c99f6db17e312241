// strata-bench: benchmarks that print one JSON object of numbers each.
#include "bench_commands.h"

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
    const std::string cmd = argc > 1 ? argv[1] : "";
    const strata::bench::Args args(argv + (argc > 1 ? 2 : 1), argv + argc);
    if (cmd == "load") return strata::bench::load(args);
    if (cmd == "load-set") return strata::bench::loadSet(args);
    if (cmd == "export") return strata::bench::exportJson(args);
    if (cmd == "sections") return strata::bench::sections(args);
    if (cmd == "names") return strata::bench::names(args);
    if (cmd == "find") return strata::bench::find(args);
#ifdef STRATA_HAVE_QUERY
    if (cmd == "query") return strata::bench::query(args);
#endif
#ifdef STRATA_BENCH_RENDER
    if (cmd == "render") return strata::bench::render(args);
    if (cmd == "docks") return strata::bench::docks(args);
    if (cmd == "open") return strata::bench::open(args);
#endif
    std::fprintf(stderr, "usage: strata-bench load FILE [--one-thread] [--preview]\n"
                         "       strata-bench load-set [--threads N] [--release] FILE...\n"
                         "       strata-bench export FILE OUT [--gzip] [--rounds N]\n"
                         "       strata-bench sections FILE.strata [--npy OUT.npy]\n"
                         "       strata-bench names FILE [--rounds N]\n"
                         "       strata-bench find FILE [--rounds N] [QUERY...]\n"
#ifdef STRATA_HAVE_QUERY
                         "       strata-bench query FILE [--rounds N] [SQL...]\n"
#endif
#ifdef STRATA_BENCH_RENDER
                         "       strata-bench render FILE [--size WxH]\n"
                         "       strata-bench docks FILE [--rounds N]\n"
                         "       strata-bench open FILE [--rounds N]\n"
#endif
    );
    return 2;
}

// strata-bench find FILE [--rounds N] [QUERY...]: the find bar's search (analysis/slice_search.h:
// names, fields and args, analysis/arg_filter.h) over a loaded trace. Prints one JSON object:
// the trace's slices, instants and arg sets, and per query what it found and the best of N
// rounds in ms. Without queries: a name, a correlation id (the first GPU op's), grid, dur, an
// arg substring and a name && arg combination.
#include "bench_commands.h"
#include "cpu_steal.h"

#include "analysis/slice_search.h"
#include "io/trace_loader.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

namespace strata::bench {

namespace {

// The correlation id of the first slice that has one ("correlation=N"), or "" for none.
std::string correlationQuery(const Trace& t) {
    for (const Track& tr : t.tracks()) {
        if (tr.kind != TrackKind::GpuStream) continue;
        for (SliceIndex i = 0; i < tr.slices.size(); ++i) {
            const SliceExtra* x = t.extra({TrackId(&tr - t.tracks().data()), i});
            if (x && x->correlation >= 0) return "correlation=" + std::to_string(x->correlation);
        }
    }
    return {};
}

} // namespace

int find(const Args& args) {
    if (args.empty()) {
        std::fprintf(stderr, "usage: strata-bench find FILE [--rounds N] [QUERY...]\n");
        return 2;
    }
    int rounds = 3;
    std::vector<std::string> queries;
    for (size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "--rounds" && i + 1 < args.size())
            rounds = std::max(1, std::stoi(args[++i]));
        else
            queries.push_back(args[i]);
    }
    const LoadResult r = loadTrace(args[0]);
    if (!r.ok()) {
        std::fprintf(stderr, "%s\n", r.error ? r.error->toString().c_str() : "cannot load");
        return 1;
    }
    const Trace& t = *r.trace;
    if (queries.empty()) {
        queries = {"gemm", "grid>1024", "dur>10us", "Input Dims~[1024", "name~gemm && grid>1024"};
        if (std::string c = correlationQuery(t); !c.empty()) queries.insert(queries.begin() + 1, c);
    }
    const CpuSteal steal;
    using Clock = std::chrono::steady_clock;
    std::printf("{\"file\": \"%s\", \"slices\": %zu, \"instants\": %zu, \"arg_sets\": %zu, "
                "\"rounds\": %d, \"queries\": [",
                args[0].c_str(), t.sliceCount(), t.instantCount(), t.argStore().setCount(), rounds);
    for (size_t q = 0; q < queries.size(); ++q) {
        double best = 1e300;
        SliceSearchResult found;
        for (int i = 0; i < rounds; ++i) {
            const auto t0 = Clock::now();
            found = findSlices(t, {queries[q], false, false});
            best = std::min(best,
                            std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        }
        std::printf("%s{\"query\": \"%s\", \"by_args\": %s, \"slices\": %zu, \"instants\": %zu, "
                    "\"ms\": %.1f}",
                    q ? ", " : "", queries[q].c_str(), found.byArgs ? "true" : "false",
                    found.matches.size(), found.instants.size(), best);
    }
    std::printf("], \"steal_percent\": %.1f}\n", steal.percent());
    return 0;
}

} // namespace strata::bench

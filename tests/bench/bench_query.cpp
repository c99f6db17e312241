// strata-bench query FILE [--rounds N] [SQL...]: the query layer (core/query) on a loaded trace.
// Prints one JSON object: the load time, the time to make the engine (what opening the query
// layer adds), and per SQL statement its rows and the best and median of N rounds. Without SQL:
// the two figures, kernels by name and a point lookup by a correlation id the trace has.
#include "bench_commands.h"
#include "cpu_steal.h"

#include "io/trace_loader.h"
#include "query/query_engine.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace strata::bench {

namespace {

class CountRows : public QuerySink {
public:
    uint64_t rows = 0;
    std::string first; // the first row's first value, as text
    void columns(const std::vector<std::string>&) override { rows = 0; }
    bool row(const std::vector<QueryValue>& v) override {
        if (rows++ == 0 && !v.empty()) first = v[0].toString();
        return true;
    }
};

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

int query(const Args& args) {
    if (args.empty()) {
        std::fprintf(stderr, "usage: strata-bench query FILE [--rounds N] [SQL...]\n");
        return 2;
    }
    int rounds = 5;
    std::vector<std::string> sqls;
    for (size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "--rounds" && i + 1 < args.size())
            rounds = std::max(1, std::stoi(args[++i]));
        else
            sqls.push_back(args[i]);
    }
    using Clock = std::chrono::steady_clock;
    auto t0 = Clock::now();
    const LoadResult r = loadTrace(args[0]);
    if (!r.ok()) {
        std::fprintf(stderr, "%s\n", r.error ? r.error->toString().c_str() : "cannot load");
        return 1;
    }
    const double loadMs = msSince(t0);
    const CpuSteal steal;
    t0 = Clock::now();
    QueryEngine engine({QuerySource{r.trace, -1, args[0], nullptr}});
    const double engineMs = msSince(t0);
    if (sqls.empty()) {
        // A correlation id from the middle of the GPU ops.
        CountRows c;
        engine.run("SELECT correlation FROM gpu_ops WHERE correlation IS NOT NULL LIMIT 1 OFFSET "
                   "(SELECT count(*) / 2 FROM gpu_ops)",
                   c);
        sqls = {"SELECT name, count(*), sum(dur) FROM gpu_ops GROUP BY name",
                "SELECT * FROM slices WHERE correlation = " + (c.first.empty() ? "1" : c.first)};
    }
    nlohmann::json out = {{"file", args[0]},
                          {"slices", r.trace->sliceCount()},
                          {"load_s", loadMs / 1000},
                          {"engine_ms", engineMs},
                          {"rounds", rounds}};
    for (const std::string& sql : sqls) {
        std::vector<double> ms;
        CountRows c;
        QueryOutcome o;
        for (int i = 0; i < rounds; ++i) {
            t0 = Clock::now();
            o = engine.run(sql, c);
            ms.push_back(msSince(t0));
        }
        std::sort(ms.begin(), ms.end());
        out["queries"].push_back({{"sql", sql},
                                  {"ok", o.ok},
                                  {"error", o.error},
                                  {"rows", c.rows},
                                  {"best_ms", ms.front()},
                                  {"median_ms", ms[ms.size() / 2]}});
    }
    out["steal_percent"] = steal.percent();
    std::printf("%s\n", out.dump(1).c_str());
    return 0;
}

} // namespace strata::bench

// strata-bench names FILE [--rounds N]: the short display names (model/display_name.h) of a
// trace's slice and instant names. Loads FILE and prints one JSON object: how many names, how
// many of them have a shorter form, the time of the trace's first Trace::displayName (every name
// shortened and told apart once: what the GUI's loading thread adds to a load), and the best of N
// rounds of distinctShortNames over the same names.
#include "bench_commands.h"
#include "cpu_steal.h"

#include "io/trace_loader.h"
#include "model/names/display_name.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <set>
#include <string>

namespace strata::bench {

int names(const Args& args) {
    if (args.empty()) {
        std::fprintf(stderr, "usage: strata-bench names FILE [--rounds N]\n");
        return 2;
    }
    int rounds = 5;
    for (size_t i = 1; i + 1 < args.size(); ++i)
        if (args[i] == "--rounds") rounds = std::max(1, std::stoi(args[i + 1]));
    const LoadResult r = loadTrace(args[0]);
    if (!r.ok()) {
        std::fprintf(stderr, "%s\n", r.error ? r.error->toString().c_str() : "cannot load");
        return 1;
    }
    const Trace& t = *r.trace;
    const CpuSteal steal;
    using Clock = std::chrono::steady_clock;
    auto t0 = Clock::now();
    t.displayName(StringPool::kEmpty); // makes them all
    const double firstMs = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    std::set<StringId> ids;
    for (const Track& tr : t.tracks()) {
        ids.insert(tr.slices.name.begin(), tr.slices.name.end());
        ids.insert(tr.instants.name.begin(), tr.instants.name.end());
    }
    std::vector<std::string_view> names;
    size_t shortened = 0, fullBytes = 0, shortBytes = 0;
    for (StringId id : ids) {
        names.push_back(t.str(id));
        shortened += t.displayName(id) != t.str(id);
        fullBytes += t.str(id).size();
        shortBytes += t.displayName(id).size();
    }
    double best = 1e300;
    for (int i = 0; i < rounds; ++i) {
        t0 = Clock::now();
        const std::vector<std::string> s = distinctShortNames(names);
        best = std::min(best, std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    std::printf("{\"file\": \"%s\", \"names\": %zu, \"shortened\": %zu, \"name_bytes\": %zu, "
                "\"short_name_bytes\": %zu, \"first_display_name_ms\": %.3f, "
                "\"distinct_short_names_ms\": %.3f, \"rounds\": %d, \"steal_percent\": %.1f}\n",
                args[0].c_str(), names.size(), shortened, fullBytes, shortBytes, firstMs, best,
                rounds, steal.percent());
    return 0;
}

} // namespace strata::bench

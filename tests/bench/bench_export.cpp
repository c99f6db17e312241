// strata-bench export FILE OUT [--gzip] [--proto] [--rounds N]: loads FILE, then exports it as
// Perfetto JSON (or, --proto, Perfetto's protobuf) to OUT N times (default 3) and prints one JSON
// object: the bytes written, the best and median seconds of the export (load excluded), MB/s of
// output (10^6 bytes per second), and the CPU time stolen by the host.
// tests/bench/export_vs_json_dumps.sh runs it beside Python's json.dumps of the same events.
#include "bench_commands.h"
#include "cpu_steal.h"

#include "io/export/perfetto_json_export.h"
#include "io/export/perfetto_proto_export.h"
#include "io/trace_loader.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int strata::bench::exportJson(const Args& args) {
    if (args.size() < 2) {
        std::fprintf(stderr,
                     "usage: strata-bench export FILE OUT [--gzip] [--proto] [--rounds N]\n");
        return 2;
    }
    PerfettoExportOptions o;
    int rounds = 3;
    bool proto = false;
    for (size_t i = 2; i < args.size(); ++i) {
        if (args[i] == "--gzip") o.gzip = true;
        if (args[i] == "--proto") proto = true;
        if (args[i] == "--rounds" && i + 1 < args.size())
            rounds = std::max(1, std::atoi(args[++i].c_str()));
    }
    const LoadResult loaded = loadTrace(args[0]);
    if (!loaded.ok()) {
        std::fprintf(stderr, "strata-bench export: %s\n", loaded.error->toString().c_str());
        return 1;
    }
    const CpuSteal steal;
    std::vector<double> secs;
    PerfettoExportResult r;
    for (int k = 0; k < rounds; ++k) {
        const auto t0 = std::chrono::steady_clock::now();
        if (proto) {
            const PerfettoProtoResult p = exportPerfettoProto(*loaded.trace, args[1]);
            r.ok = p.ok;
            r.error = p.error;
            r.events = p.packets;
            r.bytes = r.bytesOut = p.bytes;
        } else {
            r = exportPerfettoJson(*loaded.trace, args[1], o);
        }
        const auto t1 = std::chrono::steady_clock::now();
        if (!r.ok) {
            std::fprintf(stderr, "strata-bench export: %s\n", r.error.c_str());
            return 1;
        }
        secs.push_back(std::chrono::duration<double>(t1 - t0).count());
    }
    std::sort(secs.begin(), secs.end());
    const double median = secs[secs.size() / 2];
    std::printf("{\"file\": \"%s\", \"format\": \"%s\", \"gzip\": %s, \"events\": %llu, "
                "\"json_mb\": %.1f, "
                "\"file_mb\": %.1f, \"rounds\": %d, \"best_s\": %.3f, \"median_s\": %.3f, "
                "\"mb_per_s\": %.0f, \"steal_pct\": %.1f}\n",
                args[0].c_str(), proto ? "perfetto-proto" : "perfetto-json",
                o.gzip ? "true" : "false", static_cast<unsigned long long>(r.events),
                double(r.bytes) / 1e6, double(r.bytesOut) / 1e6, rounds, secs.front(), median,
                double(r.bytes) / 1e6 / median, steal.percent());
    return 0;
}

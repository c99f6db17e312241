// strata-cli query: SQL over one trace or the ranks of a set (core/query/query_engine.h,
// docs/query.md): a table on the terminal, or --json (an array of objects per statement) or
// --csv; --schema prints the tables. Read-only; a syntax error names its position; Ctrl+C or
// --timeout stops a query that runs too long, keeping the rows printed so far.
#include "cli_commands.h"
#include "cli_options.h"
#include "cli_query_output.h"
#include "cli_rank_set.h"

#include "analysis/ranks/rank_identity.h"
#include "query/query_engine.h"
#include "util/terminal_text.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>

namespace strata::cli {

namespace {

const char* const kUsage =
    "usage: strata-cli query [--json | --csv] [--timeout S] [--gap-threshold-us N]\n"
    "                        [--step-name P] \"SQL\" FILE...\n"
    "       strata-cli query --schema [FILE...]\n"
    "\n"
    "SQL over the trace: the tables slices, gpu_ops, api_calls, args, flows, counters, instants,\n"
    "threads, processes, devices, steps, gaps and sections (docs/query.md). Several FILEs are\n"
    "the ranks of a job: each table has a rank column, and ids are unique over the set.\n"
    "Read-only. --timeout S stops the query after S seconds (Ctrl+C stops it too); the rows\n"
    "printed so far stand. --gap-threshold-us and --step-name set what the gaps and steps\n"
    "tables hold (as for summary and gaps).\n"
    "\n"
    "  strata-cli query \"SELECT name, count(*), sum(dur) FROM gpu_ops GROUP BY name\" t.json\n";

std::atomic<bool> gCancel{false};

extern "C" void onInterrupt(int) {
    gCancel.store(true);
}

} // namespace

int query(const Args& args) {
    bool json = false, csv = false, schema = false;
    double timeout = 0;
    std::vector<std::string> positional;
    AnalysisArgs analysis;
    CommandLine line("query", kUsage);
    analysis.declareSettings(line);
    line.flag("--json", &json)
        .flag("--csv", &csv)
        .flag("--schema", &schema)
        .option("--timeout", nonNegativeNumber("--timeout", &timeout))
        .files(&positional, 0, SIZE_MAX, "SQL and FILE");
    if (const auto exit = line.parse(args)) return *exit;
    if (json && csv) return line.usageError("--json and --csv: give one");
    if (!schema && positional.size() < 2) return line.usageError("give the SQL and a FILE");
    const std::string sql = schema ? std::string() : positional[0];
    const std::vector<std::string> files(positional.begin() + (schema ? 0 : 1), positional.end());

    std::vector<QuerySource> sources(files.size());
    if (!forEachTrace("query", files, [&](size_t i, const std::shared_ptr<const Trace>& trace) {
            sources[i].trace = trace;
            sources[i].file = files[i];
            sources[i].analysis = std::make_shared<TraceAnalysis>(trace, analysis.settings);
            if (files.size() > 1)
                sources[i].rank = int32_t(rankIdentity(*trace, files[i], int64_t(i)).rank);
        }))
        return 1;
    QueryEngine engine(std::move(sources));
    if (!engine.ok()) {
        std::fprintf(stderr, "strata-cli query: %s\n", engine.error().c_str());
        return 1;
    }
    if (schema) {
        printSchema(engine, json);
        return 0;
    }
    const std::unique_ptr<QuerySink> sink = json  ? jsonQuerySink(stdout)
                                            : csv ? csvQuerySink(stdout)
                                                  : tableQuerySink(stdout);
    QueryControl control;
    control.cancel = &gCancel;
    const auto start = std::chrono::steady_clock::now();
    if (timeout > 0)
        control.progress = [&](uint64_t) {
            return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() <
                   timeout;
        };
    const auto previous = std::signal(SIGINT, onInterrupt);
    const QueryOutcome out = engine.run(sql, *sink, control);
    std::signal(SIGINT, previous);
    if (!out.ok) {
        std::fprintf(stderr, "strata-cli query: %s\n", terminalSafe(out.error).c_str());
        return out.cancelled ? 130 : 1;
    }
    return 0;
}

} // namespace strata::cli

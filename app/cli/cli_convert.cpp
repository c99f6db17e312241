// strata-cli convert IN OUT.strata: any trace Strata reads, written as a model file (.strata 1.5,
// io/snapshot/trace_snapshot.h): everything the model keeps — slices with their args, flows,
// counters, instants, metadata, warnings, in-kernel sections, the run record — laid out as the
// model holds it, so that opening it is copying it. The trace cache writes the same files.
#include "cli_commands.h"
#include "cli_options.h"
#include "util/terminal_text.h"

#include "io/cache/file_stamp.h"
#include "io/strata/model_file/trace_snapshot.h"
#include "model/trace.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

namespace {

const char* const kUsage =
    "usage: strata-cli convert IN OUT.strata\n"
    "\n"
    "  IN          any trace Strata reads (Chrome/Kineto JSON, gzip'd or not, .strata, ...)\n"
    "  OUT.strata  the model file to write (replaced whole when complete; never half written; a\n"
    "              device or a FIFO with a reader is written into, never replaced)\n"
    "The model file holds everything Strata shows of IN and opens in a fraction of the time\n"
    "(strata OUT.strata, strata-cli summary OUT.strata, ...).\n";

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

namespace strata::cli {

int convert(const Args& args) {
    std::vector<std::string> files;
    CommandLine line("convert", kUsage);
    line.files(&files, 2, 2, "IN and OUT");
    if (const auto exit = line.parse(args)) return *exit;
    const std::string &in = files[0], &out = files[1];
    std::error_code ec;
    if (std::filesystem::equivalent(in, out, ec)) {
        std::fprintf(stderr, "strata-cli convert: IN and OUT are the same file\n");
        return 2;
    }
    const auto stamp = stampFile(in); // recorded in the model file as its source
    const auto t0 = std::chrono::steady_clock::now();
    const LoadResult loaded = loadForCli(in);
    const double loadS = secondsSince(t0);
    if (!loaded.ok()) {
        std::fprintf(stderr, "strata-cli convert: %s\n",
                     terminalSafe(loaded.error ? loaded.error->toString() : in).c_str());
        return 1;
    }
    SnapshotSource source = stamp.value_or(SnapshotSource{});
    source.format = loaded.format;
    const auto t1 = std::chrono::steady_clock::now();
    const std::string error = TraceSnapshot::write(*loaded.trace, out, source);
    if (!error.empty()) {
        std::fprintf(stderr, "strata-cli convert: %s\n", terminalSafe(error).c_str());
        return 1;
    }
    const double writeS = secondsSince(t1);
    const Trace& t = *loaded.trace;
    const auto outBytes = std::filesystem::file_size(out, ec);
    std::fprintf(stderr,
                 "strata-cli convert: %s (%s, %.1f MB) -> %s (%.1f MB): %zu slices, %zu flows, "
                 "%zu counter samples, %zu instants; loaded in %.2f s, written in %.2f s\n",
                 terminalSafe(in).c_str(), loaded.format.c_str(), double(source.size) / 1e6,
                 terminalSafe(out).c_str(), double(outBytes) / 1e6, t.sliceCount(),
                 t.flows().size(), t.counterSampleCount(), t.instantCount(), loadS, writeS);
    return 0;
}

} // namespace strata::cli

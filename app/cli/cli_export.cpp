// strata-cli export --format perfetto-json [--range START:END] [--gzip] IN OUT: any trace Strata
// opens, written as Perfetto / Chrome JSON (core/io/export/perfetto_json_export.h,
// docs/export.md). OUT "-" is standard output. Several INs (the ranks of a job) are written into
// one file on one timeline, with the clock alignment of strata-cli ranks (docs/ranks.md).
#include "cli_commands.h"
#include "cli_options.h"
#include "cli_rank_set.h"
#include "util/terminal_text.h"

#include "analysis/ranks/clock_alignment.h"
#include "analysis/trace_analysis.h"

#include "io/export/export_sink.h"
#include "io/export/perfetto_json_export.h"
#include "io/export/perfetto_proto_export.h"
#include "io/notes/notes_file.h"
#include "io/trace_loader.h"
#include "model/names/time_text.h"
#include "model/trace.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

namespace {

using namespace strata;

const char* const kUsage =
    "usage: strata-cli export --format perfetto-json [--range-us START:END] [--gzip] IN OUT\n"
    "       strata-cli export --format perfetto-proto IN OUT.pftrace\n"
    "       strata-cli export --format perfetto-json [--align METHOD] [--step-name PREFIX]\n"
    "                         [--gzip] IN IN... OUT\n"
    "\n"
    "  --format perfetto-json  Chrome Trace Event JSON as Perfetto, chrome://tracing, HTA and\n"
    "                          Strata read it\n"
    "  --format perfetto-proto Perfetto's own protobuf trace (.pftrace, TrackEvent): about a\n"
    "                          fifth of the JSON's size (one whole trace)\n"
    "  --range-us START:END    only events that overlap this range, relative to the trace\n"
    "                          start, in microseconds (as the other commands take it); slices\n"
    "                          crossing an edge are kept whole and marked\n"
    "  --range START:END       the same with units: a number with ns, us, ms or s (plain =\n"
    "                          microseconds), e.g. 1.5ms:3ms\n"
    "  --gzip                  gzip the output (also when OUT ends in .gz)\n"
    "  OUT                     the file to write, or - for standard output\n"
    "The notes and flags of IN.strata-notes.json (kept by the GUI beside one IN) are written\n"
    "as \"strata.note\" instants and \"strata.flag\" async slices (perfetto-json, one IN).\n"
    "Several INs (the ranks of one job) go into one file, one process per rank and device,\n"
    "shifted by the clock offsets strata-cli ranks estimates:\n"
    "  --align METHOD          auto (default), time, collectives or step:NAME (docs/ranks.md)\n"
    "  --step-name PREFIX      steps are the slices named PREFIX... (for --align step:NAME)\n";

bool endsWith(const std::string& s, const char* tail) {
    const std::string t(tail);
    return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

// What was written, on stderr (nothing for standard output).
void sayWritten(const PerfettoExportResult& r, const std::string& out, bool gzip, double writeS,
                double loadS) {
    if (out == "-") return;
    char gz[64] = "";
    if (gzip) std::snprintf(gz, sizeof gz, ", %.1f MB gzip'd", double(r.bytesOut) / 1e6);
    const std::string gzipNote = gz;
    std::fprintf(stderr,
                 "strata-cli export: %s: %llu events (%llu slices, %llu flows, %llu counter "
                 "samples, %llu instants), %.1f MB of JSON%s in %.2f s (loaded in %.2f s)\n",
                 terminalSafe(out).c_str(), static_cast<unsigned long long>(r.events),
                 static_cast<unsigned long long>(r.slices),
                 static_cast<unsigned long long>(r.flows),
                 static_cast<unsigned long long>(r.counterSamples),
                 static_cast<unsigned long long>(r.instants), double(r.bytes) / 1e6,
                 gzipNote.c_str(), writeS, loadS);
    if (r.notes)
        std::fprintf(stderr, "  %llu note(s) and flag(s) from the notes file beside the trace\n",
                     static_cast<unsigned long long>(r.notes));
    if (r.overlapThreads)
        std::fprintf(stderr, "  %llu overlapping lane(s) written as threads of their own\n",
                     static_cast<unsigned long long>(r.overlapThreads));
    if (r.edgeSlices)
        std::fprintf(stderr, "  %llu slice(s) cross the range's edges: kept whole, marked\n",
                     static_cast<unsigned long long>(r.edgeSlices));
    if (r.replacedBytes)
        std::fprintf(stderr, "  %llu byte(s) of text that were not UTF-8 written as U+FFFD\n",
                     static_cast<unsigned long long>(r.replacedBytes));
    if (r.sectionSlices)
        std::fprintf(stderr,
                     "  %llu in-kernel section(s) written as slices on %llu per-SM thread(s)\n",
                     static_cast<unsigned long long>(r.sectionSlices),
                     static_cast<unsigned long long>(r.sectionThreads));
    if (r.sectionSamplesDropped)
        std::fprintf(stderr,
                     "  %llu in-kernel section record(s) not written (%llu launch(es) without "
                     "%%globaltimer times or without their kernel in the trace)\n",
                     static_cast<unsigned long long>(r.sectionSamplesDropped),
                     static_cast<unsigned long long>(r.sectionSetsDropped));
    if (r.nonFiniteNumbers)
        std::fprintf(stderr, "  %llu NaN/infinite value(s) written as null\n",
                     static_cast<unsigned long long>(r.nonFiniteNumbers));
}

// Writes through `write` (a partial file is removed if a signal comes), then says what was
// written; the exit code. `t0`: when loading began.
template <typename Write>
int writeAndSay(const std::string& out, bool gzip, std::chrono::steady_clock::time_point t0,
                Write write) {
    const auto t1 = std::chrono::steady_clock::now();
    const PerfettoExportResult r = write();
    const auto t2 = std::chrono::steady_clock::now();
    if (!r.ok) {
        std::fprintf(stderr, "strata-cli export: %s\n", terminalSafe(r.error).c_str());
        return 1;
    }
    sayWritten(r, out, gzip, std::chrono::duration<double>(t2 - t1).count(),
               std::chrono::duration<double>(t1 - t0).count());
    return 0;
}

// Several traces into one file, shifted by the clock alignment of strata-cli ranks.
int exportSet(const std::vector<std::string>& ins, const std::string& out,
              const PerfettoExportOptions& o, const AlignRequest& request,
              const AnalysisSettings& settings) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::shared_ptr<const Trace>> traces(ins.size());
    std::vector<RankDigest> digests(ins.size());
    const bool loaded = cli::forEachTrace("export", ins, [&](size_t i, const auto& t) {
        traces[i] = t;
        digests[i] = digestTrace(TraceAnalysis(t, settings), ins[i], int64_t(i));
    });
    if (!loaded) return 1;
    std::vector<RankDigest> sorted;
    const std::vector<size_t> order = cli::byRank(digests);
    for (size_t i : order) sorted.push_back(digests[i]);
    const ClockAlignment a = alignClocks(sorted, matchCollectives(sorted), request);
    if (a.aligned())
        std::fprintf(stderr, "strata-cli export: %zu ranks aligned by %s\n", ins.size(),
                     terminalSafe(a.reason).c_str());
    for (const std::string& w : a.warnings)
        std::fprintf(stderr, "strata-cli export: warning: %s%s\n", terminalSafe(w).c_str(),
                     a.aligned() ? "" : "; each trace is written with its own timestamps");
    std::vector<RankIdentity> ids;
    std::vector<std::string> files;
    for (size_t k = 0; k < order.size(); ++k) {
        ids.push_back(sorted[k].identity);
        files.push_back(ins[order[k]]);
    }
    const std::vector<std::string> labels = rankLabels(ids, files);
    std::vector<TracePart> parts;
    for (size_t k = 0; k < order.size(); ++k)
        parts.push_back(
            {traces[order[k]].get(), labels[k], a.offsets[k].value_or(0), ins[order[k]]});
    return writeAndSay(out, o.gzip, t0, [&] { return exportPerfettoJsonSet(parts, out, o); });
}

// One trace as Perfetto's protobuf (io/export/perfetto_proto_export.h).
int exportProto(const std::string& in, const std::string& out) {
    const auto t0 = std::chrono::steady_clock::now();
    const LoadResult loaded = strata::cli::loadForCli(in);
    if (!loaded.ok()) {
        const std::string msg = loaded.error ? loaded.error->toString() : in + ": cannot load";
        std::fprintf(stderr, "strata-cli export: %s\n", terminalSafe(msg).c_str());
        return 1;
    }
    const auto t1 = std::chrono::steady_clock::now();
    const PerfettoProtoResult r = exportPerfettoProto(*loaded.trace, out);
    if (!r.ok) {
        std::fprintf(stderr, "strata-cli export: %s: %s\n", terminalSafe(out).c_str(),
                     r.error.c_str());
        return 1;
    }
    if (out != "-")
        std::fprintf(
            stderr,
            "wrote %s: %llu packets (%llu tracks, %llu slices, %llu instants, %llu counter "
            "samples, %llu flows), %llu bytes; loaded in %.3f s, written in %.3f s\n",
            terminalSafe(out).c_str(), (unsigned long long)r.packets, (unsigned long long)r.tracks,
            (unsigned long long)r.slices, (unsigned long long)r.instants,
            (unsigned long long)r.counterSamples, (unsigned long long)r.flows,
            (unsigned long long)r.bytes, std::chrono::duration<double>(t1 - t0).count(),
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count());
    return 0;
}

// The notes and flags of the sidecar beside `in` (io/notes/notes_file.h), when there is a good
// one; a bad one is said and left out.
std::vector<TimelineNote> sidecarNotes(const std::string& in) {
    const NotesFileRead r = readNotesFile(notesFilePath(in));
    if (!r.error.empty())
        std::fprintf(stderr, "strata-cli export: warning: %s (notes file ignored)\n",
                     terminalSafe(r.error).c_str());
    return r.notes ? r.notes->notes : std::vector<TimelineNote>{};
}

// A sidecar beside `in` whose notes this export leaves out: said (`what`: why).
void sayNotesLeftOut(const std::string& in, const char* what) {
    const NotesFileRead r = readNotesFile(notesFilePath(in));
    if (r.notes && !r.notes->notes.empty())
        std::fprintf(stderr, "strata-cli export: the notes of %s are not written (%s)\n",
                     terminalSafe(notesFilePath(in)).c_str(), what);
}

} // namespace

namespace strata::cli {

int exportTrace(const Args& args) {
    std::string format, rangeText, align;
    std::optional<std::pair<double, double>> rangeInUs;
    bool gzip = false;
    AnalysisSettings settings;
    std::vector<std::string> files;
    CommandLine line("export", kUsage);
    line.option("--format", text(&format))
        .option("--range", text(&rangeText))
        .option("--range-us", rangeUs("--range-us", &rangeInUs))
        .option("--align", text(&align))
        .option("--step-name", text(&settings.stepPrefix))
        .flag("--gzip", &gzip)
        .files(&files, 2, SIZE_MAX, "IN and OUT");
    if (const auto exit = line.parse(args)) return *exit;
    auto usageError = [&line](const std::string& m) { return line.usageError(m); };
    const std::string& in = files[0];
    const std::string& out = files.back();
    if (rangeInUs && !rangeText.empty()) return usageError("give --range-us or --range, not both");
    if (format.empty()) return usageError("--format is required (perfetto-json, perfetto-proto)");
    if (format != "perfetto-json" && format != "perfetto-proto")
        return usageError("unknown format '" + format + "' (known: perfetto-json, perfetto-proto)");
    if (format == "perfetto-proto") {
        if (files.size() > 2 || rangeInUs || !rangeText.empty() || gzip || !align.empty())
            return usageError("--format perfetto-proto exports one whole trace (no --range, "
                              "--gzip or several INs yet)");
        sayNotesLeftOut(in, "perfetto-json writes them");
        return exportProto(in, out);
    }
    PerfettoExportOptions o;
    o.gzip = gzip || endsWith(out, ".gz");
    if (files.size() > 2) {
        if (rangeInUs || !rangeText.empty())
            return usageError("--range and --range-us export one trace, not several");
        std::string problem;
        const auto request = parseAlignRequest(align.empty() ? "auto" : align, &problem);
        if (!request) return usageError("--align " + problem);
        for (auto f = files.begin(); f + 1 != files.end(); ++f)
            sayNotesLeftOut(*f, "a set's export leaves notes out");
        return exportSet({files.begin(), files.end() - 1}, out, o, *request, settings);
    }
    if (!align.empty()) return usageError("--align aligns several INs; one was given");
    o.sourceFile = in;
    std::optional<TimeRange> relative;
    if (rangeInUs)
        relative = TimeRange{TimeNs(std::llround(rangeInUs->first * 1000)),
                             TimeNs(std::llround(rangeInUs->second * 1000))};
    if (!rangeText.empty()) {
        std::string error;
        relative = parseTimeRange(rangeText, &error);
        if (!relative) return usageError("--range: " + error);
    }
    const auto t0 = std::chrono::steady_clock::now();
    const LoadResult loaded = loadForCli(in);
    if (!loaded.ok()) {
        const std::string msg = loaded.error ? loaded.error->toString() : in + ": cannot load";
        std::fprintf(stderr, "strata-cli export: %s\n", terminalSafe(msg).c_str());
        return 1;
    }
    const Trace& t = *loaded.trace;
    o.notes = sidecarNotes(in);
    if (relative)
        o.range = TimeRange{t.bounds().start + relative->start, t.bounds().start + relative->end};
    return writeAndSay(out, o.gzip, t0, [&] { return exportPerfettoJson(t, out, o); });
}

} // namespace strata::cli

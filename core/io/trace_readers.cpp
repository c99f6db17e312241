// The formats Strata reads: one line each (and its declaration). Adding one:
// docs/adding-a-reader.md.
#include "io/trace_reader.h"
#include "util/input_file.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace strata {

extern const TraceReader kStrataTraceReader;    // formats/strata_trace.cpp
extern const TraceReader kSectionsFileReader;   // formats/sections_file.cpp
extern const TraceReader kNpyTimerArrayReader;  // formats/npy_timer_array.cpp
extern const TraceReader kJsonTimerArrayReader; // formats/json_timer_array.cpp
extern const TraceReader kCsvTimerArrayReader;  // formats/csv_timer_array.cpp
extern const TraceReader kRocprofv3CsvReader;   // formats/rocprofv3_csv_files.cpp
extern const TraceReader kRocprofv3JsonReader;  // formats/rocprofv3_json_file.cpp
extern const TraceReader kNsysSqliteReader;     // formats/nsys_sqlite.cpp
extern const TraceReader kRocpdReader;          // formats/amd_sqlite.cpp
extern const TraceReader kRpdReader;            // formats/amd_sqlite.cpp
extern const TraceReader kRocprofReader;        // formats/amd_sqlite.cpp
extern const TraceReader kXplaneReader;         // formats/xplane_pb.cpp
extern const TraceReader kPftraceReader;        // formats/perfetto_pb.cpp
extern const TraceReader kOtf2Reader;           // formats/otf2_anchor.cpp
extern const TraceReader kChromeJsonReader;     // formats/chrome_json.cpp

const std::vector<const TraceReader*>& traceReaders() {
    static const std::vector<const TraceReader*> readers = {
        &kStrataTraceReader,  &kSectionsFileReader,  &kNpyTimerArrayReader, &kJsonTimerArrayReader,
        &kRocprofv3CsvReader, &kCsvTimerArrayReader, &kRocpdReader,         &kRpdReader,
        &kRocprofReader,      &kXplaneReader,        &kPftraceReader,       &kOtf2Reader,
        &kNsysSqliteReader,   &kRocprofv3JsonReader, &kChromeJsonReader,
    };
    return readers;
}

const TraceReader* recogniseBytes(std::string_view head, std::string_view path) {
    const TraceReader* best = nullptr;
    int bestScore = -1;
    for (const TraceReader* r : traceReaders()) {
        const int score = r->recognise(head, path);
        if (score > bestScore) best = r, bestScore = score;
    }
    return best;
}

const TraceReader* recogniseFile(const std::string& path, std::string* error) {
    std::string why;
    FILE* f = fopenRegularFile(path, &why); // a FIFO or a device is refused here, never read
    if (!f) {
        if (error) *error = why;
        return nullptr;
    }
    char head[kSniffBytes];
    const size_t n = std::fread(head, 1, sizeof head, f);
    const bool failed = std::ferror(f);
    std::fclose(f);
    if (failed) {
        if (error) *error = "cannot read: " + std::string(std::strerror(errno));
        return nullptr;
    }
    return recogniseBytes(std::string_view(head, n), path);
}

const TraceReader* readerNamed(std::string_view name) {
    for (const TraceReader* r : traceReaders())
        if (r->name == name) return r;
    return nullptr;
}

std::string lowerExtension(std::string_view path) {
    const size_t slash = path.find_last_of('/');
    const std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
    size_t dot = base.find_last_of('.');
    if (dot == std::string_view::npos || dot == 0) return {};
    std::string e(base.substr(dot));
    std::transform(e.begin(), e.end(), e.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    if (e == ".gz" && dot > 0) {
        const size_t before = base.find_last_of('.', dot - 1);
        if (before != std::string_view::npos && before > 0)
            return lowerExtension(base.substr(0, dot)) + e;
    }
    return e;
}

char firstNonSpace(std::string_view head) {
    if (head.substr(0, 3) == "\xEF\xBB\xBF") head.remove_prefix(3);
    for (char c : head)
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return c;
    return '\0';
}

} // namespace strata

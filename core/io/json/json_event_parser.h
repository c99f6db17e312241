#pragma once
// Turns Chrome Trace Event objects (batches from JsonEventSplitter) into TraceBuilder calls, with
// simdjson On-Demand. Single-threaded: one parser per load, on the thread that owns the builder.
#include "io/json/json_event_splitter.h"
#include "io/load_result.h"
#include "model/build/trace_builder.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace strata {

class LoadPreviewCollector;

// True when the parse units were compiled for AVX2 (see io/json_simdjson.h).
extern const bool kJsonParserNeedsAvx2;

class ChromeEventParser {
public:
    explicit ChromeEventParser(TraceBuilder& builder);
    ~ChromeEventParser();

    // Runs simdjson's stage 1 over the batch and, with `walk`, reads every event into plain
    // fields; may be called on another thread than parseBatch (the splitter's), for batches with
    // distinct slots. Optional: parseBatch does what prepare did not.
    void prepare(EventBatch& batch, bool walk = true);
    // Frees the simdjson parsers and event buffers once every batch is parsed.
    void releaseBuffers();
    // Feeds every event of the batch to the builder. On malformed JSON returns false and fills
    // `error` (offset, line, message; the caller sets the file).
    bool parseBatch(EventBatch& batch, LoadError* error);
    // Top-level keys of the object form (metadata, deviceProperties, ...).
    // False (and `error`) if a kept value is not valid JSON.
    bool addTopLevel(const std::vector<TopLevelValue>& values, LoadError* error);
    // Resolves deferred flow events and names, and turns skip counters into warnings.
    void finish();

    uint64_t eventsParsed() const;
    // Every complete slice read from now on is also added to `preview` (a first picture while
    // loading, io/load_preview.h); null stops that.
    void setPreview(LoadPreviewCollector* preview);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace strata

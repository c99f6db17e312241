// The JSON reader's batch loop: walks each batch's events (json_batch_walker), hands them to the
// handlers (json_event_handlers.cpp), finds the bad event of a batch that failed, and turns the
// skip and repair counts into warnings.
#include "io/json/json_event_parser_impl.h" // first: sets the target for everything below

#include "io/json/json_event_repair.h"
#include "io/json/json_top_level.h"
#include "util/utf8.h"

namespace strata {
namespace od = simdjson::ondemand;

#ifdef STRATA_SIMDJSON_HASWELL
extern const bool kJsonParserNeedsAvx2 = true;
#else
extern const bool kJsonParserNeedsAvx2 = false;
#endif

namespace {
constexpr uint64_t kMaxBadEventsInARow = 1000;
} // namespace

simdjson::error_code ChromeEventParser::Impl::readText(std::string& text, const char** where) {
    text.reserve(text.size() + simdjson::SIMDJSON_PADDING);
    scratch.reset();
    od::document doc;
    od::object obj;
    simdjson::error_code err =
        parser.iterate(simdjson::padded_string_view(text.data(), text.size(), text.capacity()))
            .get(doc);
    const bool iterated = !err;
    if (!err) err = doc.get_object().get(obj);
    if (!err) err = readEvent(obj, scratch);
    *where = nullptr;
    const char* loc = nullptr;
    if (err && iterated && !doc.current_location().get(loc) && loc >= text.data() &&
        loc < text.data() + text.size())
        *where = loc;
    return err;
}

bool ChromeEventParser::Impl::parseAlone(std::string text, EventBatch::Pos at, bool inside,
                                         LoadError* error) {
    EventBatch::Pos here = at;
    pos = &here;
    const char* where = nullptr;
    simdjson::error_code err = readText(text, &where);
    std::string fixed; // the repaired text: the event's fields point into it until dispatched
    if (err) {
        // Repairs that keep the event: what other importers accept, what a writer garbled.
        fixed = text;
        const bool controls = escapeControlCharactersInStrings(fixed);
        const size_t badUtf8 = replaceInvalidUtf8(fixed);
        const char* ignored = nullptr;
        if ((controls || badUtf8) && !readText(fixed, &ignored)) {
            if (controls)
                repaired("raw control characters inside strings, accepted (as Chrome and "
                         "Perfetto accept them)");
            if (badUtf8) repaired("invalid UTF-8, replaced by U+FFFD");
            err = simdjson::SUCCESS;
        }
    }
    if (!err) {
        evp = &scratch;
        dispatch();
        evp = &scratch;
        badInARow = 0;
        return true;
    }
    // Not one event: a writer that died mid-event and went on with the next. Keep the events
    // inside it.
    if (!inside) {
        bool any = false;
        for (const auto& [b, e] : eventsInside(text)) {
            any = true;
            if (!parseAlone(text.substr(b, e - b),
                            EventBatch::Pos{uint32_t(at.inBatch + b), at.offset + b}, true, error))
                return false;
        }
        pos = &here;
        if (any) {
            count(damaged, "broken JSON between events");
            return true;
        }
    }
    if (where) {
        here.offset += uint64_t(where - text.data());
        here.inBatch += uint32_t(where - text.data());
    }
    if (badInARow++ == 0) {
        firstBadInARow = here;
        firstBadLine = batch->lineOf(here.inBatch); // the run may end in a later batch
    }
    if (badInARow > kMaxBadEventsInARow) {
        error->byteOffset = firstBadInARow.offset;
        error->line = firstBadLine;
        error->message =
            "expected trace events, found " + std::to_string(badInARow) +
            " malformed ones in a row from here (the last: " + simdjson::error_message(err) + ")";
        return false;
    }
    skip(std::string("malformed JSON event (") + simdjson::error_message(err) + ")");
    return true;
}

bool ChromeEventParser::Impl::parseOneByOne(const EventBatch& batch, size_t from,
                                            LoadError* error) {
    for (size_t i = from; i < batch.events.size(); ++i) {
        const size_t begin = batch.events[i].inBatch;
        size_t end = i + 1 < batch.events.size() ? batch.events[i + 1].inBatch
                                                 : batch.data.size() - 1; // before ']'
        while (end > begin && (batch.data[end - 1] == '\n' || batch.data[end - 1] == ','))
            --end; // the separator: ',' and newlines
        if (!parseAlone(batch.data.substr(begin, end - begin), batch.events[i], false, error))
            return false;
    }
    pos = nullptr;
    return true;
}

bool ChromeEventParser::Impl::parseBatch(EventBatch& batch, LoadError* error) {
    this->batch = &batch;
    const std::span<const Event> events = walker.events(batch);
    for (size_t idx = 0; idx < events.size(); ++idx) {
        pos = &batch.events[idx];
        evp = &events[idx];
        dispatch();
    }
    evp = &scratch;
    if (!events.empty()) badInARow = 0;
    if (events.size() == batch.events.size()) return true;
    return parseOneByOne(batch, events.size(), error);
}

ChromeEventParser::ChromeEventParser(TraceBuilder& builder) : d(std::make_unique<Impl>(builder)) {}
ChromeEventParser::~ChromeEventParser() = default;

void ChromeEventParser::releaseBuffers() {
    d->walker.release();
    d->parser = od::parser();
    d->scratch = Event();
}

void ChromeEventParser::prepare(EventBatch& batch, bool walk) {
    d->walker.prepare(batch, walk);
}

bool ChromeEventParser::parseBatch(EventBatch& batch, LoadError* error) {
    return d->parseBatch(batch, error);
}

void ChromeEventParser::setPreview(LoadPreviewCollector* preview) {
    d->preview = preview;
}

uint64_t ChromeEventParser::eventsParsed() const {
    return d->eventsParsed;
}

bool ChromeEventParser::addTopLevel(const std::vector<TopLevelValue>& values, LoadError* error) {
    return applyTopLevel(d->b, values, error);
}

void ChromeEventParser::finish() {
    Impl& x = *d;
    for (const auto& [pid, text] : x.stringProcessNames)
        if (!x.namedProcesses.count(pid)) x.b.setProcessName(pid, x.b.intern(text));
    for (const auto& [key, text] : x.stringThreadNames)
        if (!x.namedThreads.count(key)) x.b.setThreadName(key.first, key.second, x.b.intern(text));
    auto warn = [&](const char* verb, const std::string& why, const Skip& s) {
        x.b.addWarning(verb + std::to_string(s.count) + " " + (s.count == 1 ? "event" : "events") +
                       ": " + why + " (first at byte " + std::to_string(s.offset) + ", line " +
                       std::to_string(s.line) + ")");
    };
    for (const auto& [why, s] : x.skips) warn("skipped ", why, s);
    for (const auto& [why, s] : x.skippedCounterValues)
        x.b.addWarning("skipped " + std::to_string(s.count) +
                       (s.count == 1 ? " counter value: " : " counter values: ") + why +
                       " (first at byte " + std::to_string(s.offset) + ", line " +
                       std::to_string(s.line) + ")");
    for (const auto& [why, s] : x.damaged)
        x.b.addWarning("skipped " + why + " " + std::to_string(s.count) +
                       (s.count == 1 ? " time" : " times") + " (first at byte " +
                       std::to_string(s.offset) + ", line " + std::to_string(s.line) +
                       "); the events around it were kept");
    for (const auto& [why, s] : x.repairs) warn("", why, s);
}

} // namespace strata

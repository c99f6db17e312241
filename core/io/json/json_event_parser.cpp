// The JSON reader's batch loop: walks each batch's events (json_batch_walker), hands them to the
// handlers (json_event_handlers.cpp), finds the bad event of a batch that failed, and turns the
// skip and repair counts into warnings.
#include "io/json/json_event_parser_impl.h" // first: sets the target for everything below

#include "io/json/json_top_level.h"

namespace strata {
namespace od = simdjson::ondemand;

#ifdef STRATA_SIMDJSON_HASWELL
extern const bool kJsonParserNeedsAvx2 = true;
#else
extern const bool kJsonParserNeedsAvx2 = false;
#endif

bool ChromeEventParser::Impl::locateError(const EventBatch& batch, size_t from, LoadError* error) {
    std::string one;
    for (size_t i = from; i < batch.events.size(); ++i) {
        const size_t begin = batch.events[i].inBatch;
        size_t end = i + 1 < batch.events.size() ? batch.events[i + 1].inBatch
                                                 : batch.data.size() - 1; // before ']'
        while (end > begin && (batch.data[end - 1] == '\n' || batch.data[end - 1] == ','))
            --end; // the separator: ',' and newlines
        one.assign(batch.data, begin, end - begin);
        one.reserve(one.size() + simdjson::SIMDJSON_PADDING);
        pos = &batch.events[i];
        scratch.reset();
        od::document doc;
        od::object obj;
        simdjson::error_code err =
            parser.iterate(simdjson::padded_string_view(one.data(), one.size(), one.capacity()))
                .get(doc);
        const bool iterated = !err;
        if (!err) err = doc.get_object().get(obj);
        if (!err) err = readEvent(obj, scratch);
        if (err == simdjson::UTF8_ERROR) {
            skip("event with invalid UTF-8");
            continue;
        }
        if (err) {
            uint64_t off = batch.events[i].offset;
            size_t inBatch = batch.events[i].inBatch;
            const char* loc = nullptr;
            if (iterated && !doc.current_location().get(loc) && loc >= one.data() &&
                loc < one.data() + one.size()) {
                off += uint64_t(loc - one.data());
                inBatch += size_t(loc - one.data());
            }
            const uint64_t line = batch.lineOf(inBatch);
            error->byteOffset = off;
            error->line = line;
            error->message =
                std::string("expected a valid JSON event object: ") + simdjson::error_message(err);
            return false;
        }
        evp = &scratch;
        dispatch();
    }
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
    if (events.size() == batch.events.size()) return true;
    return locateError(batch, events.size(), error);
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
    for (const auto& [why, s] : x.repairs) warn("", why, s);
}

} // namespace strata

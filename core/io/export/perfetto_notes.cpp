#include "io/export/perfetto_notes.h"

#include <string>

namespace strata {

namespace {

void head(JsonOut& out, const char* ph, const char* category, const TimelineNote& n, int64_t pid) {
    out.raw("{\"ph\": \"");
    out.raw(ph);
    out.raw("\", \"cat\": \"");
    out.raw(category);
    out.raw("\", \"name\": ");
    out.str(n.text.empty() ? (n.flag ? "flag" : "note") : n.text);
    out.raw(", \"pid\": ");
    out.i64(pid);
}

void textArg(JsonOut& out, const TimelineNote& n) {
    out.raw(", \"args\": {\"text\": ");
    out.str(n.text);
    out.raw("}}");
}

} // namespace

uint64_t writePerfettoNotes(JsonOut& out, const std::vector<TimelineNote>& notes, int64_t pid,
                            TimeNs origin, const std::optional<TimeRange>& range,
                            const std::function<void()>& beginEvent) {
    uint64_t written = 0, flagId = 0;
    for (const TimelineNote& n : notes) {
        if (range && (n.flag ? n.start >= range->end || n.end <= range->start
                             : n.start < range->start || n.start >= range->end))
            continue;
        ++written;
        if (!n.flag) {
            beginEvent();
            head(out, "i", kNoteCategory, n, pid);
            out.raw(", \"s\": \"g\", \"ts\": ");
            out.micros(n.start - origin);
            textArg(out, n);
            continue;
        }
        // A b/e pair of its own id: the text on the begin.
        const std::string id = "\"strata.flag." + std::to_string(++flagId) + "\"";
        for (const bool begin : {true, false}) {
            beginEvent();
            head(out, begin ? "b" : "e", kFlagCategory, n, pid);
            out.raw(", \"id\": ");
            out.raw(id);
            out.raw(", \"ts\": ");
            out.micros((begin ? n.start : n.end) - origin);
            if (begin)
                textArg(out, n);
            else
                out.raw("}");
        }
    }
    return written;
}

} // namespace strata

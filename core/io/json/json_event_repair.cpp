#include "io/json/json_event_repair.h"

#include "io/json/json_nesting_scanner.h"

#include <cstdint>
#include <cstdio>

namespace strata {

bool escapeControlCharactersInStrings(std::string& text) {
    std::string out;
    bool inString = false, escape = false, changed = false;
    out.reserve(text.size() + 16);
    for (const char c : text) {
        if (inString) {
            if (escape) {
                escape = false;
            } else if (c == '\\') {
                escape = true;
            } else if (c == '"') {
                inString = false;
            } else if (uint8_t(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(uint8_t(c)));
                out += buf;
                changed = true;
                continue;
            }
        } else if (c == '"') {
            inString = true;
        }
        out += c;
    }
    if (changed) text.swap(out);
    return changed;
}

std::vector<std::pair<size_t, size_t>> eventsInside(std::string_view text) {
    std::vector<std::pair<size_t, size_t>> out;
    auto isSpace = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    size_t i = 1;
    while (i < text.size()) {
        if (text[i] != '{') {
            ++i;
            continue;
        }
        // Before it (spaces aside): a line break or a ','. After it: a key.
        size_t p = i;
        bool lineBreak = false;
        while (p > 0 && isSpace(text[p - 1])) lineBreak |= text[--p] == '\n';
        size_t q = i + 1;
        while (q < text.size() && isSpace(text[q])) ++q;
        const bool startsEvent =
            (lineBreak || (p > 0 && text[p - 1] == ',')) && q < text.size() && text[q] == '"';
        if (!startsEvent) {
            ++i;
            continue;
        }
        JsonNestingScanner scanner;
        scanner.startNested();
        size_t end = i;
        if (scanner.scanNested(text.data(), end, text.size()) == JsonNestingScanner::Result::Done) {
            out.emplace_back(i, end);
            i = end;
        } else {
            ++i;
        }
    }
    return out;
}

} // namespace strata

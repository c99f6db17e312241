#include "analysis/slice_search.h"
#include "analysis/arg_filter_match.h"
#include "analysis/search_regex.h"

#include <algorithm>
#include <cctype>
#include <regex>

namespace strata {

namespace {

std::string lowered(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// For each interned string, whether it matches. Returns false (with error) on a bad regex.
bool matchingNames(const StringPool& pool, const SliceSearchOptions& o, std::vector<char>* out,
                   std::string* error) {
    out->assign(pool.size(), 0);
    if (o.regex) {
        const std::optional<std::regex> re = compileSearchRegex(o.pattern, o.caseSensitive, error);
        if (!re) return false;
        for (size_t id = 0; id < pool.size(); ++id) {
            const std::string_view name = pool.view(static_cast<StringId>(id));
            (*out)[id] = std::regex_search(name.begin(), name.end(), *re) ? 1 : 0;
        }
        return true;
    }
    const std::string needle = o.caseSensitive ? o.pattern : lowered(o.pattern);
    for (size_t id = 0; id < pool.size(); ++id) {
        const std::string_view name = pool.view(static_cast<StringId>(id));
        if (o.caseSensitive) {
            (*out)[id] = name.find(needle) != std::string_view::npos ? 1 : 0;
        } else {
            (*out)[id] = lowered(name).find(needle) != std::string::npos ? 1 : 0;
        }
    }
    return true;
}

// Matches in time order: slices by (start, track, index), instants by (ts, track, index).
void sortByTime(const Trace& trace, SliceSearchResult* result) {
    std::sort(result->matches.begin(), result->matches.end(), [&](SliceRef a, SliceRef b) {
        const TimeNs sa = trace.start(a), sb = trace.start(b);
        if (sa != sb) return sa < sb;
        return a < b;
    });
    const auto& tracks = trace.tracks();
    auto ts = [&](InstantRef r) { return tracks[r.track].instants.ts[r.index]; };
    std::sort(result->instants.begin(), result->instants.end(),
              [&](InstantRef a, InstantRef b) { return ts(a) != ts(b) ? ts(a) < ts(b) : a < b; });
}

} // namespace

std::optional<std::regex> compileSearchRegex(const std::string& pattern, bool caseSensitive,
                                             std::string* error) {
    try {
        auto flags = std::regex::ECMAScript | std::regex::optimize;
        if (!caseSensitive) flags |= std::regex::icase;
        return std::regex(pattern, flags);
    } catch (const std::regex_error& e) {
        *error = std::string("invalid regular expression '") + pattern + "': " + e.what();
        return std::nullopt;
    }
}

SliceSearchResult findSlices(const Trace& trace, const SliceSearchOptions& options) {
    SliceSearchResult result;
    if (options.pattern.empty()) return result;
    std::string note;
    if (const ArgFilter filter = parseArgFilter(options.pattern); filter.hasKeyTerm()) {
        ArgFilterResult a = matchArgFilter(trace, filter, {options.caseSensitive, options.regex});
        if (!a.unknownKeys) {
            result.byArgs = true;
            result.matches = std::move(a.slices);
            result.instants = std::move(a.instants);
            result.error = std::move(a.error);
            result.badRegex = a.badRegex;
            result.note = std::move(a.note);
            sortByTime(trace, &result);
            return result;
        }
        note = std::move(a.note); // a name, unless none has it either
    }
    std::vector<char> hit;
    if (!matchingNames(trace.strings(), options, &hit, &result.error)) {
        result.badRegex = true;
        return result;
    }

    const auto& tracks = trace.tracks();
    for (TrackId t = 0; t < tracks.size(); ++t) {
        const auto& names = tracks[t].slices.name;
        for (SliceIndex i = 0; i < names.size(); ++i) {
            if (names[i] < hit.size() && hit[names[i]]) result.matches.push_back({t, i});
        }
        const auto& instantNames = tracks[t].instants.name;
        for (uint32_t i = 0; i < instantNames.size(); ++i)
            if (instantNames[i] < hit.size() && hit[instantNames[i]])
                result.instants.push_back({t, i});
    }
    sortByTime(trace, &result);
    if (result.matches.empty() && result.instants.empty()) result.note = std::move(note);
    return result;
}

int nextMatchIndex(size_t matchCount, int current, bool forward) {
    if (matchCount == 0) return -1;
    const int n = static_cast<int>(matchCount);
    if (current < 0 || current >= n) return forward ? 0 : n - 1;
    return forward ? (current + 1) % n : (current - 1 + n) % n;
}

} // namespace strata

#pragma once
// Find slices and instants by name: a substring or a regular expression (ECMAScript),
// case-sensitive or not.
// Names are matched once per interned string, then the slice columns are scanned by id, so a
// search costs O(distinct names + slices).
#include "model/trace.h"

#include <string>
#include <vector>

namespace strata {

struct SliceSearchOptions {
    std::string pattern; // empty pattern matches nothing
    bool regex = false;  // ECMAScript regex (std::regex::search semantics)
    bool caseSensitive = false;
};

struct SliceSearchResult {
    std::vector<SliceRef> matches;    // ordered by (start, track, index)
    std::vector<InstantRef> instants; // instants of every track, ordered by (ts, track, index)
    std::string error;                // non-empty when the regex does not compile
    bool ok() const { return error.empty(); }
};

SliceSearchResult findSlices(const Trace& trace, const SliceSearchOptions& options);

// Index in `matches` of the next (forward) or previous match after position `current`,
// wrapping around; -1 if `matches` is empty. current = -1 means "before the first".
int nextMatchIndex(size_t matchCount, int current, bool forward);

} // namespace strata

#pragma once
// Find slices and instants by name: a substring or a regular expression (ECMAScript),
// case-sensitive or not; or by their fields and args: a pattern with an operator whose key the
// trace knows is an ArgFilter (analysis/arg_filter.h: "grid>1024", "correlation=471260",
// "name~gemm && Input Dims~[8, 1024]"), matched by analysis/arg_filter_match.h, the regex then
// applying to its name terms only. A pattern whose keys no event has ("vector<float>") is a
// name, as is any pattern without an operator.
// Names are matched once per interned string, then the slice columns are scanned by id, so a
// search costs O(distinct names + slices) (+ arg bytes for args).
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
    std::string error;     // non-empty when the regex does not compile or a value is no number
    bool badRegex = false; // the error is a regex that does not compile
    bool byArgs = false;   // the pattern was taken as an ArgFilter
    std::string note;      // why nothing matched where known: "no event has key 'foo'"
    bool ok() const { return error.empty(); }
};

SliceSearchResult findSlices(const Trace& trace, const SliceSearchOptions& options);

// Index in `matches` of the next (forward) or previous match after position `current`,
// wrapping around; -1 if `matches` is empty. current = -1 means "before the first".
int nextMatchIndex(size_t matchCount, int current, bool forward);

} // namespace strata

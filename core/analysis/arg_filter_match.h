#pragma once
// The slices and instants of a trace that an ArgFilter (analysis/arg_filter.h) finds: every term
// holds. A key term reads the model's field of that name (analysis/arg_filter_fields.h), or, for
// a slice without it and for any other key, the event's args under that key (case does not
// matter). A name term (no operator) is a substring of the name, or a regex (ECMAScript) where
// asked: the regex applies to name terms only, a key's value is never one.
//
// Cost: each interned name and each arg set is tested once per term (arg sets are decoded only
// for the slices that reach that term), then the columns are scanned by id: O(slices + names +
// arg bytes) for a search, with a byte of memo per name and per arg set.
#include "analysis/arg_filter.h"
#include "model/trace.h"

#include <string>
#include <vector>

namespace strata {

struct ArgFilterOptions {
    bool caseSensitive = false; // names and text values; keys never are
    bool regexNames = false;    // name terms are ECMAScript regexes
};

struct ArgFilterResult {
    std::vector<SliceRef> slices;     // in (track, index) order
    std::vector<InstantRef> instants; // in (track, index) order
    // Why nothing could be compared (a value that is not a number for <, >, a bad regex); then
    // nothing matches.
    std::string error;
    bool badRegex = false; // the error is a regex that does not compile
    // Why nothing matched where the trace can say: "no event has key 'foo'".
    std::string note;
    // Every key term names a key that is neither a field of the model nor any event's arg: the
    // text was probably a name with an operator character in it ("vector<float>").
    bool unknownKeys = false;
    bool ok() const { return error.empty(); }
};

ArgFilterResult matchArgFilter(const Trace& trace, const ArgFilter& filter,
                               const ArgFilterOptions& options = {});

} // namespace strata

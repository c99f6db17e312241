#pragma once
// One term of an ArgFilter (analysis/arg_filter.h) against one value: numbers compared as numbers,
// text as text (case-insensitively unless asked), JSON (an arg holding an array or object) by its
// text written compactly as Kineto and Python write it ("[[8, 1024], [1024]]": ", " and ": ",
// no other space outside strings), whatever spacing the file had.
#include "analysis/arg_filter.h"
#include "model/arg_store.h"

#include <optional>
#include <string>
#include <string_view>

namespace strata {

// A field's or arg's value: a number, a text, or both (a grid: its product and "[4, 106, 1]").
struct FilterValue {
    bool present = false;
    std::optional<long double> number;
    std::string_view text; // empty with a number: the number's own text
};

// An arg's value (pointing into `v`, or into `scratch` for JSON): numbers and booleans (1, 0) as
// numbers, a string as text (and as a number when it is all one), JSON as its compact text.
FilterValue filterValueOf(const ArgValue& v, std::string* scratch);

// JSON text with the spaces outside strings taken out, then ", " after each comma and ": " after
// each colon (outside strings).
std::string compactJson(std::string_view json);

class TermTest {
public:
    // `term` must have an operator. Its value as a number (with time units where `timeUnits`);
    // error() says why an ordering operator has no number to compare with.
    TermTest(const FilterTerm& term, bool caseSensitive, bool timeUnits = false);
    const std::string& error() const { return error_; }
    bool accepts(const FilterValue& v) const;
    // Whether `text` holds the term's value (substring, case as asked).
    bool contains(std::string_view text) const;
    bool equalsText(std::string_view text) const;

private:
    FilterOp op_;
    bool caseSensitive_;
    std::optional<long double> number_;
    std::string text_; // the value as typed, JSON-looking values made compact
    std::string error_;
    bool equals(const FilterValue& v, std::string_view text) const;
};

} // namespace strata

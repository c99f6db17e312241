#pragma once
// A filter over events' fields and args, as typed in the find bar: terms joined by "&&", all of
// which must hold. A term is KEY OP VALUE, the operator found first (so a key may hold spaces:
// "Input Dims~[8, 1024]"), or, without an operator, a name (substring, or a regex where the
// caller asks). Operators: = (also ==), !=, <, <=, >, >= and ~ (contains). A value may be quoted
// ("a && b") to hold "&&" or outer spaces. Matching over a trace: analysis/arg_filter_match.h.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

enum class FilterOp : unsigned char { Name, Eq, Ne, Lt, Le, Gt, Ge, Contains };

struct FilterTerm {
    FilterOp op = FilterOp::Name;
    std::string key;   // trimmed; empty for a Name term
    std::string value; // trimmed, quotes taken off; a Name term's whole text
    friend bool operator==(const FilterTerm&, const FilterTerm&) = default;
};

struct ArgFilter {
    std::vector<FilterTerm> terms; // empty parts (a trailing "&&") are left out
    // Whether any term has an operator; a text without one is a plain name search.
    bool hasKeyTerm() const;
};

ArgFilter parseArgFilter(std::string_view text);

// The operator as typed ("=", "!=", ...); "" for Name.
std::string_view filterOpText(FilterOp op);
// Whether the operator compares numbers only (<, <=, >, >=).
bool isOrderOp(FilterOp op);

// A term's value as a number: a decimal integer or float ("1024", "-3", "2.5e3"); with
// `timeUnits`, an optional unit after it, ns (the default), us (or µs), ms or s, the result in
// ns ("10us" = 10000). nullopt when the text is not one.
std::optional<long double> parseFilterNumber(std::string_view text, bool timeUnits = false);

} // namespace strata

#pragma once
// A search's regular expression (ECMAScript, icase unless caseSensitive): Find's names and the
// argument search's name terms compile theirs here (slice_search.cpp). Apart from
// slice_search.h so <regex> stays out of its many includers.
#include <optional>
#include <regex>
#include <string>

namespace strata {

// nullopt and *error ("invalid regular expression '...': why") when it does not compile.
std::optional<std::regex> compileSearchRegex(const std::string& pattern, bool caseSensitive,
                                             std::string* error);

} // namespace strata

#include "analysis/arg_filter.h"

#include <charconv>
#include <cmath>

namespace strata {

namespace {

std::string_view trimmed(std::string_view s) {
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!s.empty() && space(s.front())) s.remove_prefix(1);
    while (!s.empty() && space(s.back())) s.remove_suffix(1);
    return s;
}

std::string_view unquoted(std::string_view s) {
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"') return s.substr(1, s.size() - 2);
    return s;
}

// The first operator in `s`: its position, length and kind; npos when there is none.
size_t findOperator(std::string_view s, size_t* length, FilterOp* op) {
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        const char n = i + 1 < s.size() ? s[i + 1] : '\0';
        *length = 1;
        switch (c) {
        case '!':
            if (n != '=') continue;
            *length = 2;
            *op = FilterOp::Ne;
            return i;
        case '=':
            *length = n == '=' ? 2 : 1;
            *op = FilterOp::Eq;
            return i;
        case '<':
            *length = n == '=' ? 2 : 1;
            *op = n == '=' ? FilterOp::Le : FilterOp::Lt;
            return i;
        case '>':
            *length = n == '=' ? 2 : 1;
            *op = n == '=' ? FilterOp::Ge : FilterOp::Gt;
            return i;
        case '~':
            *op = FilterOp::Contains;
            return i;
        default:
            continue;
        }
    }
    return std::string_view::npos;
}

FilterTerm parseTerm(std::string_view part) {
    size_t length = 0;
    FilterOp op = FilterOp::Name;
    const size_t at = findOperator(part, &length, &op);
    if (at != std::string_view::npos) {
        const std::string_view key = unquoted(trimmed(part.substr(0, at)));
        if (!key.empty())
            return {op, std::string(key), std::string(unquoted(trimmed(part.substr(at + length))))};
    }
    return {FilterOp::Name, {}, std::string(part)};
}

} // namespace

bool ArgFilter::hasKeyTerm() const {
    for (const FilterTerm& t : terms)
        if (t.op != FilterOp::Name) return true;
    return false;
}

ArgFilter parseArgFilter(std::string_view text) {
    ArgFilter f;
    // Split at "&&" outside quotes.
    bool quoted = false;
    size_t from = 0;
    for (size_t i = 0; i <= text.size(); ++i) {
        if (i < text.size() && text[i] == '"') quoted = !quoted;
        const bool cut = i == text.size() || (!quoted && text.compare(i, 2, "&&") == 0);
        if (!cut) continue;
        const std::string_view part = trimmed(text.substr(from, i - from));
        if (!part.empty()) f.terms.push_back(parseTerm(part));
        from = i + 2;
        ++i;
    }
    // One part without an operator: the text as typed (outer spaces included), as before.
    if (f.terms.size() == 1 && f.terms[0].op == FilterOp::Name) f.terms[0].value = text;
    return f;
}

std::string_view filterOpText(FilterOp op) {
    switch (op) {
    case FilterOp::Name:
        return "";
    case FilterOp::Eq:
        return "=";
    case FilterOp::Ne:
        return "!=";
    case FilterOp::Lt:
        return "<";
    case FilterOp::Le:
        return "<=";
    case FilterOp::Gt:
        return ">";
    case FilterOp::Ge:
        return ">=";
    case FilterOp::Contains:
        return "~";
    }
    return "";
}

bool isOrderOp(FilterOp op) {
    return op == FilterOp::Lt || op == FilterOp::Le || op == FilterOp::Gt || op == FilterOp::Ge;
}

std::optional<long double> parseFilterNumber(std::string_view text, bool timeUnits) {
    text = trimmed(text);
    long double scale = 1;
    if (timeUnits) {
        struct Unit {
            std::string_view suffix;
            long double ns;
        };
        // Longest first: "ms" and "us" before "s".
        static constexpr Unit kUnits[] = {
            {"ns", 1}, {"us", 1e3L}, {"\xc2\xb5s", 1e3L}, {"ms", 1e6L}, {"s", 1e9L}};
        for (const Unit& u : kUnits) {
            if (text.size() > u.suffix.size() && text.ends_with(u.suffix)) {
                text = trimmed(text.substr(0, text.size() - u.suffix.size()));
                scale = u.ns;
                break;
            }
        }
    }
    if (text.size() > 1 && text.front() == '+' && text[1] != '-') text.remove_prefix(1);
    if (text.empty()) return std::nullopt;
    long double v = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size() || !std::isfinite(v))
        return std::nullopt;
    return v * scale;
}

} // namespace strata

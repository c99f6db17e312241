#include "analysis/arg_filter_value.h"

#include "util/ascii_case.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>

namespace strata {

namespace {

// A number's text: an integer without a fraction, else the shortest text that reads back.
std::string_view numberText(long double n, char (&buf)[64]) {
    std::to_chars_result r;
    if (n == std::floor(n) && std::fabs(n) < 9.2e18L)
        r = std::to_chars(buf, buf + sizeof buf, static_cast<int64_t>(n));
    else if (n == std::floor(n) && n > 0 && n < 1.8e19L)
        r = std::to_chars(buf, buf + sizeof buf, static_cast<uint64_t>(n));
    else
        r = std::to_chars(buf, buf + sizeof buf, static_cast<double>(n));
    return {buf, size_t(r.ptr - buf)};
}

} // namespace

std::string compactJson(std::string_view json) {
    std::string out;
    out.reserve(json.size());
    bool inString = false, escaped = false;
    for (char c : json) {
        if (inString) {
            out += c;
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
        out += c;
        if (c == '"') inString = true;
        if (c == ',' || c == ':') out += ' ';
    }
    return out;
}

FilterValue filterValueOf(const ArgValue& v, std::string* scratch) {
    FilterValue out;
    out.present = true;
    switch (v.type) {
    case ArgValue::Type::Null:
        out.text = "null";
        break;
    case ArgValue::Type::Bool:
        out.number = v.b ? 1 : 0;
        out.text = v.b ? "true" : "false";
        break;
    case ArgValue::Type::Int:
        out.number = static_cast<long double>(v.i);
        break;
    case ArgValue::Type::UInt:
        out.number = static_cast<long double>(v.u);
        break;
    case ArgValue::Type::Double:
        out.number = static_cast<long double>(v.d);
        break;
    case ArgValue::Type::String:
        out.text = v.s;
        out.number = parseFilterNumber(out.text);
        break;
    case ArgValue::Type::Json:
        *scratch = compactJson(v.s);
        out.text = *scratch;
        out.number = parseFilterNumber(out.text); // a number kept as text (past 64 bits)
        break;
    }
    return out;
}

TermTest::TermTest(const FilterTerm& term, bool caseSensitive, bool timeUnits)
    : op_(term.op), caseSensitive_(caseSensitive),
      number_(parseFilterNumber(term.value, timeUnits)), text_(term.value) {
    if (!text_.empty() && (text_.front() == '[' || text_.front() == '{'))
        text_ = compactJson(text_);
    if (isOrderOp(op_) && !number_)
        error_ = "'" + term.value + "' is not a number (in '" + term.key +
                 std::string(filterOpText(op_)) + term.value + "')";
}

bool TermTest::contains(std::string_view text) const {
    if (caseSensitive_) return text.find(text_) != std::string_view::npos;
    const auto it = std::search(text.begin(), text.end(), text_.begin(), text_.end(),
                                [](char a, char b) { return foldAscii(a) == foldAscii(b); });
    return it != text.end() || text_.empty();
}

bool TermTest::equalsText(std::string_view text) const {
    if (caseSensitive_) return text == text_;
    return text.size() == text_.size() &&
           std::equal(text.begin(), text.end(), text_.begin(),
                      [](char a, char b) { return foldAscii(a) == foldAscii(b); });
}

bool TermTest::equals(const FilterValue& v, std::string_view text) const {
    if (number_ && v.number) return *v.number == *number_;
    return equalsText(text);
}

bool TermTest::accepts(const FilterValue& v) const {
    if (!v.present) return false;
    if (isOrderOp(op_)) {
        if (!number_ || !v.number) return false;
        const long double a = *v.number, b = *number_;
        switch (op_) {
        case FilterOp::Lt:
            return a < b;
        case FilterOp::Le:
            return a <= b;
        case FilterOp::Gt:
            return a > b;
        default:
            return a >= b;
        }
    }
    char buf[64];
    const std::string_view text = v.text.empty() && v.number ? numberText(*v.number, buf) : v.text;
    switch (op_) {
    case FilterOp::Eq:
        return equals(v, text);
    case FilterOp::Ne:
        return !equals(v, text);
    case FilterOp::Contains:
        return contains(text);
    default:
        return false;
    }
}

} // namespace strata

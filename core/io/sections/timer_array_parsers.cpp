// The timer-array formats of sections_import.h: .npy, .csv and .json, each
// times[section][iteration].
#include "io/sections/sections_import.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace strata {

namespace {

SectionsImport fail(const std::string& path, const std::string& what) {
    SectionsImport r;
    r.error = path + ": " + what;
    return r;
}

// A set of S sections x I iterations from value(s, i) (already checked finite and >= 0).
template <typename Value>
SectionSet arraySet(const std::string& path, size_t sections, size_t iterations, Value value) {
    SectionSet set;
    const size_t slash = path.find_last_of('/');
    set.kernel = slash == std::string::npos ? path : path.substr(slash + 1);
    set.source = path;
    set.samples.reserve(sections * iterations);
    for (size_t s = 0; s < sections; ++s)
        for (size_t i = 0; i < iterations; ++i) {
            SectionSample x;
            x.section = uint16_t(s);
            x.iteration = uint32_t(i);
            x.cycles = value(s, i);
            set.samples.push_back(x);
        }
    return set;
}

// Names for `count` sections: the options', the file's, or "section N"; an error when the counts
// differ.
std::string nameSections(std::vector<std::string>& names, const SectionsImportOptions& o,
                         size_t count, bool fileHasNames) {
    if (!o.names.empty()) {
        if (o.names.size() != count)
            return std::to_string(o.names.size()) + " section names given for " +
                   std::to_string(count) + " sections";
        names = o.names;
    } else if (!fileHasNames) {
        for (size_t s = 0; s < count; ++s) names.push_back("section " + std::to_string(s));
    }
    return {};
}

constexpr size_t kMaxSections = 65535; // a section id is 16 bits

// A finite, non-negative value that fits int64 as a clock delta; else what is wrong with it.
std::string checkValue(double v, int64_t* out) {
    if (std::isnan(v)) return "is NaN";
    if (std::isinf(v)) return "is infinite";
    if (v < 0) return "is negative (" + std::to_string(v) + "): a clock delta cannot be";
    if (v >= 9.2e18) return "is too large for a clock delta";
    *out = int64_t(std::llround(v));
    return {};
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> splitCsv(std::string_view line) {
    std::vector<std::string_view> cells;
    size_t at = 0;
    while (true) {
        const size_t c = line.find(',', at);
        std::string_view cell = trim(line.substr(at, c == std::string_view::npos ? c : c - at));
        if (cell.size() >= 2 && cell.front() == '"' && cell.back() == '"')
            cell = cell.substr(1, cell.size() - 2);
        cells.push_back(cell);
        if (c == std::string_view::npos) break;
        at = c + 1;
    }
    return cells;
}

bool parseCell(std::string_view cell, double* out) {
    if (cell == "nan" || cell == "NaN" || cell == "NAN") {
        *out = std::numeric_limits<double>::quiet_NaN();
        return true;
    }
    return parseSectionsNumber(cell, out);
}

} // namespace

bool parseSectionsNumber(std::string_view text, double* out) {
    text = trim(text);
    if (text.empty()) return false;
    if (text.front() == '+') text.remove_prefix(1);
    const auto r = std::from_chars(text.data(), text.data() + text.size(), *out);
    return r.ec == std::errc() && r.ptr == text.data() + text.size();
}

// --- .npy --------------------------------------------------------------------------------------

SectionsImport parseNpySections(const std::string& path, std::string_view b,
                                const SectionsImportOptions& o) {
    if (b.size() < 10 || std::memcmp(b.data(), "\x93NUMPY", 6) != 0)
        return fail(path, "not a .npy file (no \\x93NUMPY magic at byte 0)");
    const unsigned major = uint8_t(b[6]);
    size_t headerLen = 0, headerAt = 0;
    if (major == 1) {
        headerLen = uint8_t(b[8]) | size_t(uint8_t(b[9])) << 8;
        headerAt = 10;
    } else if (major == 2 || major == 3) {
        if (b.size() < 12)
            return fail(path, "the .npy header is cut short at byte " + std::to_string(b.size()));
        headerLen = uint8_t(b[8]) | size_t(uint8_t(b[9])) << 8 | size_t(uint8_t(b[10])) << 16 |
                    size_t(uint8_t(b[11])) << 24;
        headerAt = 12;
    } else {
        return fail(path, ".npy format version " + std::to_string(major) +
                              " is not supported (1, 2 or 3)");
    }
    if (headerAt + headerLen > b.size())
        return fail(path, "the .npy header of " + std::to_string(headerLen) +
                              " bytes runs past the end of the file (" + std::to_string(b.size()) +
                              " bytes)");
    const std::string_view header = b.substr(headerAt, headerLen);
    auto valueOf = [&](std::string_view key) -> std::string_view {
        const size_t k = header.find(key);
        if (k == std::string_view::npos) return {};
        size_t at = header.find(':', k);
        if (at == std::string_view::npos) return {};
        ++at;
        while (at < header.size() && header[at] == ' ') ++at;
        size_t end = at;
        if (at < header.size() && header[at] == '(')
            end = header.find(')', at) + 1;
        else if (at < header.size() && (header[at] == '\'' || header[at] == '"'))
            end = header.find(header[at], at + 1) + 1;
        else
            end = header.find_first_of(",}", at);
        if (end == std::string_view::npos || end == 0) return {};
        return header.substr(at, end - at);
    };
    std::string_view descr = valueOf("'descr'");
    const std::string_view fortran = valueOf("'fortran_order'");
    const std::string_view shape = valueOf("'shape'");
    if (descr.size() < 2 || fortran.empty() || shape.empty())
        return fail(path,
                    "the .npy header has no descr, fortran_order or shape: " + std::string(header));
    descr = descr.substr(1, descr.size() - 2);
    // Signed or unsigned 64- or 32-bit little-endian integers: uint64 is what clock64() deltas
    // naturally are.
    size_t item = 0;
    bool isUnsigned = false;
    const std::string_view type = descr.size() == 3 ? descr.substr(1) : std::string_view();
    if (descr.size() == 3 && (descr[0] == '<' || descr[0] == '=')) {
        item = type == "i8" || type == "u8" ? 8 : type == "i4" || type == "u4" ? 4 : 0;
        isUnsigned = type[0] == 'u';
    }
    if (item == 0)
        return fail(path, "dtype '" + std::string(descr) +
                              "' is not supported: the timer array must be int64, int32, uint64 "
                              "or uint32 (little-endian '<i8', '<i4', '<u8' or '<u4')");
    std::vector<size_t> dims;
    for (size_t at = 1; at < shape.size();) {
        while (at < shape.size() && (shape[at] == ' ' || shape[at] == ',')) ++at;
        if (at >= shape.size() || shape[at] == ')') break;
        size_t v = 0;
        const auto r = std::from_chars(shape.data() + at, shape.data() + shape.size(), v);
        if (r.ec != std::errc())
            return fail(path, "cannot read the .npy shape " + std::string(shape));
        dims.push_back(v);
        at = size_t(r.ptr - shape.data());
    }
    if (dims.size() != 2)
        return fail(path, "the array is " + std::to_string(dims.size()) + "-D (shape " +
                              std::string(shape) +
                              "); expected a 2-D times[section][iteration] array");
    const size_t S = dims[0], I = dims[1];
    if (S == 0 || I == 0)
        return fail(path, "the array is empty (shape " + std::string(shape) + ")");
    if (S > kMaxSections) return fail(path, std::to_string(S) + " sections: at most 65535");
    const size_t dataAt = headerAt + headerLen;
    if (I > (b.size() - dataAt) / item / S + 1 || S * I * item > b.size() - dataAt)
        return fail(path, "holds " + std::to_string(b.size() - dataAt) + " data bytes; shape " +
                              std::string(shape) + " of " + std::string(descr) + " needs " +
                              std::to_string(S * I * item) + " (the file is cut short)");
    const bool colMajor = fortran.find("True") != std::string_view::npos;
    const char* data = b.data() + dataAt;
    auto cell = [&](size_t s, size_t i) -> const char* {
        return data + (colMajor ? i * S + s : s * I + i) * item;
    };
    auto raw = [&](size_t s, size_t i) -> int64_t {
        if (item == 8) {
            int64_t v;
            std::memcpy(&v, cell(s, i), 8);
            return v;
        }
        if (isUnsigned) {
            uint32_t v;
            std::memcpy(&v, cell(s, i), 4);
            return v;
        }
        int32_t v;
        std::memcpy(&v, cell(s, i), 4);
        return v;
    };
    for (size_t s = 0; s < S; ++s)
        for (size_t i = 0; i < I; ++i) {
            if (raw(s, i) >= 0) continue;
            const std::string at = "times[" + std::to_string(s) + "][" + std::to_string(i) + "] = ";
            if (isUnsigned) { // a uint64 past 2^63 - 1: a wrapped subtraction, not a delta
                uint64_t v;
                std::memcpy(&v, cell(s, i), 8);
                return fail(path, at + std::to_string(v) +
                                      " is past 2^63 - 1: a clock delta this large is a wrapped "
                                      "subtraction (end before start?)");
            }
            return fail(path, at + std::to_string(raw(s, i)) +
                                  " is negative: a clock delta cannot be (a wrapped 32-bit "
                                  "clock, or start and end swapped?)");
        }
    SectionsImport r;
    SectionSet set = arraySet(path, S, I, raw);
    if (std::string e = nameSections(set.names, o, S, false); !e.empty()) return fail(path, e);
    set.clockHz = o.clockHz;
    r.sets.push_back(std::move(set));
    return r;
}

// --- .csv --------------------------------------------------------------------------------------

SectionsImport parseCsvSections(const std::string& path, std::string_view text,
                                const SectionsImportOptions& o) {
    std::vector<std::string> names;
    std::vector<std::vector<int64_t>> columns; // [section][iteration]
    size_t lineNo = 0, at = 0;
    bool header = false;
    while (at <= text.size()) {
        const size_t nl = text.find('\n', at);
        const std::string_view line =
            trim(text.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at));
        at = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
        ++lineNo;
        if (line.empty() || line.front() == '#') continue;
        const std::vector<std::string_view> cells = splitCsv(line);
        if (!header) {
            header = true;
            double probe;
            const bool numeric = parseCell(cells[0], &probe);
            if (!numeric) {
                for (std::string_view c : cells) {
                    if (c.empty())
                        return fail(path, "line " + std::to_string(lineNo) +
                                              ": a section name in the header row is empty");
                    names.emplace_back(c);
                }
                if (names.size() > kMaxSections) return fail(path, "more than 65535 sections");
                columns.resize(names.size());
                continue;
            }
            if (o.names.empty())
                return fail(path, "line " + std::to_string(lineNo) +
                                      " holds numbers, not section names: the first row must "
                                      "name the sections (or give --names)");
            names = o.names;
            columns.resize(names.size());
        }
        if (cells.size() != columns.size())
            return fail(path, "line " + std::to_string(lineNo) + " has " +
                                  std::to_string(cells.size()) + " values; the header names " +
                                  std::to_string(columns.size()) + " sections");
        for (size_t c = 0; c < cells.size(); ++c) {
            double v;
            if (!parseCell(cells[c], &v))
                return fail(path, "line " + std::to_string(lineNo) + ", column " +
                                      std::to_string(c + 1) + " ('" + names[c] + "'): '" +
                                      std::string(cells[c]) + "' is not a number");
            int64_t x;
            if (std::string e = checkValue(v, &x); !e.empty())
                return fail(path, "line " + std::to_string(lineNo) + ", column " +
                                      std::to_string(c + 1) + " ('" + names[c] + "'): the value " +
                                      e);
            columns[c].push_back(x);
        }
    }
    if (!header) return fail(path, "the file is empty: expected a header row of section names");
    if (columns.empty() || columns[0].empty())
        return fail(path, "no rows of values after the header");
    SectionsImport r;
    SectionSet set = arraySet(path, columns.size(), columns[0].size(),
                              [&](size_t s, size_t i) { return columns[s][i]; });
    set.names = names;
    if (std::string e = nameSections(set.names, o, columns.size(), true); !e.empty())
        return fail(path, e);
    set.clockHz = o.clockHz;
    r.sets.push_back(std::move(set));
    return r;
}

// --- .json -------------------------------------------------------------------------------------

namespace {

// The byte offset of `token` in `text` (the first occurrence), as " at byte N", or "".
std::string whereIs(std::string_view text, std::string_view token) {
    const size_t at = token.empty() ? std::string_view::npos : text.find(token);
    return at == std::string_view::npos ? std::string() : " at byte " + std::to_string(at);
}

// The parsed document, or *error naming the place and the problem. nlohmann throws on a number
// past the double range (out_of_range 406: "1e400") as well as on bad syntax: both are caught
// here, at the boundary, and become the file's error.
bool parseTimerJson(std::string_view text, nlohmann::json* j, std::string* error) {
    try {
        *j = nlohmann::json::parse(text);
        return true;
    } catch (const nlohmann::json::parse_error& e) {
        *error = "not valid JSON at byte " + std::to_string(e.byte) + ": " + e.what();
    } catch (const nlohmann::json::out_of_range& e) {
        // "... number overflow parsing '1e400'": name the number and where it is.
        const std::string what = e.what();
        const size_t q = what.find('\'');
        const size_t q2 = q == std::string::npos ? q : what.find('\'', q + 1);
        const std::string token =
            q2 == std::string::npos ? std::string() : what.substr(q + 1, q2 - q - 1);
        *error = token.empty() ? "a number cannot be read: " + what
                               : "the number " + token + whereIs(text, token) +
                                     " is past the range of a double";
    } catch (const nlohmann::json::exception& e) {
        *error = std::string("cannot read the JSON: ") + e.what();
    }
    return false;
}

// times[s] as clock deltas (each checked), or *error naming the cell.
bool readTimerRow(const nlohmann::json& row, size_t s, size_t iterations, std::vector<int64_t>& out,
                  std::string* error) {
    const std::string at = "times[" + std::to_string(s) + "]";
    if (!row.is_array()) {
        *error = at + " is not a list of values";
        return false;
    }
    if (row.size() != iterations) {
        *error = at + " has " + std::to_string(row.size()) + " values, times[0] " +
                 std::to_string(iterations) + ": every section needs one value per iteration";
        return false;
    }
    out.reserve(row.size());
    for (size_t i = 0; i < row.size(); ++i) {
        const std::string where = at + "[" + std::to_string(i) + "]";
        if (!row[i].is_number()) {
            *error = where + " is not a number";
            return false;
        }
        int64_t x;
        if (std::string e = checkValue(row[i].get<double>(), &x); !e.empty()) {
            *error = where + " " + e;
            return false;
        }
        if (row[i].is_number_integer()) x = row[i].get<int64_t>();
        out.push_back(x);
    }
    return true;
}

SectionsImport parseJsonDocument(const std::string& path, const nlohmann::json& j,
                                 const SectionsImportOptions& o) {
    if (!j.is_object()) return fail(path, "expected a JSON object with \"sections\" and \"times\"");
    const auto times = j.find("times");
    if (times == j.end() || !times->is_array())
        return fail(path, "no \"times\" array (one list of values per section)");
    std::vector<std::string> names;
    if (const auto sections = j.find("sections"); sections != j.end()) {
        if (!sections->is_array()) return fail(path, "\"sections\" is not an array of names");
        for (size_t s = 0; s < sections->size(); ++s) {
            const auto& n = (*sections)[s];
            if (!n.is_string())
                return fail(path, "sections[" + std::to_string(s) + "] is not a string");
            names.push_back(n.get<std::string>());
        }
        if (names.size() != times->size())
            return fail(path, "\"sections\" names " + std::to_string(names.size()) +
                                  " sections but \"times\" holds " + std::to_string(times->size()));
    } else if (o.names.empty()) {
        return fail(path, "no \"sections\" names (give them in the file or with --names)");
    }
    if (times->empty()) return fail(path, "\"times\" is empty");
    if (times->size() > kMaxSections) return fail(path, "more than 65535 sections");
    double clockHz = 0;
    if (const auto hz = j.find("clock_hz"); hz != j.end() && !hz->is_null()) {
        if (!hz->is_number() || !(hz->get<double>() > 0))
            return fail(path, "\"clock_hz\" must be a positive number");
        clockHz = hz->get<double>();
    }
    const size_t iterations = (*times)[0].is_array() ? (*times)[0].size() : 0;
    std::vector<std::vector<int64_t>> columns(times->size());
    for (size_t s = 0; s < times->size(); ++s)
        if (std::string e; !readTimerRow((*times)[s], s, iterations, columns[s], &e))
            return fail(path, e);
    if (iterations == 0) return fail(path, "\"times\" holds no values");
    SectionsImport r;
    SectionSet set = arraySet(path, columns.size(), iterations,
                              [&](size_t s, size_t i) { return columns[s][i]; });
    set.names = names;
    if (std::string e = nameSections(set.names, o, columns.size(), !names.empty()); !e.empty())
        return fail(path, e);
    set.clockHz = o.clockHz > 0 ? o.clockHz : clockHz;
    r.sets.push_back(std::move(set));
    return r;
}

} // namespace

SectionsImport parseJsonSections(const std::string& path, std::string_view text,
                                 const SectionsImportOptions& o) {
    nlohmann::json j;
    std::string error;
    if (!parseTimerJson(text, &j, &error)) return fail(path, error);
    try { // no exception leaves a reader: a type surprise past the checks above is the file's
        return parseJsonDocument(path, j, o);
    } catch (const std::exception& e) {
        return fail(path, std::string("cannot read the timer array: ") + e.what());
    }
}

} // namespace strata

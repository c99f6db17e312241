#include "io/json/json_top_level.h"

#include "io/json/json_stack_samples.h"
#include "model/run_info.h"
#include "util/utf8.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <charconv>
#include <cstdio>
#include <limits>
#include <optional>
#include <type_traits>

namespace strata {
namespace {

bool hex4(std::string_view s, size_t at, unsigned* out) {
    if (at + 4 > s.size()) return false;
    unsigned v = 0;
    const auto r = std::from_chars(s.data() + at, s.data() + at + 4, v, 16);
    if (r.ec != std::errc() || r.ptr != s.data() + at + 4) return false;
    *out = v;
    return true;
}

// What repairTopLevelValue replaced.
struct Repairs {
    size_t surrogates = 0, bytes = 0, controls = 0, numbers = 0;
    bool any() const { return surrogates || bytes || controls || numbers; }
    std::string text() const {
        std::string t;
        auto add = [&](size_t n, const char* what) {
            if (n) t += (t.empty() ? "" : ", ") + std::to_string(n) + " " + what;
        };
        add(surrogates, "lone UTF-16 surrogate(s) replaced by U+FFFD");
        add(bytes, "byte(s) that are not UTF-8 replaced by U+FFFD");
        add(controls, "control character(s) escaped");
        add(numbers, "number(s) past the double range kept as text");
        return t;
    }
};

// A string's character at raw[i] (i inside the quotes), appended to `out` repaired: a lone
// surrogate escape and a byte that is not UTF-8 become U+FFFD, a control character an escape.
// Returns the index after it.
size_t repairStringChar(std::string_view raw, size_t i, std::string& out, Repairs& r) {
    const char c = raw[i];
    if (c == '\\') {
        unsigned u = 0, lo = 0;
        if (i + 1 < raw.size() && raw[i + 1] == 'u' && hex4(raw, i + 2, &u) && u >= 0xD800 &&
            u <= 0xDFFF) {
            const bool paired = u <= 0xDBFF && i + 7 < raw.size() && raw[i + 6] == '\\' &&
                                raw[i + 7] == 'u' && hex4(raw, i + 8, &lo) && lo >= 0xDC00 &&
                                lo <= 0xDFFF;
            if (paired) {
                out.append(raw.substr(i, 12));
                return i + 12;
            }
            out += "\\ufffd";
            ++r.surrogates;
            return i + 6;
        }
        out.append(raw.substr(i, std::min<size_t>(2, raw.size() - i)));
        return i + 2;
    }
    if (static_cast<unsigned char>(c) < 0x20) {
        char esc[8];
        std::snprintf(esc, sizeof esc, "\\u%04x", unsigned(c));
        out += esc;
        ++r.controls;
        return i + 1;
    }
    const size_t n = utf8SequenceLength(raw, i);
    if (n == 0) {
        out += kReplacementCharacter;
        ++r.bytes;
        return i + 1;
    }
    out.append(raw.substr(i, n));
    return i + n;
}

// A number token at raw[i] appended to `out`: as it is, or as a string when it is past the double
// range (1e400; a value too small rounds to 0 and is kept). Returns the index after it.
size_t repairNumber(std::string_view raw, size_t i, std::string& out, Repairs& r) {
    size_t j = i + 1;
    while (j < raw.size() && (std::isdigit(static_cast<unsigned char>(raw[j])) || raw[j] == '.' ||
                              raw[j] == 'e' || raw[j] == 'E' || raw[j] == '+' || raw[j] == '-'))
        ++j;
    const std::string_view tok = raw.substr(i, j - i);
    double d = 0;
    const auto res = std::from_chars(tok.data(), tok.data() + tok.size(), d);
    const size_t e = tok.find_first_of("eE");
    const bool tiny = e != tok.npos && e + 1 < tok.size() && tok[e + 1] == '-';
    if (res.ec == std::errc::result_out_of_range && !tiny) {
        out += '"';
        out.append(tok);
        out += '"';
        ++r.numbers;
    } else {
        out.append(tok);
    }
    return j;
}

// A top-level value that is JSON by its grammar but holds what nlohmann cannot keep (a lone
// surrogate "\ud800", 1e400, bytes that are not UTF-8 or raw control characters in a string),
// with each of those replaced; what was replaced in `r`. Events tolerate the same values
// (json_event_fields): so does the top level, with a warning.
std::string repairTopLevelValue(std::string_view raw, Repairs& r) {
    std::string out;
    out.reserve(raw.size() + 16);
    bool inString = false;
    for (size_t i = 0; i < raw.size();) {
        const char c = raw[i];
        if (inString) {
            if (c == '"') {
                inString = false;
                out += c;
                ++i;
            } else {
                i = repairStringChar(raw, i, out, r);
            }
        } else if (c == '"') {
            inString = true;
            out += c;
            ++i;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            i = repairNumber(raw, i, out, r);
        } else {
            out += c;
            ++i;
        }
    }
    return out;
}

// The value of `v` as nlohmann JSON, repaired where it must be (said in a warning); discarded
// when it is not JSON at all.
nlohmann::json parseTopLevelValue(TraceBuilder& b, const TopLevelValue& v) {
    nlohmann::json j = nlohmann::json::parse(v.raw, nullptr, /*allow_exceptions=*/false);
    if (!j.is_discarded()) return j;
    Repairs r;
    const std::string repaired = repairTopLevelValue(v.raw, r);
    if (!r.any()) return j;
    j = nlohmann::json::parse(repaired, nullptr, /*allow_exceptions=*/false);
    if (!j.is_discarded())
        b.addWarning("top-level key \"" + v.key + "\" (at byte " + std::to_string(v.offset) +
                     ", line " + std::to_string(v.line) + "): " + r.text());
    return j;
}

// A JSON number as an integer field, clamped to its range (a cast of an out-of-range double is
// undefined).
template <typename T> T clampedNumber(const nlohmann::json& n) {
    const double d = n.get<double>();
    if (!(d > double(std::numeric_limits<T>::min()))) return std::numeric_limits<T>::min();
    if (!(d < double(std::numeric_limits<T>::max()))) return std::numeric_limits<T>::max();
    return static_cast<T>(d);
}

} // namespace

bool applyTopLevel(TraceBuilder& b, const std::vector<TopLevelValue>& values, LoadError* error) {
    std::string unread;
    // Chrome's sampled stacks, applied after the loop. Read only as a pair: either key alone is
    // taken as any other key is (a large one read past and named, a small one kept as metadata).
    nlohmann::json stackFrames, samples;
    const auto stackKey = [](const std::string& key) {
        return key == "stackFrames" || key == "samples";
    };
    size_t stackKeys = 0;
    for (const TopLevelValue& v : values) stackKeys += stackKey(v.key);
    const bool stacks = stackKeys == 2;
    for (const TopLevelValue& v : values) {
        const bool used = topLevelKeepLimit(v.key) == kJsonMaxTopLevelValue && // one it reads
                          (!stackKey(v.key) || stacks);
        if (v.raw.empty() || (!used && v.size > kJsonMaxTopLevelMetadata)) {
            if (used)
                b.addWarning("top-level key \"" + v.key + "\" (" + std::to_string(v.size) +
                             " bytes at byte " + std::to_string(v.offset) +
                             ") not kept: larger than 16 MiB");
            else // not used by Strata: read past, said in the metadata
                unread += (unread.empty() ? "" : ", ") + v.key + " (" + std::to_string(v.size) +
                          " bytes)";
            continue;
        }
        nlohmann::json j = parseTopLevelValue(b, v);
        if (j.is_discarded()) {
            error->byteOffset = v.offset;
            error->line = v.line;
            error->message = "expected a valid JSON value for the top-level key \"" + v.key + "\"";
            return false;
        }
        if (v.key == "strata_run" && j.is_object() && !j.is_discarded()) {
            // What was run, as Strata's export writes it (io/export): back into the model.
            RunInfo run;
            auto num = [&](const char* key) -> std::optional<int64_t> {
                auto it = j.find(key);
                if (it == j.end() || !it->is_number_integer()) return std::nullopt;
                return it->get<int64_t>();
            };
            run.pid = num("pid").value_or(0);
            if (auto c = num("exit_code")) run.exitCode = int(*c);
            if (auto s = num("signal")) run.signal = int(*s);
            run.startUnixNs = num("start_unix_ns").value_or(0);
            run.durationNs = num("duration_ns").value_or(0);
            if (runInfoFromJson(v.raw, &run).empty()) {
                b.setRunInfo(run);
                continue;
            }
        }
        if (stacks && stackKey(v.key)) { // into the model, not the metadata
            (v.key == "samples" ? samples : stackFrames) = std::move(j);
            continue;
        }
        if (j.is_string())
            b.setMetadata(v.key, j.get<std::string>());
        else
            b.setMetadata(v.key, j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
        if (v.key != "deviceProperties" || !j.is_array()) continue;
        for (const auto& dev : j) {
            if (!dev.is_object()) continue;
            DeviceInfo info;
            auto num = [&](const char* key, auto* out) {
                auto it = dev.find(key);
                if (it != dev.end() && it->is_number())
                    *out = clampedNumber<std::remove_reference_t<decltype(*out)>>(*it);
            };
            num("id", &info.id);
            num("numSms", &info.smCount);
            num("totalGlobalMem", &info.totalMemoryBytes);
            num("computeMajor", &info.computeMajor);
            num("computeMinor", &info.computeMinor);
            num("clockRate", &info.clockRateKHz);
            num("memoryClockRate", &info.memoryClockRateKHz);
            if (auto it = dev.find("name"); it != dev.end() && it->is_string())
                info.name = it->get<std::string>();
            b.addDevice(info);
        }
    }
    if (!unread.empty()) b.setMetadata("strata: top-level values not read", unread);
    applyStackSamples(b, stackFrames, samples);
    return true;
}

} // namespace strata

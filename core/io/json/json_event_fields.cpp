#include "io/json/json_simdjson.h" // first: sets the target for everything below

#include <cmath>
#include <cstring>

#include "io/json/json_decimal.h"
#include "io/json/json_event_fields.h"

namespace strata {
namespace od = simdjson::ondemand;

namespace {

inline bool keyIs(const char* raw, const char* lit, size_t n) {
    return std::memcmp(raw, lit, n) == 0 && raw[n] == '"';
}

bool readTime(od::value v, TimeNs* out) {
    od::json_type t;
    if (v.type().get(t)) return false;
    std::string_view text;
    if (t == od::json_type::number) {
        text = v.raw_json_token();
    } else if (t == od::json_type::string) {
        if (v.get_string().get(text)) return false;
    } else {
        return false;
    }
    return parseMicrosToNs(text, out);
}

// A JSON number by the grammar (-?int frac? exp?), trailing whitespace allowed: what simdjson
// refuses with a number error although the text is valid, e.g. 1e400 (out of double range).
bool isJsonNumber(std::string_view t) {
    while (!t.empty() &&
           (t.back() == ' ' || t.back() == '\n' || t.back() == '\r' || t.back() == '\t'))
        t.remove_suffix(1);
    size_t i = 0;
    auto digits = [&] {
        const size_t from = i;
        while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
        return i > from;
    };
    if (i < t.size() && t[i] == '-') ++i;
    if (i < t.size() && t[i] == '0')
        ++i;
    else if (!digits())
        return false;
    if (i < t.size() && t[i] == '.') {
        ++i;
        if (!digits()) return false;
    }
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
        if (!digits()) return false;
    }
    return i == t.size();
}

bool isNumberError(simdjson::error_code e) {
    // (INCORRECT_TYPE: simdjson 3.0 on an integer past 64 bits.) Called on values whose type() is
    // number only.
    return e == simdjson::NUMBER_ERROR || e == simdjson::NUMBER_OUT_OF_RANGE ||
           e == simdjson::INCORRECT_TYPE;
}

// On-Demand does not look at values nobody asks for; literals and numbers that are skipped are
// checked here so that "tru" or "1.2.3" is reported, not ignored.
simdjson::error_code validateScalar(od::value v, od::json_type t) {
    switch (t) {
    case od::json_type::boolean: {
        bool b;
        return v.get_bool().get(b);
    }
    case od::json_type::null: {
        bool isNull = false;
        if (auto e = v.is_null().get(isNull)) return e;
        return isNull ? simdjson::SUCCESS : simdjson::N_ATOM_ERROR;
    }
    case od::json_type::number: {
        double d;
        const auto e = v.get_double().get(d);
        return isNumberError(e) && isJsonNumber(v.raw_json_token()) ? simdjson::SUCCESS : e;
    }
    default:
        return simdjson::SUCCESS;
    }
}

simdjson::error_code readId(od::value v, IdField* out) {
    od::json_type t;
    if (auto e = v.type().get(t)) return e;
    out->present = true;
    if (t == od::json_type::number) {
        int64_t i;
        if (!v.get_int64().get(i)) {
            out->num = i;
            return simdjson::SUCCESS;
        }
        double d;
        if (auto e = v.get_double().get(d)) {
            if (!isNumberError(e) || !isJsonNumber(v.raw_json_token())) return e;
            out->isString = true; // out of double range: an id by its text
            out->text = v.raw_json_token();
            return simdjson::SUCCESS;
        }
        if (std::isfinite(d) && std::fabs(d) < 9.2e18)
            out->num = int64_t(d);
        else
            out->present = false;
        return simdjson::SUCCESS;
    }
    if (t == od::json_type::string) {
        if (auto e = v.get_string().get(out->text)) return e;
        if (!parseInt64(out->text, &out->num)) out->isString = true;
        return simdjson::SUCCESS;
    }
    out->present = false; // null, bool, object: treated as absent (but must be valid)
    return validateScalar(v, t);
}

simdjson::error_code readArgs(od::value v, Event& ev) {
    od::object obj;
    if (v.get_object().get(obj)) {
        ev.argsNotObject = true;
        return simdjson::SUCCESS;
    }
    for (auto field : obj) {
        ArgItem a;
        // Keys without escapes are used in place (the batch outlives the event); others are
        // unescaped by simdjson.
        od::raw_json_string rk;
        if (auto e = field.key().get(rk)) return e;
        const char* kp = rk.raw();
        size_t klen = 0;
        while (kp[klen] != '"' && kp[klen] != '\\') ++klen;
        if (kp[klen] == '"') {
            a.key = std::string_view(kp, klen);
        } else {
            if (auto e = field.unescaped_key().get(a.key)) return e;
        }
        od::value av;
        if (auto e = field.value().get(av)) return e;
        od::json_type t;
        if (auto e = av.type().get(t)) return e;
        switch (t) {
        case od::json_type::number: {
            // Plain small integers (most Kineto args) without simdjson's general number path.
            const std::string_view tok = av.raw_json_token();
            size_t i = 0;
            int64_t x = 0;
            while (i < tok.size() && i < 18 && tok[i] >= '0' && tok[i] <= '9')
                x = x * 10 + (tok[i++] - '0');
            if (i > 0 && (i == tok.size() || tok[i] == ' ' || tok[i] == '\n' || tok[i] == '\r' ||
                          tok[i] == '\t' || tok[i] == ',' || tok[i] == '}' || tok[i] == ']')) {
                a.type = ArgValue::Type::Int;
                a.i = x;
                break;
            }
            od::number_type nt;
            simdjson::error_code e = av.get_number_type().get(nt);
            if (!e && nt == od::number_type::signed_integer) {
                a.type = ArgValue::Type::Int;
                e = av.get_int64().get(a.i);
            } else if (!e && nt == od::number_type::unsigned_integer) {
                a.type = ArgValue::Type::UInt;
                e = av.get_uint64().get(a.u);
            } else if (!e) {
                a.type = ArgValue::Type::Double;
                e = av.get_double().get(a.d);
            }
            if (e) {
                // A valid number out of range (1e400, an integer past 64 bits): its text is
                // kept, and counted.
                if (!isNumberError(e) || !isJsonNumber(tok)) return e;
                a.type = ArgValue::Type::Json;
                a.s = tok;
                while (!a.s.empty() && (a.s.back() == ' ' || a.s.back() == '\n' ||
                                        a.s.back() == '\r' || a.s.back() == '\t'))
                    a.s.remove_suffix(1);
                ++ev.numbersKeptAsText;
            }
            break;
        }
        case od::json_type::string:
            a.type = ArgValue::Type::String;
            if (auto e = av.get_string().get(a.s)) return e;
            break;
        case od::json_type::boolean:
            a.type = ArgValue::Type::Bool;
            if (auto e = av.get_bool().get(a.b)) return e;
            break;
        case od::json_type::null: {
            bool isNull = false;
            if (auto e = av.is_null().get(isNull)) return e;
            if (!isNull) return simdjson::INCORRECT_TYPE;
            a.type = ArgValue::Type::Null;
            break;
        }
        case od::json_type::object: {
            a.type = ArgValue::Type::Json;
            od::object o;
            if (auto e = av.get_object().get(o)) return e;
            if (auto e = o.raw_json().get(a.s)) return e;
            break;
        }
        case od::json_type::array: {
            a.type = ArgValue::Type::Json;
            od::array arr;
            if (auto e = av.get_array().get(arr)) return e;
            if (auto e = arr.raw_json().get(a.s)) return e;
            break;
        }
        }
        ev.args.push_back(a);
    }
    return simdjson::SUCCESS;
}

} // namespace

simdjson::error_code readEvent(od::object obj, Event& ev) {
    for (auto field : obj) {
        od::raw_json_string rk;
        if (auto e = field.key().get(rk)) return e;
        const char* k = rk.raw();
        od::value v;
        if (auto e = field.value().get(v)) return e;
        bool known = false;
        switch (k[0]) {
        case 'p':
            if (keyIs(k, "ph", 2)) {
                known = true;
                std::string_view s;
                if (!v.get_string().get(s) && s.size() == 1)
                    ev.ph = s[0];
                else
                    ev.ph = '?';
            } else if (keyIs(k, "pid", 3)) {
                known = true;
                if (auto e = readId(v, &ev.pid)) return e;
            }
            break;
        case 't':
            if (keyIs(k, "ts", 2)) {
                known = true;
                ev.hasTs = true;
                ev.badTs = !readTime(v, &ev.ts);
            } else if (keyIs(k, "tid", 3)) {
                known = true;
                if (auto e = readId(v, &ev.tid)) return e;
            }
            break;
        case 'd':
            if (keyIs(k, "dur", 3)) {
                known = true;
                ev.hasDur = true;
                ev.badDur = !readTime(v, &ev.dur);
            }
            break;
        case 'n':
            if (keyIs(k, "name", 4)) {
                known = true;
                if (!v.get_string().get(ev.name)) ev.hasName = true;
            }
            break;
        case 'c':
            if (keyIs(k, "cat", 3)) {
                known = true;
                if (!v.get_string().get(ev.cat)) ev.hasCat = true;
            }
            break;
        case 'a':
            if (keyIs(k, "args", 4)) {
                known = true;
                if (auto e = readArgs(v, ev)) return e;
            }
            break;
        case 'i':
            if (keyIs(k, "id", 2)) {
                known = true;
                if (auto e = readId(v, &ev.id)) return e;
            } else if (keyIs(k, "id2", 3)) {
                known = true;
                od::object o;
                if (!v.get_object().get(o)) {
                    for (auto f : o) {
                        std::string_view key, val;
                        if (auto e = f.unescaped_key().get(key)) return e;
                        od::value fv;
                        if (auto e = f.value().get(fv)) return e;
                        val = fv.raw_json_token();
                        ev.id2Text = key == "local" ? "local" : "global";
                        ev.id.present = true;
                        ev.id.isString = true;
                        ev.id.text = val;
                    }
                }
            }
            break;
        case 'b':
            if (keyIs(k, "bind_id", 7)) {
                known = true;
                if (auto e = readId(v, &ev.bindId)) return e;
                ev.hasBind = ev.bindId.present;
            } else if (keyIs(k, "bp", 2)) {
                known = true;
                std::string_view s;
                if (!v.get_string().get(s) && !s.empty()) ev.bp = s[0];
            }
            break;
        case 'f':
            if (keyIs(k, "flow_in", 7)) {
                known = true;
                bool b = false;
                if (!v.get_bool().get(b)) ev.flowIn = b;
            } else if (keyIs(k, "flow_out", 8)) {
                known = true;
                bool b = false;
                if (!v.get_bool().get(b)) ev.flowOut = b;
            }
            break;
        case 's':
            if (keyIs(k, "s", 1)) {
                known = true;
                std::string_view s;
                if (!v.get_string().get(s) && !s.empty()) ev.scope = s[0];
            }
            break;
        default:
            break;
        }
        if (!known) {
            od::json_type t;
            if (auto e = v.type().get(t)) return e;
            if (auto e = validateScalar(v, t)) return e;
        }
    }
    return simdjson::SUCCESS;
}

} // namespace strata

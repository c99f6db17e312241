#pragma once
// One Chrome trace event object read with simdjson On-Demand into plain fields (views into the
// parser's buffers, valid until the next batch is parsed).
#include "model/arg_store.h"
#include "model/time.h"

#include <cstdint>
#include <string_view>
#include <vector>

#include "io/json/json_simdjson.h"

namespace strata {

// An id given as a string (pid/tid "stream 7", flow id "0x1f"): numbers where they parse.
struct IdField {
    bool present = false;
    bool isString = false;
    int64_t num = 0;
    std::string_view text;
};

struct ArgItem {
    std::string_view key;
    ArgValue::Type type = ArgValue::Type::Null;
    bool b = false;
    int64_t i = 0;
    uint64_t u = 0;
    double d = 0;
    std::string_view s; // String value, or raw JSON text (Json)
};

struct EventScalars {
    char ph = 0;
    bool hasName = false, hasCat = false, hasTs = false, badTs = false, hasDur = false,
         badDur = false, argsNotObject = false, flowIn = false, flowOut = false, hasBind = false;
    std::string_view name, cat;
    TimeNs ts = 0, dur = 0;
    IdField pid, tid, id, bindId;
    std::string_view id2Text; // "local:..." / "global:..." cookie text
    char scope = 0;
    char bp = 0;
    uint32_t numbersKeptAsText = 0; // args numbers out of range, kept as their text
};

struct Event : EventScalars {
    std::vector<ArgItem> args;
    void reset() {
        static_cast<EventScalars&>(*this) = EventScalars{};
        args.clear();
    }
};

// Reads the fields Strata uses (ph, name, cat, ts, dur, pid, tid, id, id2, bind_id, flow_in,
// flow_out, s, bp, args); others are skipped. Returns a simdjson error for malformed JSON only;
// fields of the wrong type are flagged in Event (badTs, ...) or treated as absent.
simdjson::error_code readEvent(simdjson::ondemand::object obj, Event& ev);

} // namespace strata

#include "query/tables/trace_text.h"

#include "query/query_table.h"

#include <nlohmann/json.hpp>

namespace strata {

namespace {

std::string argsJson(const Trace& trace, ArgSetId id) {
    nlohmann::json o = nlohmann::json::object();
    for (const Arg& a : trace.args(id)) {
        const std::string key(trace.str(a.key));
        const ArgValue& v = a.value;
        switch (v.type) {
        case ArgValue::Type::Null:
            o[key] = nullptr;
            break;
        case ArgValue::Type::Bool:
            o[key] = v.b;
            break;
        case ArgValue::Type::Int:
            o[key] = v.i;
            break;
        case ArgValue::Type::UInt:
            o[key] = v.u;
            break;
        case ArgValue::Type::Double:
            o[key] = v.d;
            break;
        case ArgValue::Type::String:
            o[key] = v.s;
            break;
        case ArgValue::Type::Json:
            o[key] = nlohmann::json::parse(v.s, nullptr, false);
            break;
        }
    }
    return o.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace

void threadName(sqlite3_context* ctx, const Trace& trace, int64_t pid, int64_t tid) {
    const Thread* t = trace.thread(pid, tid);
    t && t->name ? resultStaticText(ctx, trace.str(t->name)) : resultNull(ctx);
}

void processName(sqlite3_context* ctx, const Trace& trace, int64_t pid) {
    const Process* p = trace.process(pid);
    p && p->name ? resultStaticText(ctx, trace.str(p->name)) : resultNull(ctx);
}

void argsValue(sqlite3_context* ctx, const Trace& trace, ArgSetId id) {
    id == kNoArgs ? resultNull(ctx) : resultText(ctx, argsJson(trace, id));
}

} // namespace strata

#include "query/query_engine.h"

#include "query/query_module.h"
#include "query/query_tables.h"

#include <sqlite3.h>

#include <cstdio>
#include <cstring>

namespace strata {

struct QueryEngine::Running {
    const QueryControl* control = nullptr;
    const uint64_t* rows = nullptr; // the run's rows so far
    bool stopped = false;
};

namespace {

constexpr const char* kReadOnly =
    "refused: the query layer only reads (SELECT, WITH, EXPLAIN and the schema's PRAGMAs); it "
    "writes nothing, attaches no file and loads no extension";

// No ATTACH/DETACH (a file), no pragma but the schema's, no extension, no CREATE or DROP.
// Writes are refused before a statement runs (sqlite3_stmt_readonly): SQLite itself updates its
// schema table while it connects the virtual tables, which an authorizer would see as a write.
int authorize(void*, int action, const char* a, const char*, const char*, const char*) {
    switch (action) {
    case SQLITE_ATTACH:
    case SQLITE_DETACH:
    case SQLITE_CREATE_INDEX:
    case SQLITE_CREATE_TABLE:
    case SQLITE_CREATE_TEMP_INDEX:
    case SQLITE_CREATE_TEMP_TABLE:
    case SQLITE_CREATE_TEMP_TRIGGER:
    case SQLITE_CREATE_TEMP_VIEW:
    case SQLITE_CREATE_TRIGGER:
    case SQLITE_CREATE_VIEW:
    case SQLITE_CREATE_VTABLE:
    case SQLITE_DROP_INDEX:
    case SQLITE_DROP_TABLE:
    case SQLITE_DROP_TEMP_INDEX:
    case SQLITE_DROP_TEMP_TABLE:
    case SQLITE_DROP_TEMP_TRIGGER:
    case SQLITE_DROP_TEMP_VIEW:
    case SQLITE_DROP_TRIGGER:
    case SQLITE_DROP_VIEW:
    case SQLITE_DROP_VTABLE:
    case SQLITE_ALTER_TABLE:
    case SQLITE_REINDEX:
    case SQLITE_ANALYZE:
        return SQLITE_DENY;
    case SQLITE_PRAGMA:
        return a && (std::strcmp(a, "table_info") == 0 || std::strcmp(a, "table_xinfo") == 0 ||
                     std::strcmp(a, "table_list") == 0 || std::strcmp(a, "module_list") == 0)
                   ? SQLITE_OK
                   : SQLITE_DENY;
    case SQLITE_FUNCTION:
        return a && std::strcmp(a, "load_extension") == 0 ? SQLITE_DENY : SQLITE_OK;
    default:
        return SQLITE_OK;
    }
}

} // namespace

QueryEngine::QueryEngine(std::vector<QuerySource> sources) : sources_(std::move(sources)) {
    tables_ = makeQueryTables(sources_);
    if (sqlite3_open_v2(":memory:", &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) !=
        SQLITE_OK) {
        error_ = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        db_ = nullptr;
        return;
    }
    sqlite3_db_config(db_, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
    sqlite3_db_config(db_, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_limit(db_, SQLITE_LIMIT_ATTACHED, 0);
    for (const auto& t : tables_)
        if (!registerQueryTable(db_, *t, &error_)) {
            sqlite3_close(db_);
            db_ = nullptr;
            return;
        }
    sqlite3_set_authorizer(db_, authorize, nullptr);
}

QueryEngine::~QueryEngine() {
    if (db_) sqlite3_close(db_);
}

std::string QueryValue::toString() const {
    switch (type) {
    case Type::Int:
        return std::to_string(i);
    case Type::Real: {
        char b[64];
        std::snprintf(b, sizeof b, "%.17g", d);
        return b;
    }
    case Type::Text:
        return std::string(text);
    default:
        return {};
    }
}

std::string queryPosition(std::string_view sql, int offset) {
    int line = 1, col = 1;
    for (int i = 0; i < offset && size_t(i) < sql.size(); ++i) {
        if (sql[size_t(i)] == '\n') {
            ++line;
            col = 1;
        } else {
            ++col;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(col);
}

namespace {

QueryValue valueOf(sqlite3_stmt* s, int col) {
    QueryValue v;
    switch (sqlite3_column_type(s, col)) {
    case SQLITE_INTEGER:
        v.type = QueryValue::Type::Int;
        v.i = sqlite3_column_int64(s, col);
        break;
    case SQLITE_FLOAT:
        v.type = QueryValue::Type::Real;
        v.d = sqlite3_column_double(s, col);
        break;
    case SQLITE_NULL:
        break;
    default: {
        v.type = QueryValue::Type::Text;
        const auto* t = reinterpret_cast<const char*>(sqlite3_column_text(s, col));
        v.text = std::string_view(t ? t : "", size_t(sqlite3_column_bytes(s, col)));
    }
    }
    return v;
}

} // namespace

QueryOutcome QueryEngine::run(std::string_view sql, QuerySink& sink, const QueryControl& control) {
    QueryOutcome out;
    if (!db_) {
        out.ok = false;
        out.error = error_;
        return out;
    }
    Running running;
    running.control = &control;
    running.rows = &out.rows;
    sqlite3_progress_handler(
        db_, 4096,
        [](void* p) -> int {
            auto* r = static_cast<Running*>(p);
            const QueryControl& c = *r->control;
            if (c.cancel && c.cancel->load(std::memory_order_relaxed)) return r->stopped = true, 1;
            if (c.progress && !c.progress(*r->rows)) return r->stopped = true, 1;
            return 0;
        },
        &running);
    const std::string text(sql);
    const char* at = text.c_str();
    const char* end = at + text.size();
    auto fail = [&](const std::string& what, int offset) {
        out.ok = false;
        out.errorOffset = offset;
        out.error = offset >= 0 ? what + " (at " + queryPosition(sql, offset) + ")" : what;
    };
    while (at < end && out.ok) {
        sqlite3_stmt* stmt = nullptr;
        const char* tail = nullptr;
        if (sqlite3_prepare_v2(db_, at, int(end - at), &stmt, &tail) != SQLITE_OK) {
            const int offset = sqlite3_error_offset(db_);
            const std::string why =
                sqlite3_errcode(db_) == SQLITE_AUTH ? kReadOnly : sqlite3_errmsg(db_);
            fail(why, offset >= 0 ? int(at - text.c_str()) + offset : int(at - text.c_str()));
            break;
        }
        if (!stmt) { // only whitespace or a comment left
            at = tail;
            continue;
        }
        if (!sqlite3_stmt_readonly(stmt)) {
            fail(kReadOnly, int(at - text.c_str()));
            sqlite3_finalize(stmt);
            break;
        }
        ++out.statements;
        const int n = sqlite3_column_count(stmt);
        std::vector<std::string> names;
        for (int c = 0; c < n; ++c) names.emplace_back(sqlite3_column_name(stmt, c));
        sink.columns(names);
        std::vector<QueryValue> row(static_cast<size_t>(n), QueryValue{});
        int rc = SQLITE_OK;
        while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
            for (int c = 0; c < n; ++c) row[size_t(c)] = valueOf(stmt, c);
            ++out.rows;
            if (!sink.row(row)) {
                rc = SQLITE_DONE;
                break;
            }
        }
        sink.end();
        if (rc == SQLITE_INTERRUPT || running.stopped) {
            out.ok = false;
            out.cancelled = true;
            out.error = "the query was stopped after " + std::to_string(out.rows) + " rows";
        } else if (rc != SQLITE_DONE) {
            fail(sqlite3_errmsg(db_), -1);
        }
        sqlite3_finalize(stmt);
        at = tail;
    }
    sqlite3_progress_handler(db_, 0, nullptr, nullptr);
    return out;
}

} // namespace strata

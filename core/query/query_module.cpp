#include "query/query_module.h"

#include <sqlite3.h>

#include <cmath>
#include <string>

namespace strata {

namespace {

struct VTab : sqlite3_vtab {
    const QueryTable* table = nullptr;
};

struct VCursor : sqlite3_vtab_cursor {
    std::unique_ptr<QueryCursor> cursor;
};

std::string quoted(const std::string& name) {
    std::string q = "\"";
    for (char c : name) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

int connect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char** err) {
    const auto* table = static_cast<const QueryTable*>(aux);
    std::string sql = "CREATE TABLE x(";
    bool first = true;
    for (const QueryColumn& c : table->columns()) {
        sql += (first ? "" : ", ") + quoted(c.name) + " " + c.type;
        first = false;
    }
    sql += ")";
    if (const int rc = sqlite3_declare_vtab(db, sql.c_str()); rc != SQLITE_OK) {
        *err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
        return rc;
    }
    auto* v = new VTab();
    v->table = table;
    *out = v;
    return SQLITE_OK;
}

int disconnect(sqlite3_vtab* v) {
    delete static_cast<VTab*>(v);
    return SQLITE_OK;
}

// The plan goes to xFilter as idxStr, one character per argument: 'L' the lookup value, and the
// time column's bounds '>' (GT), 'g' (GE), '<' (LT), 'l' (LE); idxNum packs the lookup column
// + 1 and the grouped column + 1.
int bestIndex(sqlite3_vtab* vt, sqlite3_index_info* info) {
    const QueryTable& t = *static_cast<VTab*>(vt)->table;
    std::string args;
    int lookup = -1, argc = 0;
    for (int i = 0; i < info->nConstraint; ++i) {
        const auto& c = info->aConstraint[i];
        if (!c.usable || c.iColumn < 0) continue;
        if (c.op == SQLITE_INDEX_CONSTRAINT_EQ && lookup < 0 && t.canLookup(c.iColumn)) {
            lookup = c.iColumn;
            info->aConstraintUsage[i].argvIndex = ++argc;
            args += 'L';
        }
    }
    bool bounded = false;
    for (int i = 0; i < info->nConstraint; ++i) {
        const auto& c = info->aConstraint[i];
        if (!c.usable || c.iColumn < 0 || c.iColumn != t.timeColumn() || lookup >= 0) continue;
        char code = 0;
        switch (c.op) {
        case SQLITE_INDEX_CONSTRAINT_GT:
            code = '>';
            break;
        case SQLITE_INDEX_CONSTRAINT_GE:
            code = 'g';
            break;
        case SQLITE_INDEX_CONSTRAINT_LT:
            code = '<';
            break;
        case SQLITE_INDEX_CONSTRAINT_LE:
            code = 'l';
            break;
        default:
            continue;
        }
        info->aConstraintUsage[i].argvIndex = ++argc;
        args += code;
        bounded = true;
    }
    int group = -1;
    // Rows in the column's order (BINARY): good for ORDER BY, GROUP BY and DISTINCT alike.
    if (info->nOrderBy == 1 && !info->aOrderBy[0].desc && t.canGroup(info->aOrderBy[0].iColumn)) {
        group = info->aOrderBy[0].iColumn;
        info->orderByConsumed = 1;
    }
    const double rows = std::max(1.0, t.rowEstimate());
    info->estimatedRows = lookup >= 0 ? 4 : bounded ? int64_t(rows / 10) + 1 : int64_t(rows);
    info->estimatedCost = lookup >= 0 ? 10.0 : bounded ? rows / 10 + 10 : rows + 10;
    info->idxNum = (lookup + 1) | ((group + 1) << 16);
    info->idxStr = sqlite3_mprintf("%s", args.c_str());
    info->needToFreeIdxStr = 1;
    return SQLITE_OK;
}

int openCursor(sqlite3_vtab* vt, sqlite3_vtab_cursor** out) {
    auto* c = new VCursor();
    c->cursor = static_cast<VTab*>(vt)->table->open();
    *out = c;
    return SQLITE_OK;
}

int closeCursor(sqlite3_vtab_cursor* c) {
    delete static_cast<VCursor*>(c);
    return SQLITE_OK;
}

// A bound that keeps every row the constraint keeps (SQLite checks the constraint again).
void applyBound(char code, sqlite3_value* v, TimeBounds* b) {
    const int type = sqlite3_value_numeric_type(v);
    if (type != SQLITE_INTEGER && type != SQLITE_FLOAT) return;
    const double d = sqlite3_value_double(v);
    if (std::isnan(d) || d > 9.2e18 || d < -9.2e18) return;
    if (code == '>' || code == 'g') b->lo = std::max(b->lo, int64_t(std::floor(d)));
    if (code == '<') b->hi = std::min(b->hi, int64_t(std::ceil(d)));
    if (code == 'l') b->hi = std::min(b->hi, int64_t(std::floor(d)) + 1);
}

int filter(sqlite3_vtab_cursor* vc, int idxNum, const char* idxStr, int argc,
           sqlite3_value** argv) {
    QueryPlan plan;
    plan.lookupColumn = (idxNum & 0xFFFF) - 1;
    plan.groupColumn = (idxNum >> 16) - 1;
    sqlite3_value* lookup = nullptr;
    for (int i = 0; i < argc && idxStr && idxStr[i]; ++i) {
        if (idxStr[i] == 'L')
            lookup = argv[i];
        else
            applyBound(idxStr[i], argv[i], &plan.time);
    }
    static_cast<VCursor*>(vc)->cursor->filter(plan, lookup);
    return SQLITE_OK;
}

int next(sqlite3_vtab_cursor* vc) {
    static_cast<VCursor*>(vc)->cursor->next();
    return SQLITE_OK;
}

int eof(sqlite3_vtab_cursor* vc) {
    return static_cast<VCursor*>(vc)->cursor->eof() ? 1 : 0;
}

int column(sqlite3_vtab_cursor* vc, sqlite3_context* ctx, int col) {
    static_cast<VCursor*>(vc)->cursor->column(ctx, col);
    return SQLITE_OK;
}

int rowid(sqlite3_vtab_cursor* vc, sqlite3_int64* out) {
    *out = static_cast<VCursor*>(vc)->cursor->rowid();
    return SQLITE_OK;
}

sqlite3_module makeModule() {
    sqlite3_module m{};
    m.iVersion = 0;
    m.xCreate = nullptr; // eponymous only: no CREATE VIRTUAL TABLE
    m.xConnect = connect;
    m.xBestIndex = bestIndex;
    m.xDisconnect = disconnect;
    m.xDestroy = disconnect;
    m.xOpen = openCursor;
    m.xClose = closeCursor;
    m.xFilter = filter;
    m.xNext = next;
    m.xEof = eof;
    m.xColumn = column;
    m.xRowid = rowid;
    return m;
}

const sqlite3_module kModule = makeModule();

} // namespace

bool registerQueryTable(sqlite3* db, const QueryTable& table, std::string* error) {
    const std::string name(table.name());
    if (sqlite3_create_module_v2(db, name.c_str(), &kModule, const_cast<QueryTable*>(&table),
                                 nullptr) != SQLITE_OK) {
        *error = sqlite3_errmsg(db);
        return false;
    }
    return true;
}

void resultStaticText(sqlite3_context* ctx, std::string_view text) {
    sqlite3_result_text(ctx, text.data(), int(text.size()), SQLITE_STATIC);
}
void resultText(sqlite3_context* ctx, const std::string& text) {
    sqlite3_result_text(ctx, text.data(), int(text.size()), SQLITE_TRANSIENT);
}
void resultInt(sqlite3_context* ctx, int64_t v) {
    sqlite3_result_int64(ctx, v);
}
void resultReal(sqlite3_context* ctx, double v) {
    sqlite3_result_double(ctx, v);
}
void resultNull(sqlite3_context* ctx) {
    sqlite3_result_null(ctx);
}
void resultId(sqlite3_context* ctx, int64_t v) {
    if (v < 0)
        sqlite3_result_null(ctx);
    else
        sqlite3_result_int64(ctx, v);
}
int64_t valueInt(sqlite3_value* v) {
    return sqlite3_value_int64(v);
}
std::string_view valueText(sqlite3_value* v) {
    const auto* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
    return p ? std::string_view(p, size_t(sqlite3_value_bytes(v))) : std::string_view();
}
bool valueIsNull(sqlite3_value* v) {
    return !v || sqlite3_value_type(v) == SQLITE_NULL;
}

} // namespace strata

#include "query/tables/args_table.h"

namespace strata {

namespace {

enum : int { kSliceId, kInstantId, kKey, kValue, kType, kRank };

class ArgsTable : public QueryTable {
public:
    explicit ArgsTable(const QuerySources& s) : sources_(s) {}
    std::string_view name() const override { return "args"; }
    std::string_view doc() const override { return "every event's args, one row per key, typed"; }
    const std::vector<QueryColumn>& columns() const override {
        static const std::vector<QueryColumn> c = {
            {"slice_id", "INTEGER", "the slice (slices.id), NULL for an instant's"},
            {"instant_id", "INTEGER", "the instant (instants.id), NULL for a slice's"},
            {"key", "TEXT", "the arg's name"},
            {"value", "", "its value: INTEGER, REAL or TEXT (JSON text for arrays, objects)"},
            {"type", "TEXT", "int, uint, real, bool, string, json or null"},
            {"rank", "INTEGER", "the rank of a set's trace"}};
        return c;
    }
    bool canLookup(int col) const override { return col == kSliceId || col == kInstantId; }
    double rowEstimate() const override { return double(sources_.sliceCount()) * 4; }
    std::unique_ptr<QueryCursor> open() const override;
    const QuerySources& sources_;
};

class ArgsCursor : public QueryCursor {
public:
    explicit ArgsCursor(const QuerySources& s) : sources_(s) {}

    void filter(const QueryPlan& plan, sqlite3_value* v) override {
        args_.clear();
        at_ = 0;
        row_ = 0;
        only_ = plan.lookupColumn >= 0;
        instants_ = plan.lookupColumn == kInstantId;
        s_ = 0;
        t_ = 0;
        i_ = 0;
        eof_ = false;
        if (only_) {
            const QueryIdSpace& ids = instants_ ? sources_.instants() : sources_.slices();
            if (valueIsNull(v) || !ids.locate(valueInt(v), &s_, &t_, &i_)) {
                eof_ = true;
                return;
            }
            decode();
            eof_ = args_.empty();
            return;
        }
        i_ = UINT32_MAX; // step() starts at slice 0 of track 0
        advance();
    }
    bool eof() const override { return eof_; }
    void next() override {
        ++row_;
        if (++at_ < args_.size()) return;
        if (only_) {
            eof_ = true;
            return;
        }
        advance();
    }
    int64_t rowid() const override { return int64_t(row_); }
    void column(sqlite3_context* ctx, int col) const override {
        const Trace& tr = sources_.trace(s_);
        const Arg& a = args_[at_];
        const int64_t id =
            instants_ ? sources_.instants().id(s_, t_, i_) : sources_.slices().id(s_, t_, i_);
        switch (col) {
        case kSliceId:
            return instants_ ? resultNull(ctx) : resultInt(ctx, id);
        case kInstantId:
            return instants_ ? resultInt(ctx, id) : resultNull(ctx);
        case kKey:
            return resultStaticText(ctx, tr.str(a.key));
        case kValue:
            return value(ctx, a.value);
        case kType:
            return resultStaticText(ctx, typeName(a.value.type));
        default:
            return resultId(ctx, sources_[s_].rank);
        }
    }

private:
    static const char* typeName(ArgValue::Type t) {
        switch (t) {
        case ArgValue::Type::Bool:
            return "bool";
        case ArgValue::Type::Int:
            return "int";
        case ArgValue::Type::UInt:
            return "uint";
        case ArgValue::Type::Double:
            return "real";
        case ArgValue::Type::String:
            return "string";
        case ArgValue::Type::Json:
            return "json";
        default:
            return "null";
        }
    }
    static void value(sqlite3_context* ctx, const ArgValue& v) {
        switch (v.type) {
        case ArgValue::Type::Bool:
            return resultInt(ctx, v.b ? 1 : 0);
        case ArgValue::Type::Int:
            return resultInt(ctx, v.i);
        case ArgValue::Type::UInt:
            return v.u <= uint64_t(INT64_MAX) ? resultInt(ctx, int64_t(v.u))
                                              : resultReal(ctx, double(v.u));
        case ArgValue::Type::Double:
            return resultReal(ctx, v.d);
        case ArgValue::Type::String:
        case ArgValue::Type::Json:
            return resultText(ctx, v.s);
        default:
            return resultNull(ctx);
        }
    }
    ArgSetId setId() const {
        const Track& k = sources_.trace(s_).track(t_);
        return instants_ ? k.instants.args[i_] : k.slices.args[i_];
    }
    void decode() {
        args_.clear();
        at_ = 0;
        const ArgSetId id = setId();
        if (id != kNoArgs) args_ = sources_.trace(s_).args(id);
    }
    size_t rows(const Track& k) const { return instants_ ? k.instants.size() : k.slices.size(); }
    // The next event: slices of every source first, then instants; false past the last.
    bool step() {
        ++i_;
        while (true) {
            if (s_ >= sources_.size()) {
                if (instants_) return false;
                instants_ = true;
                s_ = 0;
                t_ = 0;
                i_ = 0;
                continue;
            }
            const Trace& tr = sources_.trace(s_);
            if (t_ >= tr.tracks().size()) {
                ++s_;
                t_ = 0;
                i_ = 0;
            } else if (i_ >= rows(tr.track(t_))) {
                ++t_;
                i_ = 0;
            } else {
                return true;
            }
        }
    }
    // The next event with args.
    void advance() {
        while (step()) {
            if (setId() == kNoArgs) continue;
            decode();
            if (!args_.empty()) return;
        }
        eof_ = true;
    }

    const QuerySources& sources_;
    std::vector<Arg> args_;
    size_t at_ = 0;
    bool only_ = false, instants_ = false, eof_ = true;
    size_t s_ = 0;
    uint32_t t_ = 0, i_ = 0;
    uint64_t row_ = 0;
};

std::unique_ptr<QueryCursor> ArgsTable::open() const {
    return std::make_unique<ArgsCursor>(sources_);
}

} // namespace

std::unique_ptr<QueryTable> makeArgsTable(const QuerySources& sources) {
    return std::make_unique<ArgsTable>(sources);
}

} // namespace strata

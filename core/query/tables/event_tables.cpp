// The instants, counters and flows tables (row_table.h).
#include "query/tables/row_table.h"
#include "query/tables/trace_text.h"

namespace strata {

namespace {

class InstantsTable : public RowTable {
public:
    explicit InstantsTable(const QuerySources& s)
        : RowTable(s, "instants", "instant events: thread, process and global",
                   {{"id", "INTEGER", "the instant's id (unique over a set)"},
                    {"ts", "INTEGER", "time, ns"},
                    {"name", "TEXT", "its name"},
                    {"category", "TEXT", "its category"},
                    {"scope", "TEXT", "thread, process or global"},
                    {"pid", "INTEGER", "process id (NULL for a global instant)"},
                    {"tid", "INTEGER", "thread id (NULL unless a thread's)"},
                    {"thread", "TEXT", "the thread's name"},
                    {"args", "TEXT", "its args as a JSON object"},
                    {"rank", "INTEGER", "the rank of a set's trace"}},
                   {0}) {}
    uint64_t rowCount() const override { return sources_.instants().total(); }
    void lookup(int, sqlite3_value* v, std::vector<uint64_t>* rows) const override {
        size_t s;
        uint32_t t, i;
        if (sources_.instants().locate(valueInt(v), &s, &t, &i))
            rows->push_back(uint64_t(valueInt(v)));
    }
    void value(sqlite3_context* ctx, uint64_t row, int col) const override {
        size_t s;
        uint32_t t, i;
        if (!sources_.instants().locate(int64_t(row), &s, &t, &i)) return resultNull(ctx);
        const Trace& tr = sources_.trace(s);
        const Track& k = tr.track(t);
        const bool global = k.kind == TrackKind::GlobalInstants;
        const bool thread = k.kind == TrackKind::Thread;
        switch (col) {
        case 0:
            return resultInt(ctx, int64_t(row));
        case 1:
            return resultInt(ctx, k.instants.ts[i]);
        case 2:
            return resultStaticText(ctx, tr.str(k.instants.name[i]));
        case 3:
            return resultStaticText(ctx, tr.str(k.instants.category[i]));
        case 4:
            return resultStaticText(ctx, global ? "global" : thread ? "thread" : "process");
        case 5:
            return global ? resultNull(ctx) : resultInt(ctx, k.pid);
        case 6:
            return thread ? resultInt(ctx, k.tid) : resultNull(ctx);
        case 7:
            return thread ? threadName(ctx, tr, k.pid, k.tid) : resultNull(ctx);
        case 8:
            return argsValue(ctx, tr, k.instants.args[i]);
        default:
            return resultId(ctx, sources_[s].rank);
        }
    }
};

class CountersTable : public RowTable {
public:
    explicit CountersTable(const QuerySources& s)
        : RowTable(s, "counters", "counter samples (one row per sample)",
                   {{"ts", "INTEGER", "time, ns"},
                    {"value", "REAL", "the value from ts on"},
                    {"name", "TEXT", "the counter's name"},
                    {"pid", "INTEGER", "process id (a GPU's counters: its pid)"},
                    {"process", "TEXT", "the process's name"},
                    {"rank", "INTEGER", "the rank of a set's trace"}}) {
        std::vector<std::vector<uint64_t>> counts;
        for (size_t k = 0; k < s.size(); ++k) {
            auto& c = counts.emplace_back();
            for (const Track& t : s.trace(k).tracks()) c.push_back(t.counter.size());
        }
        ids_ = QueryIdSpace(counts);
    }
    uint64_t rowCount() const override { return ids_.total(); }
    void value(sqlite3_context* ctx, uint64_t row, int col) const override {
        size_t s;
        uint32_t t, i;
        if (!ids_.locate(int64_t(row), &s, &t, &i)) return resultNull(ctx);
        const Trace& tr = sources_.trace(s);
        const Track& k = tr.track(t);
        switch (col) {
        case 0:
            return resultInt(ctx, k.counter.ts[i]);
        case 1:
            return resultReal(ctx, k.counter.value[i]);
        case 2:
            return resultStaticText(ctx, tr.str(k.name));
        case 3:
            return resultInt(ctx, k.pid);
        case 4:
            return processName(ctx, tr, k.pid);
        default:
            return resultId(ctx, sources_[s].rank);
        }
    }

private:
    QueryIdSpace ids_;
};

class FlowsTable : public RowTable {
public:
    explicit FlowsTable(const QuerySources& s)
        : RowTable(s, "flows", "flow arrows between slices (launch -> kernel, ...)",
                   {{"id", "INTEGER", "the flow's row (unique over a set)"},
                    {"from_id", "INTEGER", "the slice it leaves (slices.id)"},
                    {"to_id", "INTEGER", "the slice it reaches (slices.id)"},
                    {"name", "TEXT", "its name"},
                    {"category", "TEXT", "its category"},
                    {"flow_id", "INTEGER", "the id the trace gave it"},
                    {"rank", "INTEGER", "the rank of a set's trace"}}) {
        rows_.build(s, [&](size_t k) { return s.trace(k).flows().size(); });
    }
    uint64_t rowCount() const override { return rows_.total(); }
    void value(sqlite3_context* ctx, uint64_t row, int col) const override {
        size_t s, i;
        rows_.locate(row, &s, &i);
        const Trace& tr = sources_.trace(s);
        const Flow& f = tr.flows()[i];
        switch (col) {
        case 0:
            return resultInt(ctx, int64_t(row));
        case 1:
            return f.from.valid() ? resultInt(ctx, sources_.sliceId(s, f.from)) : resultNull(ctx);
        case 2:
            return f.to.valid() ? resultInt(ctx, sources_.sliceId(s, f.to)) : resultNull(ctx);
        case 3:
            return resultStaticText(ctx, tr.str(f.name));
        case 4:
            return resultStaticText(ctx, tr.str(f.category));
        case 5:
            return resultInt(ctx, int64_t(f.id));
        default:
            return resultId(ctx, sources_[s].rank);
        }
    }

private:
    PerSourceRows rows_;
};

} // namespace

std::unique_ptr<QueryTable> makeInstantsTable(const QuerySources& s) {
    return std::make_unique<InstantsTable>(s);
}
std::unique_ptr<QueryTable> makeCountersTable(const QuerySources& s) {
    return std::make_unique<CountersTable>(s);
}
std::unique_ptr<QueryTable> makeFlowsTable(const QuerySources& s) {
    return std::make_unique<FlowsTable>(s);
}

} // namespace strata

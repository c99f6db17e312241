// The threads, processes and devices tables (row_table.h).
#include "query/tables/row_table.h"
#include "query/tables/trace_text.h"

namespace strata {

namespace {

class ThreadsTable : public RowTable {
public:
    explicit ThreadsTable(const QuerySources& s)
        : RowTable(s, "threads", "threads with a name or events",
                   {{"pid", "INTEGER", "process id"},
                    {"tid", "INTEGER", "thread id"},
                    {"name", "TEXT", "the thread's name"},
                    {"process", "TEXT", "its process's name"},
                    {"rank", "INTEGER", "the rank of a set's trace"}}) {
        rows_.build(s, [&](size_t k) { return s.trace(k).threads().size(); });
    }
    uint64_t rowCount() const override { return rows_.total(); }
    void value(sqlite3_context* ctx, uint64_t row, int col) const override {
        size_t s, i;
        rows_.locate(row, &s, &i);
        const Trace& tr = sources_.trace(s);
        const Thread& t = tr.threads()[i];
        switch (col) {
        case 0:
            return resultInt(ctx, t.pid);
        case 1:
            return resultInt(ctx, t.tid);
        case 2:
            return t.name ? resultStaticText(ctx, tr.str(t.name)) : resultNull(ctx);
        case 3:
            return processName(ctx, tr, t.pid);
        default:
            return resultId(ctx, sources_[s].rank);
        }
    }

private:
    PerSourceRows rows_;
};

class ProcessesTable : public RowTable {
public:
    explicit ProcessesTable(const QuerySources& s)
        : RowTable(s, "processes", "processes (a GPU's lanes: a process of its own)",
                   {{"pid", "INTEGER", "process id"},
                    {"name", "TEXT", "the process's name"},
                    {"rank", "INTEGER", "the rank of a set's trace"}}) {
        rows_.build(s, [&](size_t k) { return s.trace(k).processes().size(); });
    }
    uint64_t rowCount() const override { return rows_.total(); }
    void value(sqlite3_context* ctx, uint64_t row, int col) const override {
        size_t s, i;
        rows_.locate(row, &s, &i);
        const Trace& tr = sources_.trace(s);
        const Process& p = tr.processes()[i];
        switch (col) {
        case 0:
            return resultInt(ctx, p.pid);
        case 1:
            return p.name ? resultStaticText(ctx, tr.str(p.name)) : resultNull(ctx);
        default:
            return resultId(ctx, sources_[s].rank);
        }
    }

private:
    PerSourceRows rows_;
};

class DevicesTable : public RowTable {
public:
    explicit DevicesTable(const QuerySources& s)
        : RowTable(s, "devices", "GPUs the trace describes",
                   {{"id", "INTEGER", "device number"},
                    {"name", "TEXT", "the device's name"},
                    {"sm_count", "INTEGER", "streaming multiprocessors"},
                    {"memory", "INTEGER", "total memory, bytes"},
                    {"compute_major", "INTEGER", "compute capability, major"},
                    {"compute_minor", "INTEGER", "compute capability, minor"},
                    {"clock_khz", "INTEGER", "SM clock, kHz"},
                    {"rank", "INTEGER", "the rank of a set's trace"}}) {
        rows_.build(s, [&](size_t k) { return s.trace(k).devices().size(); });
    }
    uint64_t rowCount() const override { return rows_.total(); }
    void value(sqlite3_context* ctx, uint64_t row, int col) const override {
        size_t s, i;
        rows_.locate(row, &s, &i);
        const DeviceInfo& d = sources_.trace(s).devices()[i];
        switch (col) {
        case 0:
            return resultInt(ctx, d.id);
        case 1:
            return resultText(ctx, d.name);
        case 2:
            return resultInt(ctx, d.smCount);
        case 3:
            return resultInt(ctx, d.totalMemoryBytes);
        case 4:
            return resultInt(ctx, d.computeMajor);
        case 5:
            return resultInt(ctx, d.computeMinor);
        case 6:
            return resultInt(ctx, d.clockRateKHz);
        default:
            return resultId(ctx, sources_[s].rank);
        }
    }

private:
    PerSourceRows rows_;
};

} // namespace

std::unique_ptr<QueryTable> makeThreadsTable(const QuerySources& s) {
    return std::make_unique<ThreadsTable>(s);
}
std::unique_ptr<QueryTable> makeProcessesTable(const QuerySources& s) {
    return std::make_unique<ProcessesTable>(s);
}
std::unique_ptr<QueryTable> makeDevicesTable(const QuerySources& s) {
    return std::make_unique<DevicesTable>(s);
}

} // namespace strata

#pragma once
// The rows of a query on their way from the worker thread that runs it to the Query dock: the
// worker's sink (QueryStreamSink) converts each row to QVariants and adds it under a lock to what
// is pending; the dock takes what is pending every few tens of milliseconds (take()), so rows
// reach the table in batches, never one signal per row. At most `held` rows of a statement are
// kept (the dock's table holds no more); past that the rows are only counted. A new statement
// (a script of several) starts afresh: its columns replace the last one's.
#include "query/query_engine.h"

#include <QString>
#include <QStringList>
#include <QVariant>

#include <atomic>
#include <mutex>
#include <vector>

namespace strata {

class QueryStream {
public:
    explicit QueryStream(uint64_t held) : held_(held) {}

    struct Batch {
        bool reset = false; // new columns: what was shown goes (columns holds them)
        QStringList columns;
        std::vector<QVariant> cells; // whole rows, flat
    };
    // What came since the last take().
    Batch take();
    uint64_t total() const { return total_.load(std::memory_order_relaxed); }

    // The worker's side (QuerySink).
    void columns(const std::vector<std::string>& names);
    void row(const std::vector<QueryValue>& values);

    std::atomic<bool> cancel{false};

private:
    const uint64_t held_;
    std::mutex m_;
    Batch pending_;
    uint64_t kept_ = 0; // rows of the statement kept (<= held_)
    std::atomic<uint64_t> total_{0};
};

// A QuerySink into a QueryStream.
class QueryStreamSink : public QuerySink {
public:
    explicit QueryStreamSink(QueryStream* stream) : stream_(stream) {}
    void columns(const std::vector<std::string>& names) override { stream_->columns(names); }
    bool row(const std::vector<QueryValue>& values) override {
        stream_->row(values);
        return true;
    }

private:
    QueryStream* stream_;
};

// A cell as the dock holds it: an integer (qlonglong), a real (double), a text or null (invalid).
QVariant queryCell(const QueryValue& v);

} // namespace strata

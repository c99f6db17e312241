#pragma once
// Runs the Query dock's SQL off the GUI thread (workspace/job_runner.h): one engine per trace
// (core/query/query_engine.h: made when first needed, used by one job at a time), the rows
// streamed through a QueryStream and taken every 50 ms (rowsArrived: a batch, never a signal per
// row), the first `held` rows of the last statement kept and the rest counted. stop() sets the
// query's cancel flag: it ends with the rows so far. exportCsv() runs the SQL again, straight
// into a file (util/output_file.h: written whole or not at all; a stopped export leaves the file
// as it was). A run or an export supersedes the one under way.
#include "query/query_engine.h"
#include "query_stream.h"

#include <QElapsedTimer>
#include <QObject>
#include <QStringList>

#include <memory>
#include <mutex>

class QTimer;

namespace strata {

class JobRunner;

class QueryRunner : public QObject {
    Q_OBJECT
public:
    static constexpr uint64_t kHeld = 100000; // rows of a result held for the table

    explicit QueryRunner(QObject* parent = nullptr);
    ~QueryRunner() override;

    // The traces queried (one: the workspace's current; null: none); the engine is made anew.
    void setSource(std::shared_ptr<const Trace> trace,
                   std::shared_ptr<const TraceAnalysis> analysis, const QString& file);
    bool hasSource() const { return source_.trace != nullptr; }
    // The engine (made now if need be); null without a trace. Its tables and id space are
    // read-only: they may be read while a job runs.
    std::shared_ptr<const QueryEngine> engine();

    void run(const QString& sql);
    void exportCsv(const QString& sql, const QString& path);
    void stop();
    void waitForFinished();     // the job done and its last rows delivered (tests, screenshots)
    uint64_t rowsSoFar() const; // of the job under way

signals:
    void columnsReset(const QStringList& columns);
    void rowsArrived(std::vector<QVariant> cells);
    // The query ended: `total` rows of its last statement (held or not), in `ms`.
    void finished(const strata::QueryOutcome& outcome, uint64_t total, qint64 ms);
    // The export ended: ok, or why not; `rows` written.
    void exported(bool ok, const QString& message, uint64_t rows, const QString& path);

private:
    struct Holder;
    void drain();
    std::shared_ptr<Holder> holder();
    QuerySource source_;
    std::shared_ptr<Holder> holder_;
    std::shared_ptr<QueryStream> stream_; // the run under way
    std::shared_ptr<std::atomic<bool>> exportCancel_;
    std::shared_ptr<std::atomic<uint64_t>> exportRows_;
    JobRunner* jobs_;
    QTimer* poll_;
    QElapsedTimer clock_;
};

} // namespace strata

#include "query_runner.h"

#include "query/query_csv.h"
#include "util/output_file.h"
#include "workspace/job_runner.h"

#include <QFile>
#include <QTimer>

namespace strata {

// The engine and the lock that keeps it to one job at a time (a superseded job may still be
// ending while the next one starts).
struct QueryRunner::Holder {
    std::mutex m;
    std::shared_ptr<QueryEngine> engine;
};

namespace {
struct ExportResult {
    bool ok = false;
    QString message;
    uint64_t rows = 0;
};
} // namespace

QueryRunner::QueryRunner(QObject* parent)
    : QObject(parent), jobs_(new JobRunner(this)), poll_(new QTimer(this)) {
    poll_->setInterval(50);
    connect(poll_, &QTimer::timeout, this, &QueryRunner::drain);
}

QueryRunner::~QueryRunner() {
    stop();
}

void QueryRunner::setSource(std::shared_ptr<const Trace> trace,
                            std::shared_ptr<const TraceAnalysis> analysis, const QString& file) {
    stop();
    jobs_->cancel();
    poll_->stop();
    stream_.reset();
    source_ = QuerySource{std::move(trace), -1, file.toStdString(), std::move(analysis)};
    holder_.reset();
}

std::shared_ptr<QueryRunner::Holder> QueryRunner::holder() {
    if (!holder_ && source_.trace) {
        holder_ = std::make_shared<Holder>();
        holder_->engine = std::make_shared<QueryEngine>(std::vector<QuerySource>{source_});
    }
    return holder_;
}

std::shared_ptr<const QueryEngine> QueryRunner::engine() {
    const auto h = holder();
    return h ? h->engine : nullptr;
}

void QueryRunner::run(const QString& sql) {
    stop();
    const auto h = holder();
    if (!h) return;
    auto stream = std::make_shared<QueryStream>(kHeld);
    stream_ = stream;
    clock_.start();
    jobs_->run(
        [h, stream, text = sql.toStdString()](JobControl&) {
            std::lock_guard lock(h->m);
            QueryStreamSink sink(stream.get());
            QueryControl control;
            control.cancel = &stream->cancel;
            return h->engine->run(text, sink, control);
        },
        [this, stream](QueryOutcome out) {
            if (stream != stream_) return;
            drain();
            poll_->stop();
            stream_.reset();
            emit finished(out, stream->total(), clock_.elapsed());
        });
    poll_->start();
}

void QueryRunner::drain() {
    if (!stream_) return;
    QueryStream::Batch b = stream_->take();
    if (b.reset) emit columnsReset(b.columns);
    if (!b.cells.empty()) emit rowsArrived(std::move(b.cells));
}

void QueryRunner::exportCsv(const QString& sql, const QString& path) {
    stop();
    const auto h = holder();
    if (!h) return;
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    auto rows = std::make_shared<std::atomic<uint64_t>>(0);
    exportCancel_ = cancel;
    exportRows_ = rows;
    clock_.start();
    jobs_->run(
        [h, cancel, rows, text = sql.toStdString(),
         file = QFile::encodeName(path).toStdString()](JobControl&) {
            ExportResult r;
            std::string why;
            const std::unique_ptr<OutputFile> out = OutputFile::open(file, &why);
            if (!out) {
                r.message = QString::fromStdString(why);
                return r;
            }
            std::lock_guard lock(h->m);
            QueryCsvSink sink(out->stream());
            QueryControl control;
            control.cancel = cancel.get();
            control.progress = [rows](uint64_t n) {
                rows->store(n, std::memory_order_relaxed);
                return true;
            };
            const QueryOutcome o = h->engine->run(text, sink, control);
            r.rows = o.rows;
            if (!o.ok) {
                out->abort();
                r.message = o.cancelled ? QObject::tr("the export was stopped: nothing written")
                                        : QString::fromStdString(o.error);
                return r;
            }
            r.ok = out->commit(&why);
            if (!r.ok) r.message = QString::fromStdString(why);
            return r;
        },
        [this, path, cancel](ExportResult r) {
            if (cancel != exportCancel_) return;
            exportCancel_.reset();
            emit exported(r.ok, r.message, r.rows, path);
        });
}

void QueryRunner::stop() {
    if (stream_) stream_->cancel.store(true);
    if (exportCancel_) exportCancel_->store(true);
}

void QueryRunner::waitForFinished() {
    jobs_->waitForFinished();
}

uint64_t QueryRunner::rowsSoFar() const {
    if (stream_) return stream_->total();
    if (exportCancel_ && exportRows_) return exportRows_->load(std::memory_order_relaxed);
    return 0;
}

} // namespace strata

#pragma once
// Work off the GUI thread, one way for every view (the trace load, the Range table, the analysis
// docks): run(work, deliver) runs work(JobControl&) on Strata's job pool (pool()) and calls
// deliver(result) on the runner's thread when it is done, unless a newer run() superseded it
// (it then ends unheard) or cancel() dropped it (finished(false) once its work has returned):
// stale results never arrive. The work polls control.cancelled() and reports
// control.setProgress(f); the runner polls the progress every 50 ms and emits progress() (no
// cross-thread signal per step). One job at a time per runner.
#include "util/thread_priority.h"

#include <QCoreApplication>
#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

class QThreadPool;
class QTimer;

namespace strata {

class JobControl {
public:
    bool cancelled() const { return cancel_.load(std::memory_order_relaxed); }
    void setProgress(double fraction); // 0..1
    double progress() const { return permille_.load() / 1000.0; }

private:
    friend class JobRunner;
    std::atomic<bool> cancel_{false};
    std::atomic<int> permille_{0};
};

class JobRunner : public QObject {
    Q_OBJECT
public:
    explicit JobRunner(QObject* parent = nullptr);
    ~JobRunner() override; // cancels a running job and waits for it

    template <typename Work, typename Deliver> void run(Work work, Deliver deliver);
    // The running job's result is dropped; cancelled() turns true for its work, and finished(false)
    // comes when the work has returned.
    void cancel();
    bool isRunning() const { return job_ != nullptr; }
    // Blocks until the running job is done and delivers its result now (screenshots, tests).
    void waitForFinished();
    // The threads every job runs on (as many as cores): not Qt's global pool, which Qt 6.4's
    // raster engine waits on to fill large rectangles — a paint would wait for an analysis.
    static QThreadPool* pool();

signals:
    void progress(double fraction);
    void started();
    // A job ended: `delivered` false when it was cancelled (its result dropped).
    void finished(bool delivered);

private:
    struct Job {
        JobControl control;
        QFuture<void> future;
        std::function<void()> deliver; // moves the result to the callback
        bool done = false;
    };
    void start(std::shared_ptr<Job> job);
    void complete(const std::shared_ptr<Job>& job);

    std::shared_ptr<Job> job_;
    QTimer* poll_;
    int lastPermille_ = -1;
};

// A worker thread runs below the GUI thread's priority (util/thread_priority.h); the GUI thread
// itself, which runs a job not yet started when it waits for it (QFuture::waitForFinished takes
// it), keeps its own.
inline void yieldToGuiThread() {
    const QCoreApplication* app = QCoreApplication::instance();
    if (!app || QThread::currentThread() != app->thread()) lowerThreadPriority();
}

template <typename Work, typename Deliver> void JobRunner::run(Work work, Deliver deliver) {
    using Result = std::invoke_result_t<Work, JobControl&>;
    auto job = std::make_shared<Job>();
    auto result = std::make_shared<std::optional<Result>>();
    // The work holds the job (its control) itself: a runner destroyed after cancel() does not
    // wait for it, and it must not outlive what it reads.
    job->future = QtConcurrent::run(pool(), [job, result, work = std::move(work)]() mutable {
        yieldToGuiThread();
        if (!job->control.cancelled()) result->emplace(work(job->control));
    });
    job->deliver = [result, deliver = std::move(deliver)]() mutable {
        if (*result) deliver(std::move(**result));
    };
    start(std::move(job));
}

} // namespace strata

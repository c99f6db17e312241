#pragma once
// One trace load off the GUI thread, with progress and cancel, through a JobRunner: the reader's
// LoadOptions::progress reports the fraction and returns false once cancel() was called. A
// cancelled job always reports cancelled, even if the reader finished before it looked.
#include "io/load_result.h"
#include "workspace/job_runner.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

namespace strata {

class LoadJob : public QObject {
    Q_OBJECT
public:
    explicit LoadJob(QString path, QObject* parent = nullptr);
    ~LoadJob() override;

    void start();
    void cancel();
    bool isCancelled() const { return cancelled_; }
    bool isRunning() const { return runner_->isRunning(); }
    const QString& path() const { return path_; }
    // Blocks until the worker is done (used when a window closes mid-load).
    void waitForFinished();

signals:
    void progress(double fraction); // 0..1, from the reader
    // Emitted once, on the GUI thread. result is empty when cancelled.
    void finished(const strata::LoadResult& result, bool cancelled, qint64 elapsedMs);

private:
    QString path_;
    JobRunner* runner_;
    QElapsedTimer clock_;
    bool cancelled_ = false;
};

} // namespace strata

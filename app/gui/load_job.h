#pragma once
// One trace load off the GUI thread (QtConcurrent), with progress and cancel.
//
// The worker's LoadOptions::progress stores the fraction in an atomic and returns false once
// cancel() was called; the GUI thread polls the fraction with a timer (no cross-thread signals
// per progress step). A cancelled job always reports cancelled, even if the reader finished
// before it looked at the flag.
#include "io/load_result.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

class QTimer;

namespace strata {

class LoadJob : public QObject {
    Q_OBJECT
public:
    explicit LoadJob(QString path, QObject* parent = nullptr);
    ~LoadJob() override;

    void start();
    void cancel();
    bool isCancelled() const { return state_->cancel.load(); }
    bool isRunning() const { return watcher_.isRunning(); }
    const QString& path() const { return path_; }
    // Blocks until the worker is done (used when a window closes mid-load).
    void waitForFinished();

signals:
    void progress(double fraction); // 0..1, from the reader
    // Emitted once, on the GUI thread. result is empty when cancelled.
    void finished(const strata::LoadResult& result, bool cancelled, qint64 elapsedMs);

private:
    struct State {
        std::atomic<bool> cancel{false};
        std::atomic<int> permille{0};
    };
    void onFinished();

    QString path_;
    std::shared_ptr<State> state_;
    QFutureWatcher<LoadResult> watcher_;
    QTimer* poll_;
    QElapsedTimer clock_;
    int lastPermille_ = -1;
};

} // namespace strata

#include "load_job.h"

#include "io/trace_loader.h"

#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

namespace strata {

LoadJob::LoadJob(QString path, QObject* parent)
    : QObject(parent), path_(std::move(path)), state_(std::make_shared<State>()),
      poll_(new QTimer(this)) {
    poll_->setInterval(50);
    connect(poll_, &QTimer::timeout, this, [this] {
        const int p = state_->permille.load();
        if (p != lastPermille_) {
            lastPermille_ = p;
            emit progress(p / 1000.0);
        }
    });
    connect(&watcher_, &QFutureWatcher<LoadResult>::finished, this, &LoadJob::onFinished);
}

LoadJob::~LoadJob() {
    if (watcher_.isRunning()) {
        state_->cancel = true;
        watcher_.waitForFinished();
    }
}

void LoadJob::start() {
    clock_.start();
    const std::string path = path_.toStdString();
    std::shared_ptr<State> state = state_;
    watcher_.setFuture(QtConcurrent::run([path, state]() -> LoadResult {
        if (state->cancel) return {};
        LoadOptions options;
        options.progress = [state](double f) {
            state->permille = static_cast<int>(std::clamp(f, 0.0, 1.0) * 1000.0);
            return !state->cancel.load();
        };
        return loadTrace(path, options);
    }));
    poll_->start();
}

void LoadJob::cancel() {
    state_->cancel = true;
}

void LoadJob::waitForFinished() {
    watcher_.waitForFinished();
}

void LoadJob::onFinished() {
    poll_->stop();
    const bool cancelled = state_->cancel.load();
    LoadResult result;
    if (!cancelled) {
        result = watcher_.result();
        emit progress(1.0);
    }
    emit finished(result, cancelled, clock_.elapsed());
}

} // namespace strata

#include "job_runner.h"

#include <QThread>
#include <QThreadPool>
#include <QTimer>

#include <algorithm>

namespace strata {

void JobControl::setProgress(double fraction) {
    permille_.store(static_cast<int>(std::clamp(fraction, 0.0, 1.0) * 1000.0));
}

QThreadPool* JobRunner::pool() {
    static QThreadPool* jobs = [] {
        auto* p = new QThreadPool; // lives as long as the process: jobs may outlive their runner
        p->setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
        return p;
    }();
    return jobs;
}

JobRunner::JobRunner(QObject* parent) : QObject(parent), poll_(new QTimer(this)) {
    poll_->setInterval(50);
    connect(poll_, &QTimer::timeout, this, [this] {
        if (!job_) return;
        const int p = job_->control.permille_.load();
        if (p != lastPermille_) {
            lastPermille_ = p;
            emit progress(p / 1000.0);
        }
    });
}

JobRunner::~JobRunner() {
    if (job_) {
        job_->control.cancel_ = true;
        job_->future.waitForFinished();
    }
}

void JobRunner::start(std::shared_ptr<Job> job) {
    if (job_) job_->control.cancel_ = true; // superseded: it ends unheard
    job_ = job;
    lastPermille_ = -1;
    // The watcher lives as long as the job's future; it tells this thread when it ends.
    auto* watcher = new QFutureWatcher<void>(this);
    connect(watcher, &QFutureWatcher<void>::finished, this, [this, watcher, job] {
        watcher->deleteLater();
        complete(job);
    });
    watcher->setFuture(job->future);
    poll_->start();
    emit started();
}

void JobRunner::complete(const std::shared_ptr<Job>& job) {
    if (job->done) return; // delivered already by waitForFinished()
    job->done = true;
    if (job != job_) return; // superseded or cancelled: dropped
    job_.reset();
    poll_->stop();
    const bool delivered = !job->control.cancelled();
    if (delivered) {
        emit progress(1.0);
        job->deliver();
    }
    emit finished(delivered);
}

void JobRunner::cancel() {
    if (job_) job_->control.cancel_ = true; // finished(false) when its work returns
}

void JobRunner::waitForFinished() {
    if (!job_) return;
    std::shared_ptr<Job> job = job_;
    job->future.waitForFinished();
    complete(job);
}

} // namespace strata

#pragma once
// Holds every thread of the job pool until release() or the end of its scope, so that a test can
// see what happens while no background job can start. Its holders end before it does: the
// semaphores they wait on live here.
#include "workspace/job_runner.h"

#include <QFuture>
#include <QList>
#include <QSemaphore>
#include <QtConcurrent>

namespace strata {

class PoolHold {
public:
    PoolHold() : count_(JobRunner::pool()->maxThreadCount()) {
        for (int i = 0; i < count_; ++i)
            holders_ << QtConcurrent::run(JobRunner::pool(), [this] {
                held_.release();
                hold_.acquire();
            });
        held_.acquire(count_);
    }
    ~PoolHold() { release(); }
    PoolHold(const PoolHold&) = delete;
    PoolHold& operator=(const PoolHold&) = delete;

    void release() {
        if (released_) return;
        released_ = true;
        hold_.release(count_);
        for (QFuture<void>& f : holders_) f.waitForFinished();
    }

private:
    const int count_;
    QSemaphore hold_, held_;
    QList<QFuture<void>> holders_;
    bool released_ = false;
};

} // namespace strata

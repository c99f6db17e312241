#include "load_job.h"

#include "io/trace_loader.h"

namespace strata {

LoadJob::LoadJob(QString path, QObject* parent)
    : QObject(parent), path_(std::move(path)), runner_(new JobRunner(this)) {
    connect(runner_, &JobRunner::progress, this, &LoadJob::progress);
    connect(runner_, &JobRunner::finished, this, [this](bool delivered) {
        if (!delivered) emit finished(LoadResult{}, true, clock_.elapsed());
    });
}

LoadJob::~LoadJob() = default; // the runner cancels and waits

void LoadJob::start() {
    clock_.start();
    runner_->run(
        [path = path_.toStdString()](JobControl& control) {
            LoadOptions options;
            options.progress = [&control](double f) {
                control.setProgress(f);
                return !control.cancelled();
            };
            return loadTrace(path, options);
        },
        [this](LoadResult result) {
            if (cancelled_) { // the reader did not look at the flag in time
                emit finished(LoadResult{}, true, clock_.elapsed());
                return;
            }
            emit finished(result, false, clock_.elapsed());
        });
}

void LoadJob::cancel() {
    cancelled_ = true;
    runner_->cancel();
}

void LoadJob::waitForFinished() {
    runner_->waitForFinished();
}

} // namespace strata

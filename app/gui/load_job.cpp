#include "load_job.h"

#include "io/trace_loader.h"
#include "io/trace_reader.h"

namespace strata {

LoadOutcome loadForWorkspace(const std::string& path, const LoadOptions& options,
                             const std::shared_ptr<const Trace>& attachTo,
                             const TraceCache* cache) {
    LoadOutcome out;
    out.result = cache ? cache->load(path, options) : loadTrace(path, options);
    const TraceReader* reader = readerNamed(out.result.format);
    if (out.result.ok() && attachTo && reader && reader->kind == ReaderKind::Sections) {
        out.result.trace = attachTo->withSectionsOf(*out.result.trace);
        out.attached = true;
    }
    // The short names every view shows (Trace::displayName), made here, off the GUI thread,
    // rather than on the first paint.
    if (out.result.ok()) out.result.trace->displayName(StringPool::kEmpty);
    return out;
}

LoadJob::LoadJob(QString path, LoadOptions options, std::shared_ptr<const Trace> attachTo,
                 QObject* parent)
    : QObject(parent), path_(std::move(path)), options_(std::move(options)),
      attachTo_(std::move(attachTo)), runner_(new JobRunner(this)) {
    connect(runner_, &JobRunner::progress, this, &LoadJob::progress);
    connect(runner_, &JobRunner::finished, this, [this](bool delivered) {
        if (!delivered) emit finished(LoadOutcome{}, true, clock_.elapsed());
    });
}

LoadJob::~LoadJob() {
    // The worker done before this object goes: its previews are posted to this object.
    runner_->cancel();
    runner_->waitForFinished();
}

void LoadJob::start() {
    clock_.start();
    runner_->run(
        [this, path = path_.toStdString(), options = options_, attachTo = attachTo_,
         cache = cache_](JobControl& control) mutable {
            options.progress = [&control](double f) {
                control.setProgress(f);
                return !control.cancelled();
            };
            // Queued to this object on the GUI thread (dropped if it is gone by then).
            options.preview = [this](const LoadPreview& p) {
                auto copy = std::make_shared<const LoadPreview>(p);
                QMetaObject::invokeMethod(
                    this, [this, copy] { emit previewReady(copy); }, Qt::QueuedConnection);
            };
            return loadForWorkspace(path, options, attachTo, cache ? &*cache : nullptr);
        },
        [this](LoadOutcome outcome) {
            if (cancelled_) { // the reader did not look at the flag in time
                emit finished(LoadOutcome{}, true, clock_.elapsed());
                return;
            }
            emit finished(outcome, false, clock_.elapsed());
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

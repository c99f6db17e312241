#include "open/load_controller.h"

#include "io/cache/trace_cache.h"
#include "io/load_preview.h"
#include "io/load_preview_trace.h"
#include "io/set/trace_set_loader.h"
#include "io/trace_loader.h"
#include "io/trace_reader.h"
#include "open/trace_cache_controller.h"
#include "window/message_banner.h"
#include "window/window_pages.h"
#include "window/window_status.h"
#include "workspace/analyses.h"
#include "workspace/job_runner.h"
#include "workspace/rank_set.h"
#include "workspace/trace_comparison.h"
#include "workspace/workspace.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>

#include <mutex>

namespace strata {

// What a request's work made, for install() on the GUI thread.
struct Loaded {
    OpenRequest request;          // resolved
    LoadResult trace;             // Kind::Trace
    bool attached = false;        // trace.trace is the trace shown with the file's sections in it
    RankSetLoad ranks;            // Kind::Ranks, Kind::AddRanks
    std::vector<LoadResult> pair; // Kind::Comparison: the baseline, the candidate
    qint64 ms = 0;
};

namespace {

QString errorOf(const LoadResult& r, const QString& path) {
    return r.error ? QString::fromStdString(r.error->toString())
                   : QObject::tr("%1: cannot load").arg(path);
}

// The request's work, on a worker thread (or the caller's, for openSync).
Loaded work(const OpenRequest& request, const std::shared_ptr<const Trace>& shown,
            const AnalysisSettings& settings, const TraceCache& cache, JobControl& control,
            const std::function<void(const LoadPreview&)>& preview) {
    QElapsedTimer clock;
    clock.start();
    Loaded out;
    out.request = request;
    switch (request.kind) {
    case OpenRequest::Kind::Trace: {
        LoadOptions options = request.options;
        // The request's own progress (a caller's, a test's) is asked too.
        options.progress = [&control, given = request.options.progress](double f) {
            control.setProgress(f);
            return !control.cancelled() && (!given || given(f));
        };
        options.preview = preview;
        out.trace = cache.load(request.files.value(0).toStdString(), options);
        const TraceReader* reader = readerNamed(out.trace.format);
        // Timer sections alone, with a trace shown: they become part of it.
        if (out.trace.ok() && shown && reader && reader->kind == ReaderKind::Sections) {
            out.trace.trace = shown->withSectionsOf(*out.trace.trace);
            out.attached = true;
        }
        // The short names every view shows (Trace::displayName), made here, off the GUI thread,
        // rather than on the first paint.
        if (out.trace.ok()) out.trace.trace->displayName(StringPool::kEmpty);
        break;
    }
    case OpenRequest::Kind::Ranks:
    case OpenRequest::Kind::AddRanks:
        out.ranks = loadRankSet(request.files, settings, control, &cache);
        break;
    case OpenRequest::Kind::Comparison: {
        TraceSetOptions options; // both at once, through the cache, written by the window
        options.cache = &cache;
        options.storeInCache = false;
        options.cancelled = [&control] { return control.cancelled(); };
        options.load.progress = [&control](double) { return !control.cancelled(); };
        out.pair = loadTraces(
            {request.files.value(0).toStdString(), request.files.value(1).toStdString()}, options);
        break;
    }
    case OpenRequest::Kind::Files:
        break; // resolved before
    }
    out.ms = clock.elapsed();
    return out;
}

QString setErrors(const QStringList& errors) {
    return (errors.size() == 1
                ? QObject::tr("1 file of the set could not be opened and was left out:\n")
                : QObject::tr("%1 files of the set could not be opened and were left out:\n")
                      .arg(errors.size())) +
           errors.join('\n');
}

} // namespace

struct LoadController::PreviewGate {
    std::mutex mutex;
    bool open = true;
};

LoadController::LoadController(Parts parts, QObject* parent)
    : QObject(parent), gate_(std::make_shared<PreviewGate>()), p_(std::move(parts)),
      job_(new JobRunner(this)) {
    connect(job_, &JobRunner::progress, this, [this](double f) {
        if (loading_.kind == OpenRequest::Kind::Comparison) return; // no measure of it
        p_.status->showProgress(f);
        p_.pages->setProgress(f);
    });
    // A cancelled load (its result dropped) ends here.
    connect(job_, &JobRunner::finished, this, [this](bool delivered) {
        if (delivered) return;
        p_.say(tr("Loading %1 cancelled").arg(loading_.what()), 8000);
        ended(false, true);
    });
    connect(p_.pages, &WindowPages::cancelRequested, this, &LoadController::cancel);
    connect(p_.status, &WindowStatus::cancelRequested, this, &LoadController::cancel);
}

LoadController::~LoadController() {
    {
        const std::lock_guard<std::mutex> closing(gate_->mutex);
        gate_->open = false; // no preview is posted to this object from now on
    }
    delete job_; // cancels a load under way and waits for it, while this object is whole
}

bool LoadController::isLoading() const {
    return job_->isRunning();
}

void LoadController::cancel() {
    if (!job_->isRunning()) return;
    job_->cancel();
    p_.say(tr("Cancelling\u2026"), 0);
}

struct LoadController::Inputs {
    std::shared_ptr<const Trace> shown; // timer sections attach to it
    AnalysisSettings settings;          // the ranks' digests follow them
    TraceCache cache;
};

LoadController::Inputs LoadController::inputs(const OpenRequest&) const {
    return {p_.workspace->previewing() ? nullptr : p_.workspace->current(),
            p_.workspace->analyses()->settings(), p_.cache->cache()};
}

void LoadController::open(const OpenRequest& request) {
    const OpenRequest r = request.resolved();
    if (r.files.isEmpty()) {
        p_.banner->showError(tr("No trace file in %1").arg(request.files.join(", ")));
        emit finished(false, false);
        return;
    }
    p_.banner->hide();
    if (p_.workspace->previewing()) { // a load superseded: its picture goes with it
        p_.workspace->dropPreview();
        p_.pages->show(WindowPages::Page::Welcome);
    }
    loading_ = r;
    const int generation = ++generation_;
    previewShown_ = 0;
    p_.status->showProgress(r.kind == OpenRequest::Kind::Comparison ? -1 : 0);
    p_.say(tr("Loading %1\u2026").arg(r.what()), 0);
    // No trace yet: the welcome page gives way to the load's progress at once.
    p_.pages->startLoading(r.what(), QFileInfo(r.files.front()).absolutePath());
    // What has been read so far (a large JSON trace), while nothing else is on screen: made into
    // a trace on a worker, not the reader's thread, and posted while this object lives (the gate:
    // the runner waits for the load under way when this object goes, not for one this request
    // superseded, nor for a preview being made); the timeline draws it as the trace's first
    // frames (Workspace::showPreview). Previews made out of order give way to the newest.
    auto made = std::make_shared<std::atomic<int>>(0);
    auto preview = [this, generation, gate = gate_, made](const LoadPreview& p) {
        if (p.empty()) return;
        const int seq = ++*made;
        (void)QtConcurrent::run(JobRunner::pool(), [this, generation, gate, seq, p] {
            std::shared_ptr<const Trace> trace = previewTrace(p);
            const std::lock_guard<std::mutex> posting(gate->mutex);
            if (!gate->open) return;
            QMetaObject::invokeMethod(
                this,
                [this, generation, seq, trace = std::move(trace)] {
                    if (generation != generation_ || seq <= previewShown_ || !isLoading()) return;
                    previewShown_ = seq;
                    p_.workspace->showPreview(trace, loading_.what());
                },
                Qt::QueuedConnection);
        });
    };
    job_->run(
        [r, in = inputs(r), preview](JobControl& control) {
            return work(r, in.shown, in.settings, in.cache, control, preview);
        },
        [this](Loaded loaded) {
            QString error;
            const bool ok = install(std::move(loaded), &error);
            ended(ok, false);
        });
}

bool LoadController::openSync(const OpenRequest& request, QString* error) {
    const OpenRequest r = request.resolved();
    QString problem;
    bool ok = false;
    if (r.files.isEmpty()) {
        problem = tr("No trace file in %1").arg(request.files.join(", "));
        p_.banner->showError(problem);
    } else {
        job_->cancel();
        loading_ = r;
        JobControl control;
        const Inputs in = inputs(r);
        ok = install(work(r, in.shown, in.settings, in.cache, control, {}), &problem);
    }
    if (ok) { // the picture whole, as when the user looks
        if (r.kind == OpenRequest::Kind::Ranks || r.kind == OpenRequest::Kind::AddRanks)
            p_.workspace->ranks()->waitForMerge();
        if (r.kind == OpenRequest::Kind::Comparison) p_.workspace->comparison()->waitForFinished();
        if (p_.settle) p_.settle();
    }
    if (error) *error = problem;
    ended(ok, false);
    return ok;
}

bool LoadController::install(Loaded loaded, QString* error) {
    const OpenRequest& r = loaded.request;
    QString problem;
    switch (r.kind) {
    case OpenRequest::Kind::Trace: {
        const QString path = r.files.value(0);
        if (!loaded.trace.ok()) {
            problem = tr("Could not open %1\n%2")
                          .arg(QFileInfo(path).fileName(), errorOf(loaded.trace, path));
            break;
        }
        if (loaded.attached) {
            p_.workspace->amendCurrent(loaded.trace.trace); // where the user is stays
            p_.say(tr("Imported the timer sections of %1").arg(path), 8000);
            emit opened(r, true);
            return true;
        }
        fromCache_ = !loaded.trace.cacheFile.empty();
        p_.workspace->showTrace(loaded.trace.trace, QFileInfo(path).fileName(), path, loaded.ms,
                                QString::fromStdString(loaded.trace.format));
        // Kept for next time, in the background, once the timeline's picture is drawn.
        p_.workspace->analyses()->afterPicture(
            p_.cache,
            [cache = p_.cache, path, kept = loaded.trace] { cache->traceShown(path, kept); });
        p_.say(QString(), 0);
        const TraceReader* reader = readerNamed(loaded.trace.format);
        emit opened(r, reader && reader->kind == ReaderKind::Sections);
        return true;
    }
    case OpenRequest::Kind::Ranks:
    case OpenRequest::Kind::AddRanks: {
        if (loaded.ranks.ranks.empty()) {
            problem = setErrors(loaded.ranks.errors);
            break;
        }
        if (loaded.ranks.errors.isEmpty())
            p_.banner->hide();
        else
            p_.banner->showError(setErrors(loaded.ranks.errors)); // the others are shown
        RankSet* ranks = p_.workspace->ranks();
        fromCache_ =
            loaded.ranks.fromCache > 0 && loaded.ranks.fromCache == loaded.ranks.ranks.size();
        for (const LoadResult& keep : loaded.ranks.keep) // for next time, in the background
            p_.cache->traceShown(QString::fromStdString(keep.cacheSource->path), keep);
        if (r.kind == OpenRequest::Kind::AddRanks && !ranks->isEmpty())
            ranks->addRanks(std::move(loaded.ranks.ranks));
        else
            ranks->setRanks(std::move(loaded.ranks.ranks), loaded.ranks.ms);
        p_.say(QString(), 0);
        emit opened(r, false);
        return true;
    }
    case OpenRequest::Kind::Comparison: {
        QStringList errors;
        for (size_t i = 0; i < loaded.pair.size(); ++i)
            if (!loaded.pair[i].ok())
                errors << errorOf(loaded.pair[i], r.files.value(qsizetype(i)));
        if (loaded.pair.size() != 2 || !errors.isEmpty()) {
            problem = tr("Could not compare:\n%1").arg(errors.join('\n'));
            break;
        }
        fromCache_ = !loaded.pair[0].cacheFile.empty() && !loaded.pair[1].cacheFile.empty();
        for (size_t i = 0; i < 2; ++i) p_.cache->traceShown(r.files[qsizetype(i)], loaded.pair[i]);
        p_.workspace->comparison()->set({r.files[0], loaded.pair[0].trace, {}, std::nullopt},
                                        {r.files[1], loaded.pair[1].trace, {}, std::nullopt},
                                        loaded.ms);
        p_.say(QString(), 0);
        emit opened(r, false);
        return true;
    }
    case OpenRequest::Kind::Files:
        break;
    }
    p_.banner->showError(problem);
    if (error) *error = problem;
    p_.say(QString(), 0);
    return false;
}

void LoadController::ended(bool ok, bool cancelled) {
    p_.status->hideProgress();
    // Nothing opened: the welcome page again (a trace shown before stays shown), the picture of
    // what was read let go.
    const bool previewed = p_.workspace->previewing();
    if (!ok) p_.workspace->dropPreview();
    if (!ok && (previewed || p_.pages->showing(WindowPages::Page::Loading)))
        p_.pages->show(WindowPages::Page::Welcome);
    emit finished(ok, cancelled);
}

} // namespace strata

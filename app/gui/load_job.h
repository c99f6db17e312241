#pragma once
// One file load off the GUI thread, with progress and cancel, through a JobRunner: the reader's
// LoadOptions::progress reports the fraction and returns false once cancel() was called. A
// cancelled job always reports cancelled, even if the reader finished before it looked.
//
// Any format Strata reads goes through loadTrace (io/trace_reader.h). A file of in-kernel timer
// sections alone (a timer array, a .sections file) loaded with a trace to attach to becomes part
// of that trace (Trace::withSectionsOf, also off the GUI thread): LoadOutcome::attached. The
// trace's short display names (Trace::displayName) are made there too.
#include "io/cache/trace_cache.h"
#include "io/load_preview.h"
#include "io/load_result.h"
#include "workspace/job_runner.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <optional>

namespace strata {

struct LoadOutcome {
    LoadResult result;
    bool attached = false; // result.trace is the trace attached to, with the file's sections
};

// The load itself, on the calling thread (LoadJob's worker, and the screenshot mode's sync open):
// from the trace cache when `cache` (may be null) has the file's model, else from the file.
LoadOutcome loadForWorkspace(const std::string& path, const LoadOptions& options,
                             const std::shared_ptr<const Trace>& attachTo,
                             const TraceCache* cache = nullptr);

class LoadJob : public QObject {
    Q_OBJECT
public:
    // `attachTo`: the trace a sections file would be attached to (null: none open).
    LoadJob(QString path, LoadOptions options, std::shared_ptr<const Trace> attachTo,
            QObject* parent = nullptr);
    ~LoadJob() override;

    // The trace cache to open the file from (when it has it); none by default.
    void setCache(const TraceCache& cache) { cache_ = cache; }
    void start();
    void cancel();
    bool isCancelled() const { return cancelled_; }
    bool isRunning() const { return runner_->isRunning(); }
    const QString& path() const { return path_; }
    // Blocks until the worker is done (used when a window closes mid-load).
    void waitForFinished();

signals:
    void progress(double fraction); // 0..1, from the reader
    // What has been read so far (a large JSON trace: io/load_preview.h), now and then.
    void previewReady(std::shared_ptr<const strata::LoadPreview> preview);
    // Emitted once, on the GUI thread. The outcome is empty when cancelled.
    void finished(const strata::LoadOutcome& outcome, bool cancelled, qint64 elapsedMs);

private:
    QString path_;
    LoadOptions options_;
    std::shared_ptr<const Trace> attachTo_;
    std::optional<TraceCache> cache_;
    JobRunner* runner_;
    QElapsedTimer clock_;
    bool cancelled_ = false;
};

} // namespace strata

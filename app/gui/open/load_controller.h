#pragma once
// The one way a window opens anything: an OpenRequest (open_request.h) — one trace, timer
// sections attached to the trace shown, the ranks of a job, ranks added to them, a comparison —
// loaded off the GUI thread with progress, Cancel and the first frames of a large trace (what was
// read so far, drawn by the timeline: Workspace::showPreview), then handed to the Workspace, which
// says what the window shows (workspace/workspace.h). It owns the loading page's progress, the
// status bar's progress and Cancel, what a failure says in the banner, and the synchronous path
// (--screenshot, tests): the same work on the calling thread, then waiting until the views have
// what they show. Traces go through the trace cache (open/trace_cache_controller.h): read from it
// when it has them, written to it once shown.
#include "open/open_request.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>

namespace strata {

class JobControl;
class JobRunner;
class MessageBanner;
class TraceCacheController;
class WindowPages;
class WindowStatus;
class Workspace;
struct Loaded;

class LoadController : public QObject {
    Q_OBJECT
public:
    struct Parts {
        Workspace* workspace = nullptr;
        WindowPages* pages = nullptr;
        WindowStatus* status = nullptr;
        MessageBanner* banner = nullptr;
        TraceCacheController* cache = nullptr;
        // For the synchronous path: blocks until the views have what they show (the gap index,
        // the warnings).
        std::function<void()> settle;
        // A status bar message for `ms` milliseconds (0: until the next).
        std::function<void(const QString&, int)> say;
    };
    LoadController(Parts parts, QObject* parent);
    ~LoadController() override;

    // Starts loading; a load under way is cancelled (its result dropped).
    void open(const OpenRequest& request);
    // The same on the calling thread; false and *error (also in the banner) when nothing opened.
    bool openSync(const OpenRequest& request, QString* error = nullptr);
    void cancel();
    // From open() until its result is handled.
    bool isLoading() const;
    // The trace shown was read from the trace cache.
    bool loadedFromCache() const { return fromCache_; }

signals:
    // A request's result was handed to the workspace: `request` resolved (Kind::Files made Trace
    // or Ranks; absolute paths). `sections`: the file held timer sections alone.
    void opened(const strata::OpenRequest& request, bool sections);
    // A load ended: it opened something, it failed (the banner says why), or it was cancelled.
    void finished(bool ok, bool cancelled);

private:
    // What the work needs, taken on the GUI thread.
    struct Inputs;
    Inputs inputs(const OpenRequest& resolved) const;
    bool install(Loaded loaded, QString* error);
    void ended(bool ok, bool cancelled);
    // Open while this object lives: a load's previews are posted to it only then (a load
    // superseded by another is not waited for when the window goes, and may still be reading).
    struct PreviewGate;
    std::shared_ptr<PreviewGate> gate_;
    Parts p_;
    JobRunner* job_;
    OpenRequest loading_;  // the request under way
    int generation_ = 0;   // of the request under way: an older one's previews are dropped
    int previewShown_ = 0; // the newest of its previews shown (they are numbered from 1)
    bool fromCache_ = false;
};

} // namespace strata

#pragma once
// The GUI's side of the trace cache (io/cache/trace_cache.h): its settings (Settings > Trace
// Cache: on or off, clear it; remembered with QSettings), the cache a load opens files from, and
// the background write of a large JSON trace's model once it is on screen — on a low-priority
// thread of its own (not the analyses' pool), never blocking the window; a write still running at
// exit is finished first (its entry is renamed into place only when complete).
#include "io/cache/trace_cache.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

class QMenu;
class QThreadPool;
class QWidget;

namespace strata {

class TraceCacheController : public QObject {
    Q_OBJECT
public:
    // `remember`: read and write the settings (off for screenshots and tests: on by default).
    TraceCacheController(QWidget* window, bool remember);
    ~TraceCacheController() override;
    // Settings > Trace Cache.
    void addMenu(QMenu* settings);
    bool enabled() const { return settings_.enabled; }
    void setEnabled(bool on);
    TraceCache cache() const { return TraceCache(settings_); }
    // After a trace is on screen: its model written to the cache in the background when the load
    // says it may be kept (LoadResult::cacheSource: the cache wants the file, it was not read
    // from there, and it did not change while it was read).
    void traceShown(const QString& path, const LoadResult& result);
    // Background writes still running (tests wait on it).
    int writesRunning() const { return running_->load(); }
    bool waitForWrites(int timeoutMs) const;

signals:
    void message(const QString& text);                      // for the status bar
    void stored(const QString& path, const QString& error); // a background write ended

private:
    QWidget* window_;
    bool remember_;
    TraceCacheSettings settings_;
    QThreadPool* pool_;
    std::shared_ptr<std::atomic<int>> running_ = std::make_shared<std::atomic<int>>(0);
    void clearCache();
};

} // namespace strata

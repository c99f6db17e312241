#pragma once
// A live run's trace in the window while the program runs (issue 50), for the Profile menu
// (profile_controller.h). Every quarter second the run's trace file, as the collector writes it
// (contract/collector_env.h: kLive), is read again off the GUI thread (io: LoadOptions::growing)
// with every track's summary built there too (timeline/lod/lod_seeds.h); the first picture is shown
// as the window's trace and each next one amends it (workspace.h: amendCurrent), so where the user
// looks stays, or, with follow on, the view keeps its width and slides to the newest time. The
// reads never block the target (the file is only read) nor the GUI: a read that takes longer than
// the period delays the next one, so a fast program is drawn less often, never later than one read
// behind. A long run's picture holds the rows of the file's newest kRowBytes only (the definitions
// of the whole file: LoadOptions::growingRowsFrom), so that it costs the same however long the
// run. The docks keep what they show until asked again (Workspace::live). Ends with stop(): the
// run's final trace is then opened as any other.
#include "model/trace.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace strata {

class JobRunner;
class Navigation;
class Workspace;

class LiveFeed : public QObject {
    Q_OBJECT
public:
    LiveFeed(Workspace* workspace, Navigation* navigation, QObject* parent = nullptr);
    ~LiveFeed() override;

    // Starts following the file findFile() names (empty until the run has one); `label` is
    // what the window calls the trace. `sameClock`: the program runs on this machine, so how far
    // behind it a picture is can be told (behindMs).
    void start(std::function<QString()> findFile, QString label, bool sameClock = true);
    // Stops reading; what was shown stays until the final trace replaces it.
    void stop();
    bool active() const { return active_; }

    void setFollow(bool on);
    bool follow() const { return follow_; }
    // Pictures shown, and how far behind the program the last one was: the collector's clock
    // now minus the newest record in it (the same machine's CLOCK_MONOTONIC_RAW), or -1 (none
    // yet, or a program on another machine).
    int pictures() const { return pictures_; }
    qint64 behindMs() const { return behindMs_; }
    // The time the last picture spans when it holds the newest rows only (a long run), or -1
    // (it holds the whole run so far).
    qint64 newestOnlyMs() const { return newestOnlyMs_; }

    static constexpr int kPeriodMs = 250;
    // The most bytes of rows a picture reads: about 0.13 s of reading on this project's 2-core
    // machine (docs/performance.md, "A run watched live"); 17 s of a run of 100,000 kernels a
    // second. Tests make it smaller.
    static constexpr qint64 kRowBytes = qint64(256) << 20;
    void setRowBytes(qint64 bytes) { rowBytes_ = bytes; }

signals:
    // A picture was shown (statusText() says how it goes).
    void updated();

private:
    void poll();
    void show(std::shared_ptr<const Trace> trace, qint64 fileBytes, qint64 readMs, bool newestOnly);

    Workspace* workspace_;
    Navigation* nav_;
    JobRunner* job_;
    QTimer timer_;
    std::function<QString()> findFile_;
    QString label_, path_;
    std::string format_;     // the reader's name (LoadResult::format)
    qint64 shownBytes_ = -1; // the file's size at the last read
    bool active_ = false, follow_ = true, reading_ = false, sameClock_ = true;
    int pictures_ = 0;
    qint64 behindMs_ = -1;
    qint64 newestOnlyMs_ = -1;
    qint64 rowBytes_ = kRowBytes;
    std::optional<TimeNs> runStart_; // the earliest start of the pictures so far
};

} // namespace strata

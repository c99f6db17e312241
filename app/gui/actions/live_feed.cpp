#include "actions/live_feed.h"

#include "io/trace_loader.h"
#include "timeline/lod/lod_seeds.h"
#include "workspace/job_runner.h"
#include "workspace/navigation.h"
#include "workspace/workspace.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

#include <ctime>

namespace strata {

namespace {

// The collector's clock (CLOCK_MONOTONIC_RAW, ns), as its records are stamped.
int64_t collectorClockNs() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

struct Picture {
    std::shared_ptr<const Trace> trace;
    LodSeed seed;
    qint64 bytes = 0;
    qint64 readMs = 0;
    bool newestOnly = false; // the rows of the file's end only (LoadOptions::growingRowsFrom)
    std::string format;
};

} // namespace

LiveFeed::LiveFeed(Workspace* workspace, Navigation* navigation, QObject* parent)
    : QObject(parent), workspace_(workspace), nav_(navigation), job_(new JobRunner(this)) {
    timer_.setSingleShot(true);
    connect(&timer_, &QTimer::timeout, this, &LiveFeed::poll);
}

// The window's workspace may be gone already: nothing of it is touched here (the job runner, a
// child, drops a read under way).
LiveFeed::~LiveFeed() {
    timer_.stop();
}

void LiveFeed::start(std::function<QString()> findFile, QString label, bool sameClock) {
    stop();
    findFile_ = std::move(findFile);
    label_ = std::move(label);
    path_.clear();
    shownBytes_ = -1;
    pictures_ = 0;
    behindMs_ = -1;
    newestOnlyMs_ = -1;
    runStart_.reset();
    sameClock_ = sameClock;
    active_ = true;
    workspace_->setLive(true);
    timer_.start(kPeriodMs);
}

void LiveFeed::stop() {
    if (!active_) return;
    active_ = false;
    timer_.stop();
    job_->cancel();
    reading_ = false;
    workspace_->setLive(false);
}

void LiveFeed::setFollow(bool on) {
    follow_ = on;
}

void LiveFeed::poll() {
    if (!active_ || reading_) return;
    if (path_.isEmpty()) path_ = findFile_ ? findFile_() : QString();
    const qint64 bytes = path_.isEmpty() ? -1 : QFileInfo(path_).size();
    if (bytes <= 0 || bytes == shownBytes_) { // nothing yet, or nothing new
        timer_.start(kPeriodMs);
        return;
    }
    reading_ = true;
    const std::string file = path_.toStdString();
    const qint64 rowsFrom = bytes > rowBytes_ ? bytes - rowBytes_ : 0;
    const std::optional<TimeNs> runStart = runStart_;
    job_->run(
        [file, bytes, rowsFrom, runStart](JobControl& control) {
            Picture p;
            QElapsedTimer clock;
            clock.start();
            LoadOptions o;
            o.growing = true;
            o.growingRowsFrom = uint64_t(rowsFrom);
            o.growingStart = runStart;
            o.progress = [&control](double) { return !control.cancelled(); };
            LoadResult r = loadTrace(file, o);
            p.format = r.format;
            p.newestOnly = r.rowsLeftOut;
            if (!r.trace || control.cancelled()) return p;
            p.seed = buildLodSeed(*r.trace);
            p.trace = std::move(r.trace);
            p.bytes = bytes;
            p.readMs = clock.elapsed();
            return p;
        },
        [this](Picture p) {
            reading_ = false;
            if (!active_) return;
            if (p.trace) {
                offerLodSeed(p.trace, std::move(p.seed));
                format_ = p.format;
                show(std::move(p.trace), p.bytes, p.readMs, p.newestOnly);
            }
            timer_.start(kPeriodMs);
        });
}

void LiveFeed::show(std::shared_ptr<const Trace> trace, qint64 fileBytes, qint64 readMs,
                    bool newestOnly) {
    shownBytes_ = fileBytes;
    const TimeRange before = nav_->visibleRange();
    const TimeRange newest = trace->contentBounds();
    newestOnlyMs_ = newestOnly ? newest.duration() / 1'000'000 : -1;
    if (!runStart_ || trace->bounds().start < *runStart_) runStart_ = trace->bounds().start;
    std::shared_ptr<const Trace> previous = workspace_->current();
    if (pictures_ == 0 || !previous)
        workspace_->showTrace(trace, label_, path_, readMs, QString::fromStdString(format_));
    else
        workspace_->amendCurrent(trace, readMs);
    // The picture before, when nothing else holds it, is freed off the GUI thread (millions of
    // slices take a while).
    if (previous)
        (void)QtConcurrent::run(JobRunner::pool(), [previous = std::move(previous)]() mutable {
            yieldToGuiThread();
            previous.reset();
        });
    ++pictures_;
    if (follow_ && pictures_ > 1) {
        const TimeNs span = before.end - before.start;
        nav_->setVisibleRange({newest.end - span, newest.end});
    }
    if (sameClock_) behindMs_ = (collectorClockNs() - newest.end) / 1'000'000;
    emit updated();
}

} // namespace strata

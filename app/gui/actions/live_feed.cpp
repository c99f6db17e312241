#include "actions/live_feed.h"

#include "io/trace_loader.h"
#include "timeline/lod/lod_seeds.h"
#include "workspace/job_runner.h"
#include "workspace/navigation.h"
#include "workspace/workspace.h"

#include <QFileInfo>

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
};

} // namespace

LiveFeed::LiveFeed(Workspace* workspace, Navigation* navigation, QObject* parent)
    : QObject(parent), workspace_(workspace), nav_(navigation), job_(new JobRunner(this)) {
    timer_.setSingleShot(true);
    connect(&timer_, &QTimer::timeout, this, &LiveFeed::poll);
}

LiveFeed::~LiveFeed() {
    stop();
}

void LiveFeed::start(std::function<QString()> findFile, QString label) {
    stop();
    findFile_ = std::move(findFile);
    label_ = std::move(label);
    path_.clear();
    shownBytes_ = -1;
    pictures_ = 0;
    behindMs_ = -1;
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
    job_->run(
        [file, bytes](JobControl& control) {
            Picture p;
            LoadOptions o;
            o.growing = true;
            o.progress = [&control](double) { return !control.cancelled(); };
            LoadResult r = loadTrace(file, o);
            if (!r.trace || control.cancelled()) return p;
            p.seed = buildLodSeed(*r.trace);
            p.trace = std::move(r.trace);
            p.bytes = bytes;
            return p;
        },
        [this](Picture p) {
            reading_ = false;
            if (!active_) return;
            if (p.trace) {
                offerLodSeed(p.trace, std::move(p.seed));
                show(std::move(p.trace), p.bytes);
            }
            timer_.start(kPeriodMs);
        });
}

void LiveFeed::show(std::shared_ptr<const Trace> trace, qint64 fileBytes) {
    shownBytes_ = fileBytes;
    const TimeRange before = nav_->visibleRange();
    const TimeRange newest = trace->contentBounds();
    if (pictures_ == 0 || workspace_->current() == nullptr)
        workspace_->showTrace(trace, label_, path_);
    else
        workspace_->amendCurrent(trace);
    ++pictures_;
    if (follow_ && pictures_ > 1) {
        const TimeNs span = before.end - before.start;
        nav_->setVisibleRange({newest.end - span, newest.end});
    }
    behindMs_ = (collectorClockNs() - newest.end) / 1'000'000;
    emit updated();
}

} // namespace strata

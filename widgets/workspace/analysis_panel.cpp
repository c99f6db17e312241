#include "analysis_panel.h"

#include "job_runner.h"

#include <QTimer>

namespace strata {

AnalysisPanel::AnalysisPanel(Workspace* workspace, Navigation* navigation, QWidget* parent)
    : TracePanel(workspace, navigation, parent), jobs_(new JobRunner(this)),
      coalesce_(new QTimer(this)) {
    coalesce_->setSingleShot(true);
    coalesce_->setInterval(30);
    connect(coalesce_, &QTimer::timeout, this, &AnalysisPanel::refresh);
    connect(analyses(), &Analyses::settingsChanged, this, &AnalysisPanel::refresh);
    // A live run's docks follow on request, and once it ends.
    auto caughtUp = [this] {
        if (!stale_) return;
        stale_ = false;
        refresh();
    };
    connect(workspace, &Workspace::liveRefreshRequested, this, caughtUp);
    connect(workspace, &Workspace::liveChanged, this, caughtUp);
    // The subclass's first refresh() comes from its constructor (virtual calls are not yet its
    // own here).
}

AnalysisPanel::~AnalysisPanel() = default;

Analyses* AnalysisPanel::analyses() const {
    return workspace()->analyses();
}

void AnalysisPanel::traceChanged(const std::shared_ptr<const Trace>&) {
    // A live run's next picture: what is shown, or on its way, is kept until asked
    // (Workspace::live); restarting each time would never finish.
    if (workspace()->live() && workspace()->amending() &&
        (shown_ || afterPicture_ || jobs_->isRunning())) {
        stale_ = true;
        return;
    }
    stale_ = false;
    range_.reset(); // the navigation has reset the selection too
    coalesce_->stop();
    refresh();
}

void AnalysisPanel::selectedRangeChanged(std::optional<TimeRange> r) {
    range_ = r;
    coalesce_->start();
}

void AnalysisPanel::refresh() {
    coalesce_->stop();
    if (analyses()->pictureHeld()) { // the timeline's picture first (Analyses::holdForPicture)
        if (shown_ && shown_->tracePtr() != trace()) { // nothing of the trace before meanwhile
            jobs_->cancel();
            shown_.reset();
            present(nullptr);
        }
        if (!afterPicture_) {
            afterPicture_ = true;
            analyses()->afterPicture(this, [this] {
                if (afterPicture_) refresh();
            });
        }
        return;
    }
    afterPicture_ = false;
    prepare();
}

void AnalysisPanel::prepare() {
    std::shared_ptr<const TraceAnalysis> a;
    if (range_ || followsWholeTrace()) a = analyses()->current(range_);
    if (!a) {
        jobs_->cancel();
        shown_.reset();
        present(nullptr);
        return;
    }
    jobs_->run(
        [a, prepare = preparation()](JobControl&) {
            prepare(*a);
            return a;
        },
        [this](std::shared_ptr<const TraceAnalysis> ready) {
            shown_ = std::move(ready);
            present(shown_);
        });
}

void AnalysisPanel::waitForJobs() {
    if (afterPicture_ || coalesce_->isActive()) { // waited for here, not behind the picture
        coalesce_->stop();
        afterPicture_ = false;
        prepare();
    }
    jobs_->waitForFinished();
}

} // namespace strata

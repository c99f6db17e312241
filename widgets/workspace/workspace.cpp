#include "workspace.h"

#include "analyses.h"
#include "meta_types.h"
#include "rank_set.h"
#include "trace_comparison.h"

namespace strata {

Workspace::Workspace(QObject* parent) : QObject(parent) {
    registerMetaTypes();
    analyses_ = new Analyses(this, this);
    ranks_ = new RankSet(this);
    comparison_ = new TraceComparison(this);
}

void Workspace::setShown(Shown what) {
    // One kind at a time: the sets that are not shown are let go.
    if (what != Shown::Ranks && what != Shown::RankReport) ranks_->clear();
    if (what != Shown::Comparison) comparison_->clear();
    if (shown_ == what) return;
    shown_ = what;
    emit shownChanged(what);
}

void Workspace::replace(std::shared_ptr<const Trace> trace, QString label, QString path,
                        qint64 loadMs, QString format) {
    if (current_.trace)
        emit currentReplaced(current_.id);
    else
        current_.id = nextId_++;
    current_.trace = std::move(trace);
    current_.label = std::move(label);
    current_.path = std::move(path);
    current_.format = std::move(format);
    current_.loadMs = loadMs;
    emit currentChanged(current_.trace);
}

TraceId Workspace::showTrace(std::shared_ptr<const Trace> trace, QString label, QString path,
                             qint64 loadMs, QString format) {
    setShown(Shown::Trace);
    previewing_ = false;
    replace(std::move(trace), std::move(label), std::move(path), loadMs, std::move(format));
    return current_.id;
}

void Workspace::showSet(Shown what, std::shared_ptr<const Trace> trace, QString label, QString path,
                        qint64 loadMs, QString format) {
    setShown(what);
    previewing_ = false;
    replace(std::move(trace), std::move(label), std::move(path), loadMs, std::move(format));
}

void Workspace::showRankReport() {
    setShown(Shown::RankReport);
    previewing_ = false;
    if (!current_.trace) return;
    emit currentReplaced(current_.id);
    current_ = OpenTrace{};
    emit currentChanged(nullptr);
}

void Workspace::showPreview(std::shared_ptr<const Trace> preview, QString label) {
    if (previewing()) {
        amendCurrent(std::move(preview));
        return;
    }
    if (current_.trace || shown_ != Shown::Nothing) return; // something else is on screen
    setShown(Shown::Trace);
    previewing_ = true;
    replace(std::move(preview), std::move(label), {}, 0, {});
}

void Workspace::dropPreview() {
    if (!previewing()) return;
    previewing_ = false;
    emit currentReplaced(current_.id);
    current_ = OpenTrace{};
    setShown(Shown::Nothing);
    emit currentChanged(nullptr);
}

void Workspace::setLive(bool on) {
    if (live_ == on) return;
    live_ = on;
    emit liveChanged(on);
}

void Workspace::amendCurrent(std::shared_ptr<const Trace> trace, qint64 loadMs) {
    if (!current_.trace) {
        showTrace(std::move(trace));
        return;
    }
    amending_ = true;
    emit currentReplaced(current_.id);
    current_.trace = std::move(trace);
    if (loadMs >= 0) current_.loadMs = loadMs;
    emit currentChanged(current_.trace);
    amending_ = false;
}

} // namespace strata

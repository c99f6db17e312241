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
    replace(std::move(trace), std::move(label), std::move(path), loadMs, std::move(format));
    return current_.id;
}

void Workspace::showSet(Shown what, std::shared_ptr<const Trace> trace, QString label, QString path,
                        qint64 loadMs, QString format) {
    setShown(what);
    replace(std::move(trace), std::move(label), std::move(path), loadMs, std::move(format));
}

void Workspace::showRankReport() {
    setShown(Shown::RankReport);
    if (!current_.trace) return;
    emit currentReplaced(current_.id);
    current_ = OpenTrace{};
    emit currentChanged(nullptr);
}

void Workspace::setLive(bool on) {
    if (live_ == on) return;
    live_ = on;
    emit liveChanged(on);
}

void Workspace::amendCurrent(std::shared_ptr<const Trace> trace) {
    if (!current_.trace) {
        showTrace(std::move(trace));
        return;
    }
    amending_ = true;
    emit currentReplaced(current_.id);
    current_.trace = std::move(trace);
    emit currentChanged(current_.trace);
    amending_ = false;
}

} // namespace strata

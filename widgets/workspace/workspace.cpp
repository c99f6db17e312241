#include "workspace.h"

#include "analyses.h"
#include "meta_types.h"
#include "rank_set.h"
#include "trace_comparison.h"

#include <algorithm>

namespace strata {

Workspace::Workspace(QObject* parent) : QObject(parent) {
    registerMetaTypes();
    analyses_ = new Analyses(this, this);
    ranks_ = new RankSet(this);
    comparison_ = new TraceComparison(this);
}

const OpenTrace* Workspace::find(TraceId id) const {
    for (const OpenTrace& t : traces_)
        if (t.id == id) return &t;
    return nullptr;
}

OpenTrace* Workspace::findMutable(TraceId id) {
    return const_cast<OpenTrace*>(find(id));
}

std::shared_ptr<const Trace> Workspace::current() const {
    const OpenTrace* t = currentTrace();
    return t ? t->trace : nullptr;
}

TraceId Workspace::add(std::shared_ptr<const Trace> trace, QString label, QString path,
                       qint64 loadMs, QString format) {
    OpenTrace t;
    t.id = nextId_++;
    t.trace = std::move(trace);
    t.label = std::move(label);
    t.path = std::move(path);
    t.format = std::move(format);
    t.loadMs = loadMs;
    traces_.push_back(std::move(t));
    current_ = traces_.back().id;
    emit traceAdded(current_);
    emit currentChanged(traces_.back().trace);
    return current_;
}

TraceId Workspace::replaceCurrent(std::shared_ptr<const Trace> trace, QString label, QString path,
                                  qint64 loadMs, QString format) {
    OpenTrace* t = findMutable(current_);
    if (!t)
        return add(std::move(trace), std::move(label), std::move(path), loadMs, std::move(format));
    t->trace = std::move(trace);
    t->label = std::move(label);
    t->path = std::move(path);
    t->format = std::move(format);
    t->loadMs = loadMs;
    t->clockOffset = 0;
    emit traceReplaced(current_);
    emit currentChanged(t->trace);
    return current_;
}

void Workspace::amendCurrent(std::shared_ptr<const Trace> trace) {
    OpenTrace* t = findMutable(current_);
    if (!t) {
        add(std::move(trace));
        return;
    }
    t->trace = std::move(trace);
    amending_ = true;
    emit traceReplaced(current_);
    emit currentChanged(t->trace);
    amending_ = false;
}

void Workspace::remove(TraceId id) {
    auto it = std::find_if(traces_.begin(), traces_.end(),
                           [&](const OpenTrace& t) { return t.id == id; });
    if (it == traces_.end()) return;
    traces_.erase(it);
    emit traceRemoved(id);
    if (id == current_) {
        current_ = traces_.empty() ? kNoTrace : traces_.back().id;
        emit currentChanged(current());
    }
}

void Workspace::setClockOffset(TraceId id, TimeNs offset) {
    OpenTrace* t = findMutable(id);
    if (!t || t->clockOffset == offset) return;
    t->clockOffset = offset;
    emit clockOffsetChanged(id);
}

} // namespace strata

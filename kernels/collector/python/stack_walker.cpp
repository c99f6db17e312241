#include "python/stack_walker.h"

#include "io/strata/strata_trace_writer.h"
#include "process/process_info.h"

#include <cstdlib>
#include <string>

namespace strata::python {

StackWalker::StackWalker(FrameTable& frames, PyObject* threads)
    : frames_(frames), threadsFn_(threads) {
    if (threadsFn_) api()->Py_IncRef(threadsFn_);
}

void StackWalker::resetForChild() {
    tids_.clear();
    unresolved_.clear();
    resolved_.clear();
    // The child writes a file of its own: its strings and callsites are written again there.
    callsites_.clear();
    strings_.clear();
}

uint32_t StackWalker::callsite(StrataTraceWriter& w, uint32_t parent, uint32_t frame) {
    const uint64_t key = uint64_t(parent) << 32 | frame;
    if (auto it = callsites_.find(key); it != callsites_.end()) return it->second;
    if (frame >= strings_.size()) strings_.resize(frame + 1, 0);
    if (!strings_[frame]) strings_[frame] = w.string(frames_.name(frame));
    const uint32_t id = w.newCallsite(parent, strings_[frame]);
    callsites_.emplace(key, id);
    return id;
}

uint32_t StackWalker::siteOf(StrataTraceWriter& w, PyThreadState* t) {
    PyFrameObject* top = api()->PyThreadState_GetFrame(t);
    const uint32_t site = top ? siteOfFrame(w, top) : 0;
    if (top) api()->Py_DecRef(reinterpret_cast<PyObject*>(top));
    return site;
}

uint32_t StackWalker::siteOfFrame(StrataTraceWriter& w, PyFrameObject* top) {
    const Api& a = *api();
    scratch_.clear();
    a.Py_IncRef(reinterpret_cast<PyObject*>(top));
    PyFrameObject* f = top;
    while (f) {
        scratch_.push_back(frames_.ofFrame(f));
        PyFrameObject* back = a.PyFrame_GetBack(f);
        a.Py_DecRef(reinterpret_cast<PyObject*>(f));
        f = back;
    }
    uint32_t site = 0;
    for (auto it = scratch_.rbegin(); it != scratch_.rend(); ++it) site = callsite(w, site, *it);
    return site;
}

void StackWalker::resolveThreads(StrataTraceWriter& w, int64_t pid) {
    resolved_.clear();
    const Api& a = *api();
    if (!threadsFn_) return;
    PyObject* text = a.PyObject_CallNoArgs(threadsFn_);
    if (!text) {
        a.PyErr_Clear();
        return;
    }
    const char* s = a.PyUnicode_AsUTF8(text);
    for (const char* p = s; p && *p;) {
        char* end = nullptr;
        const unsigned long ident = std::strtoul(p, &end, 10);
        const int64_t tid = std::strtoll(end, &end, 10);
        while (*end == ' ') ++end;
        const char* eol = end;
        while (*eol && *eol != '\n') ++eol;
        if (tid > 0) {
            resolved_[ident] = tid;
            w.thread(pid, tid, std::string(end, size_t(eol - end)));
        }
        p = *eol ? eol + 1 : eol;
    }
    if (!s) a.PyErr_Clear();
    a.Py_DecRef(text);
}

int64_t StackWalker::threadOf(StrataTraceWriter& w, int64_t pid, unsigned long ident,
                              uint64_t tick) {
    if (auto it = tids_.find(ident); it != tids_.end()) return it->second;
    if (auto it = unresolved_.find(ident); it != unresolved_.end() && tick < it->second + 1000)
        return 0; // asked threading lately: not again before 1000 ticks
    resolveThreads(w, pid);
    const auto found = resolved_.find(ident);
    if (found == resolved_.end()) {
        unresolved_[ident] = tick; // a thread threading does not know (_thread, C code)
        return 0;
    }
    unresolved_.erase(ident);
    tids_.emplace(ident, found->second);
    return found->second;
}

} // namespace strata::python

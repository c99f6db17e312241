#pragma once
// The stacks of Python threads as callsite ids, and the samples written with them (for
// stack_sampler.h): every call with the GIL held. A thread is known by its ident (threading's,
// the key of sys._current_frames()) and its native id (asked of the bootstrap's threading
// function once per thread), a stack by its innermost callsite, interned as (frame, caller's
// callsite) and written to the trace once.
#include "python/python_api.h"
#include "python/python_frames.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace strata {
class StrataTraceWriter;
}

namespace strata::python {

class StackWalker {
public:
    // `threads`: the bootstrap's function naming threads: a str of "IDENT TID NAME" lines
    // (threading's ident, the native id, threading's name); a reference is kept.
    StackWalker(FrameTable& frames, PyObject* threads);
    // The native id of the thread of ident `ident` (0: not known to threading, not sampled),
    // with its name written to the trace the first time.
    int64_t threadOf(StrataTraceWriter& w, int64_t pid, unsigned long ident, uint64_t tick);
    // The stack of the calling thread (`t`, its own state) as its innermost callsite (0: no
    // frame).
    uint32_t siteOf(StrataTraceWriter& w, PyThreadState* t);
    // The stack whose innermost frame is `top` (borrowed), as its innermost callsite.
    uint32_t siteOfFrame(StrataTraceWriter& w, PyFrameObject* top);
    // A forked child: the same frames; the threads are the parent's, the callsites and strings
    // the parent file's.
    void resetForChild();

private:
    void resolveThreads(StrataTraceWriter& w, int64_t pid);
    uint32_t callsite(StrataTraceWriter& w, uint32_t parent, uint32_t frame);

    FrameTable& frames_;
    PyObject* threadsFn_;
    std::unordered_map<unsigned long, int64_t> tids_;        // ident -> native tid
    std::unordered_map<unsigned long, uint64_t> unresolved_; // ident -> tick last asked
    std::unordered_map<unsigned long, int64_t> resolved_;    // a resolve()'s ident -> tid
    std::unordered_map<uint64_t, uint32_t> callsites_;       // (parent << 32 | frame) -> id
    std::vector<uint32_t> strings_;                          // frame id -> writer string id
    std::vector<uint32_t> scratch_;
};

} // namespace strata::python

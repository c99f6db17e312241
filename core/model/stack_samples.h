#pragma once
// Sampled call stacks (the collector's Python sampler; a profile's samples): a table of callsites,
// each a frame called from a parent callsite, and per thread its samples (time, innermost
// callsite, kind) in time order. Columnar: 13 bytes per sample, 8 per callsite. A callsite's
// parent always has a smaller id (parents are defined first), so a stack is a walk towards 0.
// Reached by the thread's (pid, tid): Trace::stackSamples().thread(track.pid, track.tid) for a
// thread track (a thread whose only data are samples has no track of its own).
#include "model/string_pool.h"
#include "model/time.h"

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace strata {

using CallsiteId = uint32_t;
constexpr CallsiteId kNoCallsite = 0; // the empty stack; the root every stack hangs from

// What a sample's stack is (the .strata StackSampleBlock's kind). ApiCall: the Python stack
// the collector took at a CUDA launch, copy or sync call (at its start, on its thread), to tell
// where the call came from when no python_function slice encloses it (--python sample); not a
// sample of time, so the profiles and flame graphs of samples leave it out.
enum class StackKind : uint8_t { Python = 0, Native = 1, ApiCall = 2 };
inline constexpr uint8_t kMaxStackKind = 2;
std::string_view stackKindName(uint8_t kind); // "python", "native", "api_call", "unknown"

// The samples of one thread: rows [first, first + count) of the sample columns.
struct SampleThread {
    int64_t pid = 0;
    int64_t tid = 0;
    uint64_t first = 0;
    uint64_t count = 0;
    uint64_t end() const { return first + count; }
};

struct StackSamples {
    // Callsites by id; id 0 is the empty stack (parent 0, frame 0). parent[c] < c for c > 0.
    std::vector<CallsiteId> callsiteParent{0};
    std::vector<StringId> callsiteFrame{0};
    // Samples, thread after thread (as `threads` orders them), by time within a thread.
    std::vector<TimeNs> ts;
    std::vector<CallsiteId> callsite;  // innermost frame; kNoCallsite: no frame at that moment
    std::vector<uint8_t> kind;         // StackKind
    std::vector<SampleThread> threads; // sorted by (pid, tid), each with samples

    size_t size() const { return ts.size(); }
    bool empty() const { return ts.empty(); }
    size_t callsiteCount() const { return callsiteParent.size() - 1; } // id 0 not counted
    // The thread's samples, or null when it has none.
    const SampleThread* thread(int64_t pid, int64_t tid) const;
    // The first thread of that tid (any pid), or null.
    const SampleThread* threadByTid(int64_t tid) const;
    // Rows [first, last) of a thread's samples at t with range.start <= t < range.end.
    std::pair<uint64_t, uint64_t> rowsIn(const SampleThread& t, TimeRange range) const;
    // The frames of a callsite's stack, outermost first (empty for kNoCallsite).
    std::vector<StringId> stack(CallsiteId c) const;
    // Sample i of a thread's samples (0-based within the thread): its stack, outermost first.
    std::vector<StringId> stackAt(const SampleThread& t, uint64_t i) const {
        return stack(callsite[t.first + i]);
    }
    // The kind of stacks that says where thread t's time went: Python where it has any Python
    // sample, else native. (A Python program recorded with --cpu-sample has both on its Python
    // threads, each a sample of the same time: the profiles, lanes and flame graphs show one.)
    uint8_t timeKind(const SampleThread& t) const;
    // The median interval between consecutive samples of the threads (0: fewer than 2 samples
    // on every thread).
    TimeNs medianInterval() const;
    size_t memoryBytes() const;
};

} // namespace strata

#pragma once
// The sampled stacks the samples tests share (tests/samples/), small enough to count by hand:
// 3 threads, a recursion main > a > b > a, an empty stack, a root other than main, one sample
// handed over out of time order. The expected counts are in the tests, computed by hand.
//
//   callsite  parent  frame          stack (outermost first)
//   1         0       main           main
//   2         1       a              main a
//   3         2       b              main a b
//   4         3       a              main a b a
//   5         1       sleep          main sleep
//   6         0       a              a
//
//   thread (pid 10, tid 11): t 1000 c2, 2000 c4, 3000 c4, 4000 c5 (2000 handed over after 3000)
//   thread (pid 10, tid 12): t 1500 c3, 2500 c0 (no frame), 3500 c1
//   thread (pid 20, tid 21): t 1000 c6, 2000 c6
#include "io/strata/strata_trace_writer.h"
#include "model/build/trace_builder.h"

#include <cstdint>
#include <string>

namespace strata::test {

struct StackFixture {
    static constexpr const char* kMain = "main.py(1): main";
    static constexpr const char* kA = "lib/a.py(10): a";
    static constexpr const char* kB = "lib/b.py(20): b";
    static constexpr const char* kSleep = "<built-in function sleep>";
    struct Site {
        uint32_t id, parent;
        const char* frame;
    };
    static constexpr Site kSites[] = {{1, 0, kMain}, {2, 1, kA},     {3, 2, kB},
                                      {4, 3, kA},    {5, 1, kSleep}, {6, 0, kA}};
    struct Sample {
        int64_t pid, tid, ts;
        uint32_t callsite;
    };
    static constexpr Sample kSamples[] = {{10, 11, 1000, 2}, {10, 11, 3000, 4}, {10, 11, 2000, 4},
                                          {10, 11, 4000, 5}, {10, 12, 1500, 3}, {10, 12, 2500, 0},
                                          {10, 12, 3500, 1}, {20, 21, 1000, 6}, {20, 21, 2000, 6}};

    // Through the writer (the collector's calls); `flushAfter`: a chunk ends after that many
    // samples (so blocks of one thread lie in several chunks).
    static void write(StrataTraceWriter& w, size_t flushAfter = 0) {
        w.metadata("python_sample_hz", "1000");
        for (const Site& s : kSites) w.callsite(s.id, s.parent, w.string(s.frame));
        size_t n = 0;
        for (const Sample& s : kSamples) {
            w.stackSample(s.pid, s.tid, s.ts, s.callsite, 0);
            if (flushAfter && ++n % flushAfter == 0) w.flush();
        }
    }
    // Straight into a builder (the model's calls; its callsite ids are the same, 1..6).
    static void build(TraceBuilder& b) {
        b.setMetadata("python_sample_hz", "1000");
        CallsiteId ids[7] = {kNoCallsite};
        for (const Site& s : kSites) ids[s.id] = b.addCallsite(ids[s.parent], b.intern(s.frame));
        for (const Sample& s : kSamples) b.addStackSample(s.pid, s.tid, s.ts, ids[s.callsite], 0);
    }
};

} // namespace strata::test

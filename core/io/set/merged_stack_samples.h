#pragma once
// The stack samples (model/stack_samples.h) of a merged set (io/set/trace_set_merge.h): the parts'
// callsite tables one after the other, their frames mapped to the merged strings; each thread's
// samples under the ids its main lane has in the merged trace, moved by its part's offset. A
// thread with samples but no track (nothing else recorded on it) has no merged ids: its samples
// are left out and counted.
#include "model/trace.h"

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace strata {

struct StackSamplesPart {
    const Trace* trace = nullptr;
    const std::vector<StringId>* stringOf = nullptr; // the part's string id -> the merged one
    std::function<std::pair<int64_t, int64_t>(TrackId)> mergedIds; // a main lane's (pid, tid)
    TimeNs offset = 0;
};

struct MergedStackSamples {
    StackSamples samples;
    uint64_t left = 0;                    // samples of threads without a track
    TimeRange span{INT64_MAX, INT64_MIN}; // first to last sample (start > end: none)
};

MergedStackSamples mergeStackSamples(const std::vector<StackSamplesPart>& parts);

// The samples of each thread moved by shiftOf(its main lane's track in `tracks`) (a part's
// shift, io/set/trace_set_merge.h's shiftMergedParts); `see(first, last)` told each thread's
// first and last time after.
void shiftStackSamples(StackSamples& samples, const std::vector<Track>& tracks,
                       const std::function<TimeNs(TrackId)>& shiftOf,
                       const std::function<void(TimeNs, TimeNs)>& see);

} // namespace strata

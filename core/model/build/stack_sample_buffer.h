#pragma once
// The stack samples a TraceBuilder was handed, per thread as they came, until build() puts them
// in time order, drops those whose time is out of range and lays them out as the columns of
// model/stack_samples.h. Internal to core/model.
#include "model/pid_tid_hash.h"
#include "model/stack_samples.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace strata {

class StackSampleBuffer {
public:
    void add(int64_t pid, int64_t tid, TimeNs ts, CallsiteId callsite, uint8_t kind);
    // The samples laid out into `out` (its callsites are already there). Returns the range
    // [first, last sample] (start > end when there is none); adds what was dropped to
    // `warnings`. The buffer is empty afterwards.
    TimeRange finish(StackSamples& out, std::vector<std::string>& warnings);
    // The (pid, tid) of every thread with samples.
    std::vector<std::pair<int64_t, int64_t>> threadKeys() const;

private:
    struct Rows {
        int64_t pid = 0, tid = 0;
        std::vector<TimeNs> ts;
        std::vector<CallsiteId> callsite;
        std::vector<uint8_t> kind;
    };
    std::vector<Rows> threads_;
    std::unordered_map<std::pair<int64_t, int64_t>, size_t, PidTidHash> index_;
    size_t last_ = SIZE_MAX; // the thread of the previous sample (most come in runs)
};

} // namespace strata

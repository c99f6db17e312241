#pragma once
// The stack samples the writer has not written out yet, one block per thread, kept column by
// column (io/strata/strata_records.h: StackSampleBlock) until the chunk's flush appends them
// after the chunk's other records (so after every Callsite record they name). Plain std (the
// collector links it through StrataTraceWriter); not synchronized (the writer's mutex covers it).
#include "model/pid_tid_hash.h"
#include "model/time.h"

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace strata {

class StrataSampleBuffer {
public:
    void add(int64_t pid, int64_t tid, TimeNs ts, uint32_t callsite, uint8_t kind);
    // Appends every thread's block with rows to `out`, in the order the threads first came;
    // returns the records appended.
    uint32_t closeAll(std::vector<uint8_t>& out);
    // What the blocks will take in the chunk, record headers included.
    size_t pendingBytes() const { return pendingBytes_; }
    void clear();

private:
    struct Block {
        int64_t pid = 0, tid = 0;
        std::vector<TimeNs> ts;
        std::vector<uint32_t> callsite;
        std::vector<uint8_t> kind;
    };
    std::vector<Block> blocks_;
    std::unordered_map<std::pair<int64_t, int64_t>, size_t, PidTidHash> index_;
    size_t pendingBytes_ = 0;
};

} // namespace strata

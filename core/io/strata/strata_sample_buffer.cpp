#include "io/strata/strata_sample_buffer.h"

#include "io/strata/strata_format.h"
#include "io/strata/strata_records.h"

#include <cstring>

namespace strata {

namespace fmt = format;

void StrataSampleBuffer::add(int64_t pid, int64_t tid, TimeNs ts, uint32_t callsite, uint8_t kind) {
    auto [it, added] = index_.try_emplace({pid, tid}, blocks_.size());
    if (added) {
        blocks_.emplace_back();
        blocks_.back().pid = pid;
        blocks_.back().tid = tid;
    }
    Block& b = blocks_[it->second];
    if (b.ts.empty()) pendingBytes_ += fmt::kRecordHeaderBytes + fmt::kStackSampleBlockHead;
    b.ts.push_back(ts);
    b.callsite.push_back(callsite);
    b.kind.push_back(kind);
    pendingBytes_ += fmt::kStackSampleRow;
}

uint32_t StrataSampleBuffer::closeAll(std::vector<uint8_t>& out) {
    using R = fmt::StackSampleBlockRecord;
    uint32_t records = 0;
    for (Block& b : blocks_) {
        if (b.ts.empty()) continue;
        const auto rows = uint32_t(b.ts.size());
        const uint32_t body = R::Body::bytes(rows);
        const size_t at = out.size();
        out.resize(at + fmt::kRecordHeaderBytes + body);
        uint8_t* p = out.data() + at;
        *p = uint8_t(R::kType);
        std::memcpy(p + 1, &body, 4);
        p = R::Head::write(p + fmt::kRecordHeaderBytes, R{b.pid, b.tid, rows});
        std::memcpy(p, b.ts.data(), rows * sizeof(TimeNs));
        p += rows * sizeof(TimeNs);
        std::memcpy(p, b.callsite.data(), rows * sizeof(uint32_t));
        p += rows * sizeof(uint32_t);
        std::memcpy(p, b.kind.data(), rows);
        b.ts.clear();
        b.callsite.clear();
        b.kind.clear();
        ++records;
    }
    pendingBytes_ = 0;
    return records;
}

void StrataSampleBuffer::clear() {
    blocks_.clear();
    index_.clear();
    pendingBytes_ = 0;
}

} // namespace strata

#include "io/strata/strata_block_buffer.h"

#include "io/strata/strata_format.h"

#include <algorithm>
#include <cstring>

namespace strata {

namespace {

template <typename T> void append(std::vector<uint8_t>& column, T v) {
    const size_t at = column.size();
    column.resize(at + sizeof v);
    std::memcpy(column.data() + at, &v, sizeof v);
}

// GpuActivity as stored (format::kGpuActivityBytes).
void appendGpuActivity(std::vector<uint8_t>& c, const GpuActivity& g) {
    append(c, int32_t(g.device));
    append(c, int64_t(g.stream));
    append(c, int64_t(g.context));
    for (int32_t v : g.grid) append(c, v);
    for (int32_t v : g.block) append(c, v);
    append(c, int32_t(g.registersPerThread));
    append(c, int32_t(g.staticSharedBytes));
    append(c, int32_t(g.dynamicSharedBytes));
    append(c, int64_t(g.bytes));
    append(c, uint8_t(g.copyKind));
    append(c, uint8_t(g.srcMemory));
    append(c, uint8_t(g.dstMemory));
    append(c, int64_t(g.graphId));
    append(c, int64_t(g.graphNodeId));
}

uint32_t headBytes(bool gpu) {
    return gpu ? format::kGpuOpBlockHead : format::kCpuSliceBlockHead;
}
uint32_t rowBytes(bool gpu) {
    return gpu ? format::kGpuOpRow : format::kCpuSliceRow;
}

} // namespace

StrataBlockBuffer::Block& StrataBlockBuffer::addRow(const Key& key, TimeNs start, TimeNs end,
                                                    uint32_t name, SliceKind kind,
                                                    int64_t correlation) {
    auto [it, added] = index_.try_emplace(key, blocks_.size());
    if (added) blocks_.emplace_back().key = key;
    Block& b = blocks_[it->second];
    if (!b.open) {
        b.open = true;
        openOrder_.push_back(it->second);
        pendingBytes_ += format::kRecordHeaderBytes + headBytes(key.gpu);
    }
    ++b.rows;
    pendingBytes_ += rowBytes(key.gpu);
    append(b.columns[0], int64_t(start));
    append(b.columns[1], int64_t(end));
    append(b.columns[2], name);
    append(b.columns[3], uint8_t(kind));
    append(b.columns[4], correlation);
    return b;
}

void StrataBlockBuffer::cpuSlice(int64_t pid, int64_t tid, TimeNs start, TimeNs end, uint32_t name,
                                 SliceKind kind, int64_t correlation, int32_t returnCode) {
    Block& b = addRow(Key{false, pid, tid}, start, end, name, kind, correlation);
    append(b.columns[5], returnCode);
}

void StrataBlockBuffer::gpuOp(TimeNs start, TimeNs end, uint32_t name, SliceKind kind,
                              const GpuActivity& gpu, int64_t correlation) {
    Block& b = addRow(Key{true, gpu.device, gpu.stream}, start, end, name, kind, correlation);
    appendGpuActivity(b.columns[5], gpu);
}

void StrataBlockBuffer::write(Block& b, std::vector<uint8_t>& out) {
    const uint32_t body = headBytes(b.key.gpu) + b.rows * rowBytes(b.key.gpu);
    const size_t at = out.size();
    out.resize(at + format::kRecordHeaderBytes + body);
    uint8_t* p = out.data() + at;
    *p++ = uint8_t(b.key.gpu ? format::RecordType::GpuOpBlock : format::RecordType::CpuSliceBlock);
    std::memcpy(p, &body, 4);
    p += 4;
    if (!b.key.gpu) {
        std::memcpy(p, &b.key.a, 8);
        std::memcpy(p + 8, &b.key.b, 8);
        p += 16;
    }
    std::memcpy(p, &b.rows, 4);
    p += 4;
    for (std::vector<uint8_t>& c : b.columns) {
        if (!c.empty()) std::memcpy(p, c.data(), c.size());
        p += c.size();
        c.clear();
    }
    pendingBytes_ -= format::kRecordHeaderBytes + body;
    b.rows = 0;
    b.open = false;
}

uint32_t StrataBlockBuffer::closeThread(int64_t pid, int64_t tid, std::vector<uint8_t>& out) {
    auto it = index_.find(Key{false, pid, tid});
    if (it == index_.end() || !blocks_[it->second].open) return 0;
    write(blocks_[it->second], out);
    openOrder_.erase(std::find(openOrder_.begin(), openOrder_.end(), it->second));
    return 1;
}

uint32_t StrataBlockBuffer::closeAll(std::vector<uint8_t>& out) {
    for (size_t i : openOrder_) write(blocks_[i], out);
    const auto n = uint32_t(openOrder_.size());
    openOrder_.clear();
    return n;
}

void StrataBlockBuffer::clear() {
    index_.clear();
    blocks_.clear();
    openOrder_.clear();
    pendingBytes_ = 0;
}

} // namespace strata

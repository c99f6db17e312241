#include "io/strata/strata_block_buffer.h"

#include "io/strata/strata_format.h"

#include <algorithm>
#include <cstring>

namespace strata {

namespace {

using CpuBlock = format::CpuSliceBlockRecord;
using GpuBlock = format::GpuOpBlockRecord;

template <typename T> void append(std::vector<uint8_t>& column, const T& v) {
    // Encoded aside and copied in: no zero-filling resize (a collector writes millions).
    uint8_t bytes[format::Codec<T>::kBytes];
    format::Codec<T>::write(bytes, v);
    column.insert(column.end(), bytes, bytes + sizeof bytes);
}

uint32_t headBytes(bool gpu) {
    return gpu ? GpuBlock::Body::kShape.head : CpuBlock::Body::kShape.head;
}
uint32_t rowBytes(bool gpu) {
    return gpu ? GpuBlock::Body::kShape.row : CpuBlock::Body::kShape.row;
}

} // namespace

StrataBlockBuffer::Block& StrataBlockBuffer::openBlock(const Key& key) {
    auto [it, added] = index_.try_emplace(key, blocks_.size());
    if (added) blocks_.emplace_back().key = key;
    Block& b = blocks_[it->second];
    if (!b.open) {
        b.open = true;
        openOrder_.push_back(it->second);
        pendingBytes_ += format::kRecordHeaderBytes + headBytes(key.gpu);
    }
    return b;
}

template <typename RowFields>
void StrataBlockBuffer::appendRow(Block& b, const typename RowFields::Struct& row) {
    ++b.rows;
    pendingBytes_ += RowFields::kBytes;
    RowFields::forEach(row, [&](size_t i, const auto& value) { append(b.columns[i], value); });
}

void StrataBlockBuffer::cpuSlice(int64_t pid, int64_t tid, TimeNs start, TimeNs end, uint32_t name,
                                 SliceKind kind, int64_t correlation, int32_t returnCode) {
    appendRow<format::CpuSliceRowFields>(
        openBlock(Key{false, pid, tid}),
        format::CpuSliceRow{start, end, name, uint8_t(kind), correlation, returnCode});
}

void StrataBlockBuffer::cpuSlices(int64_t pid, int64_t tid, const format::CpuSliceRow* rows,
                                  size_t count) {
    if (!count) return;
    Block& b = openBlock(Key{false, pid, tid});
    for (size_t i = 0; i < count; ++i) appendRow<format::CpuSliceRowFields>(b, rows[i]);
}

void StrataBlockBuffer::gpuOp(TimeNs start, TimeNs end, uint32_t name, SliceKind kind,
                              const GpuActivity& gpu, int64_t correlation) {
    appendRow<format::GpuOpRowFields>(
        openBlock(Key{true, gpu.device, gpu.stream}),
        format::GpuOpRow{start, end, name, uint8_t(kind), correlation, gpu});
}

void StrataBlockBuffer::write(Block& b, std::vector<uint8_t>& out) {
    const uint32_t body = headBytes(b.key.gpu) + b.rows * rowBytes(b.key.gpu);
    const size_t at = out.size();
    out.resize(at + format::kRecordHeaderBytes + body);
    uint8_t* p = out.data() + at;
    *p++ = uint8_t(b.key.gpu ? GpuBlock::kType : CpuBlock::kType);
    std::memcpy(p, &body, 4);
    p += 4;
    if (b.key.gpu)
        p = GpuBlock::Head::write(p, GpuBlock{b.rows});
    else
        p = CpuBlock::Head::write(p, CpuBlock{b.key.a, b.key.b, b.rows});
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

#include "io/strata/strata_record_sink.h"

#include <cinttypes>

namespace strata::strata_reader {

namespace {

// Why a block record's body does not hold the rows its header announces.
template <typename Columns> std::string blockSizeError(const uint8_t* body, uint32_t bytes) {
    constexpr uint32_t head = Columns::kHead;
    if (bytes < head)
        return sprint("%s record of %" PRIu32 " bytes is shorter than its %" PRIu32 "-byte header",
                      Columns::kBlockName, bytes, head);
    const uint32_t rows = cell<uint32_t>(body + head - 4, 0);
    return sprint("%s of %" PRIu32 " rows has %" PRIu32 " body bytes, expected %" PRIu64,
                  Columns::kBlockName, rows, bytes,
                  uint64_t(head) + uint64_t(rows) * Columns::kRow);
}

} // namespace

GpuActivity readGpuActivity(Get& g) {
    GpuActivity a;
    a.device = g.i32();
    a.stream = g.i64();
    a.context = g.i64();
    for (auto& v : a.grid) v = g.i32();
    for (auto& v : a.block) v = g.i32();
    a.registersPerThread = g.i32();
    a.staticSharedBytes = g.i32();
    a.dynamicSharedBytes = g.i32();
    a.bytes = g.i64();
    a.copyKind = g.u8();
    a.srcMemory = g.u8();
    a.dstMemory = g.u8();
    a.graphId = g.i64();
    a.graphNodeId = g.i64();
    return a;
}

const uint8_t* SliceCells::layBlock(const uint8_t* first, uint32_t n) {
    rows = n;
    start = first;
    end = start + 8 * size_t(n);
    name = end + 8 * size_t(n);
    kind = name + 4 * size_t(n);
    correlation = kind + size_t(n);
    return correlation + 8 * size_t(n);
}

const uint8_t* SliceCells::layRecord(const uint8_t* first) {
    return layBlock(first, 1); // one row: the columns are the record's consecutive fields
}

CpuSliceColumns CpuSliceColumns::ofRecord(const uint8_t* p) {
    CpuSliceColumns c;
    c.pid = cell<int64_t>(p, 0);
    c.tid = cell<int64_t>(p + 8, 0);
    c.returnCode = c.layRecord(p + 16);
    return c;
}

std::optional<CpuSliceColumns> CpuSliceColumns::ofBlock(const uint8_t* p, uint32_t bytes) {
    const uint32_t rows = fmt::blockRows(p, bytes, kHead, kRow);
    if (rows == UINT32_MAX) return std::nullopt;
    CpuSliceColumns c = ofRecord(p);
    c.returnCode = c.layBlock(p + kHead, rows);
    return c;
}

GpuOpColumns GpuOpColumns::ofRecord(const uint8_t* p) {
    GpuOpColumns c;
    c.activity = c.layRecord(p);
    return c;
}

std::optional<GpuOpColumns> GpuOpColumns::ofBlock(const uint8_t* p, uint32_t bytes) {
    const uint32_t rows = fmt::blockRows(p, bytes, kHead, kRow);
    if (rows == UINT32_MAX) return std::nullopt;
    GpuOpColumns c;
    c.activity = c.layBlock(p + kHead, rows);
    return c;
}

std::string RecordSink::rowError(uint32_t row, bool block) const {
    return block ? sprint("row %" PRIu32 " of the block: ", row) + bad_ : bad_;
}

// Row i's start, duration, name, kind, category and correlation; false: a bad name or kind.
bool RecordSink::rowInput(const SliceCells& c, uint32_t i, SliceInput& s) {
    s.start = cell<int64_t>(c.start, i);
    s.dur = duration(s.start, cell<int64_t>(c.end, i));
    if (!str(cell<uint32_t>(c.name, i), &s.name) || !kind(c.kind[i], &s.kind)) return false;
    s.category = kindCategory_[uint8_t(s.kind)];
    s.correlation = cell<int64_t>(c.correlation, i);
    return true;
}

std::string RecordSink::cpuSlices(const CpuSliceColumns& c, bool block) {
    const TrackId track = threadTrack(c.pid, c.tid);
    for (uint32_t i = 0; i < c.rows; ++i) {
        SliceInput s;
        if (!rowInput(c, i, s)) return rowError(i, block);
        if (const int32_t rc = cell<int32_t>(c.returnCode, i); rc != 0) {
            b_.args().begin();
            b_.args().addInt(returnCodeKey_, rc);
            s.args = b_.args().finish();
        }
        b_.addSlice(track, s);
    }
    return {};
}

std::string RecordSink::gpuOps(const GpuOpColumns& c, bool block) {
    for (uint32_t i = 0; i < c.rows; ++i) {
        SliceInput s;
        if (!rowInput(c, i, s)) return rowError(i, block);
        Get g{c.activityOf(i)};
        const GpuActivity a = readGpuActivity(g);
        s.gpu = &a;
        b_.addSlice(gpuTrack(a.device, a.stream), s);
    }
    return {};
}

std::string RecordSink::apply(fmt::RecordType type, Get g, uint32_t body) {
    const uint32_t fixed = fmt::fixedBodyBytes(type);
    if (fixed != UINT32_MAX && body != fixed)
        return sprint("record type %u has %" PRIu32 " body bytes, expected %" PRIu32,
                      unsigned(type), body, fixed);
    StringId name = 0;
    switch (type) {
    case fmt::RecordType::String: {
        if (body < 4) return "String record shorter than its 4-byte id";
        const uint32_t id = g.u32();
        if (id == 0) return "String record redefines id 0 (reserved for \"\")";
        // Writers number strings 1, 2, 3, ...; a far jump is damage, not a reason to allocate.
        if (id > strings_.size() + kMaxStringIdGap)
            return sprint("String record id %" PRIu32 " jumps past the %zu strings defined so far",
                          id, strings_.size() - 1);
        if (id >= strings_.size()) strings_.resize(size_t(id) + 1, UINT32_MAX);
        strings_[id] = b_.intern(std::string_view(reinterpret_cast<const char*>(g.p), body - 4));
        return {};
    }
    case fmt::RecordType::Metadata: {
        if (body < 4) return "Metadata record shorter than its 4-byte key";
        if (!str(g.u32(), &name)) return bad_;
        b_.setMetadata(std::string(b_.strings().view(name)),
                       std::string(reinterpret_cast<const char*>(g.p), body - 4));
        return {};
    }
    case fmt::RecordType::Process: {
        const int64_t pid = g.i64();
        if (!str(g.u32(), &name)) return bad_;
        b_.setProcessName(pid, name);
        return {};
    }
    case fmt::RecordType::NameColor: {
        if (!str(g.u32(), &name)) return bad_;
        b_.setNameColor(name, g.u32());
        return {};
    }
    case fmt::RecordType::Thread: {
        const int64_t pid = g.i64();
        const int64_t tid = g.i64();
        if (!str(g.u32(), &name)) return bad_;
        b_.setThreadName(pid, tid, name);
        return {};
    }
    case fmt::RecordType::Device: {
        DeviceInfo d;
        d.id = g.i32();
        if (!str(g.u32(), &name)) return bad_;
        d.name = std::string(b_.strings().view(name));
        d.smCount = g.i32();
        d.totalMemoryBytes = g.i64();
        d.computeMajor = g.i32();
        d.computeMinor = g.i32();
        d.clockRateKHz = g.i64();
        d.memoryClockRateKHz = g.i64();
        b_.addDevice(d);
        return {};
    }
    case fmt::RecordType::CpuSlice:
        return cpuSlices(CpuSliceColumns::ofRecord(g.p), false);
    case fmt::RecordType::CpuSliceBlock: {
        const auto c = CpuSliceColumns::ofBlock(g.p, body);
        return c ? cpuSlices(*c, true) : blockSizeError<CpuSliceColumns>(g.p, body);
    }
    case fmt::RecordType::CpuBegin: {
        const int64_t pid = g.i64();
        const int64_t tid = g.i64();
        SliceInput s;
        s.start = g.i64();
        if (!str(g.u32(), &s.name) || !kind(g.u8(), &s.kind)) return bad_;
        s.category = kindCategory_[uint8_t(s.kind)];
        b_.addBegin(threadTrack(pid, tid), s);
        return {};
    }
    case fmt::RecordType::CpuEnd: {
        const int64_t pid = g.i64();
        const int64_t tid = g.i64();
        b_.addEnd(threadTrack(pid, tid), g.i64(), 0, kNoArgs);
        return {};
    }
    case fmt::RecordType::AsyncSlice: {
        const int64_t pid = g.i64();
        const uint64_t id = g.u64();
        SliceInput s;
        s.start = g.i64();
        s.dur = duration(s.start, g.i64());
        if (!str(g.u32(), &s.name)) return bad_;
        s.kind = SliceKind::UserAnnotation;
        s.category = kindCategory_[uint8_t(s.kind)];
        b_.addSlice(b_.asyncTrack(pid, s.name, id), s);
        return {};
    }
    case fmt::RecordType::Instant: {
        const int64_t pid = g.i64();
        const int64_t tid = g.i64();
        const TimeNs ts = g.i64();
        if (!str(g.u32(), &name)) return bad_;
        b_.addInstant(threadTrack(pid, tid), ts, name, kindCategory_[uint8_t(SliceKind::Instant)],
                      kNoArgs);
        return {};
    }
    case fmt::RecordType::GpuOp:
        return gpuOps(GpuOpColumns::ofRecord(g.p), false);
    case fmt::RecordType::GpuOpBlock: {
        const auto c = GpuOpColumns::ofBlock(g.p, body);
        return c ? gpuOps(*c, true) : blockSizeError<GpuOpColumns>(g.p, body);
    }
    case fmt::RecordType::Counter: {
        const int64_t pid = g.i64();
        if (!str(g.u32(), &name)) return bad_;
        const TimeNs ts = g.i64();
        b_.addCounter(b_.counterTrack(pid, name), ts, g.f64());
        return {};
    }
    case fmt::RecordType::Warning:
        b_.addWarning(std::string(reinterpret_cast<const char*>(g.p), body));
        return {};
    case fmt::RecordType::EndOfFile:
        ++endOfFileRecords;
        return {};
    default:
        ++unknownRecords; // a newer minor version's record: skipped, counted
        return {};
    }
}

} // namespace strata::strata_reader

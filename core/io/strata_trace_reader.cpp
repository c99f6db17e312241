// Reads a .strata file (io/strata_format.h) straight into a TraceBuilder.
//
// The file is mapped read-only; each chunk's header and CRC32C are checked before any of its
// records reach the builder. A damaged or truncated chunk ends the load with a warning naming
// the chunk index and byte offset; every good chunk before it is kept. Only a bad file header
// (not .strata, unknown major version) is an error.
#include "io/strata_crc32c.h"
#include "io/strata_format.h"
#include "io/trace_loader.h"
#include "model/trace_builder.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace strata {
namespace {

namespace fmt = format;

std::string sprint(const char* f, ...) __attribute__((format(printf, 1, 2)));
std::string sprint(const char* f, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, f);
    std::vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    return buf;
}

// A read-only view of the whole file (mmap, or empty).
class MappedFile {
public:
    ~MappedFile() {
        if (data_ && size_) munmap(const_cast<uint8_t*>(data_), size_);
    }
    bool open(const std::string& path, std::string* error) {
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            *error = std::string("cannot open: ") + std::strerror(errno);
            return false;
        }
        struct stat st {};
        if (fstat(fd, &st) != 0) {
            *error = std::string("cannot stat: ") + std::strerror(errno);
            ::close(fd);
            return false;
        }
        size_ = size_t(st.st_size);
        if (size_ > 0) {
            void* p = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
            if (p == MAP_FAILED) {
                *error = std::string("cannot map: ") + std::strerror(errno);
                ::close(fd);
                size_ = 0;
                return false;
            }
            madvise(p, size_, MADV_SEQUENTIAL);
            data_ = static_cast<const uint8_t*>(p);
        }
        ::close(fd);
        return true;
    }
    // Drops pages before `offset` from this process (the page cache keeps them) and asks the
    // kernel to read the next `ahead` bytes: resident memory stays a window, not the file.
    void advance(size_t offset, size_t ahead) {
        const size_t page = size_t(sysconf(_SC_PAGESIZE));
        const size_t done = offset / page * page;
        if (done > released_) {
            madvise(const_cast<uint8_t*>(data_) + released_, done - released_, MADV_DONTNEED);
            released_ = done;
        }
        if (done < size_)
            madvise(const_cast<uint8_t*>(data_) + done, std::min(ahead, size_ - done),
                    MADV_WILLNEED);
    }
    const uint8_t* data() const { return data_; }
    size_t size() const { return size_; }

private:
    const uint8_t* data_ = nullptr;
    size_t size_ = 0;
    size_t released_ = 0;
};

// Fixed-width little-endian fields from a cursor (bounds were checked by the caller).
struct Get {
    const uint8_t* p;
    template <typename T> T take() {
        T v;
        std::memcpy(&v, p, sizeof v);
        p += sizeof v;
        return v;
    }
    int64_t i64() { return take<int64_t>(); }
    uint64_t u64() { return take<uint64_t>(); }
    int32_t i32() { return take<int32_t>(); }
    uint32_t u32() { return take<uint32_t>(); }
    uint8_t u8() { return *p++; }
    double f64() { return take<double>(); }
};

// (a, b) -> track, for the few keys a trace has (threads, GPU streams): a short array searched
// linearly (cheaper than hashing for tens of keys), with a hash map behind it for many keys.
class TrackCache {
public:
    template <typename Make> TrackId get(int64_t a, int64_t b, Make make) {
        for (const Entry& e : small_)
            if (e.a == a && e.b == b) return e.track;
        const Key key{a, b};
        if (auto it = big_.find(key); it != big_.end()) return it->second;
        const TrackId t = make();
        if (small_.size() < 32)
            small_.push_back({a, b, t});
        else
            big_.emplace(key, t);
        return t;
    }

private:
    struct Entry {
        int64_t a, b;
        TrackId track;
    };
    using Key = std::pair<int64_t, int64_t>;
    struct Hash {
        size_t operator()(const Key& k) const noexcept {
            return std::hash<uint64_t>{}(uint64_t(k.first) * 0x9E3779B97F4A7C15ull ^
                                         uint64_t(k.second));
        }
    };
    std::vector<Entry> small_;
    std::unordered_map<Key, TrackId, Hash> big_;
};

// Turns records into builder calls. Returns an empty string, or what was wrong with a record.
class RecordSink {
public:
    static constexpr size_t kMaxStringIdGap = 1u << 16;
    explicit RecordSink(TraceBuilder& b) : b_(b) {
        strings_.push_back(StringPool::kEmpty);
        returnCodeKey_ = b_.intern("return_code");
        for (uint8_t k = 0; k <= fmt::kMaxSliceKind; ++k)
            kindCategory_[k] = b_.intern(sliceKindName(SliceKind(k)));
    }

    std::string apply(fmt::RecordType type, Get g, uint32_t body);

    uint64_t unknownRecords = 0;
    uint64_t negativeDurations = 0;
    uint64_t endOfFileRecords = 0;

private:
    TraceBuilder& b_;
    std::vector<StringId> strings_; // file string id -> model id
    StringId returnCodeKey_ = 0;
    StringId kindCategory_[fmt::kMaxSliceKind + 1] = {};
    TrackCache threadTracks_;
    TrackCache gpuTracks_;
    std::string bad_;

    bool str(uint32_t fileId, StringId* out) {
        if (fileId < strings_.size() && (fileId == 0 || strings_[fileId] != UINT32_MAX)) {
            *out = strings_[fileId];
            return true;
        }
        bad_ = sprint("string id %" PRIu32 " is used before its String record", fileId);
        return false;
    }
    bool kind(uint8_t k, SliceKind* out) {
        if (k <= fmt::kMaxSliceKind) {
            *out = SliceKind(k);
            return true;
        }
        bad_ = sprint("slice kind %u is not a known SliceKind (0..%u)", unsigned(k),
                      unsigned(fmt::kMaxSliceKind));
        return false;
    }
    TrackId threadTrack(int64_t pid, int64_t tid) {
        return threadTracks_.get(pid, tid, [&] { return b_.threadTrack(pid, tid); });
    }
    TrackId gpuTrack(int32_t device, int64_t stream) {
        return gpuTracks_.get(device, stream,
                              [&] { return b_.gpuStreamTrack(device, stream, device, stream); });
    }
    TimeNs duration(TimeNs start, TimeNs end) {
        TimeNs d;
        if (end >= start && !__builtin_sub_overflow(end, start, &d)) return d;
        ++negativeDurations;
        return 0;
    }
};

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

uint32_t fixedBody(fmt::RecordType t) {
    switch (t) {
    case fmt::RecordType::Process:
        return fmt::kProcessBody;
    case fmt::RecordType::Thread:
        return fmt::kThreadBody;
    case fmt::RecordType::Device:
        return fmt::kDeviceBody;
    case fmt::RecordType::CpuSlice:
        return fmt::kCpuSliceBody;
    case fmt::RecordType::CpuBegin:
        return fmt::kCpuBeginBody;
    case fmt::RecordType::CpuEnd:
        return fmt::kCpuEndBody;
    case fmt::RecordType::AsyncSlice:
        return fmt::kAsyncSliceBody;
    case fmt::RecordType::Instant:
        return fmt::kInstantBody;
    case fmt::RecordType::GpuOp:
        return fmt::kGpuOpBody;
    case fmt::RecordType::Counter:
        return fmt::kCounterBody;
    case fmt::RecordType::EndOfFile:
        return 0;
    default:
        return UINT32_MAX; // variable size or unknown
    }
}

std::string RecordSink::apply(fmt::RecordType type, Get g, uint32_t body) {
    const uint32_t fixed = fixedBody(type);
    if (fixed != UINT32_MAX && body != fixed)
        return sprint("record type %u has %" PRIu32 " body bytes, expected %" PRIu32,
                      unsigned(type), body, fixed);
    StringId name = 0;
    SliceKind k = SliceKind::Generic;
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
    case fmt::RecordType::CpuSlice: {
        const int64_t pid = g.i64();
        const int64_t tid = g.i64();
        SliceInput s;
        s.start = g.i64();
        s.dur = duration(s.start, g.i64());
        if (!str(g.u32(), &s.name) || !kind(g.u8(), &s.kind)) return bad_;
        s.category = kindCategory_[uint8_t(s.kind)];
        s.correlation = g.i64();
        const int32_t rc = g.i32();
        if (rc != 0) {
            b_.args().begin();
            b_.args().addInt(returnCodeKey_, rc);
            s.args = b_.args().finish();
        }
        b_.addSlice(threadTrack(pid, tid), s);
        return {};
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
    case fmt::RecordType::GpuOp: {
        SliceInput s;
        s.start = g.i64();
        s.dur = duration(s.start, g.i64());
        if (!str(g.u32(), &s.name) || !kind(g.u8(), &k)) return bad_;
        s.kind = k;
        s.category = kindCategory_[uint8_t(k)];
        s.correlation = g.i64();
        const GpuActivity a = readGpuActivity(g);
        s.gpu = &a;
        b_.addSlice(gpuTrack(a.device, a.stream), s);
        return {};
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

} // namespace

LoadResult readStrataTrace(const std::string& path, const LoadOptions& options) {
    LoadResult result;
    auto fail = [&](uint64_t offset, std::string message) {
        result.error = LoadError{path, offset, 0, std::move(message)};
        return result;
    };
    MappedFile file;
    std::string error;
    if (!file.open(path, &error)) return fail(0, error);
    const uint8_t* data = file.data();
    const size_t size = file.size();
    if (size < fmt::kFileHeaderBytes || std::memcmp(data, fmt::kMagic, sizeof fmt::kMagic) != 0)
        return fail(0, "expected the .strata header (\"STRATA\" + 2 version bytes)");
    if (data[6] != fmt::kVersionMajor)
        return fail(6, sprint("unsupported .strata version %u.%u (this build reads %u.x)",
                              unsigned(data[6]), unsigned(data[7]), unsigned(fmt::kVersionMajor)));

    TraceBuilder builder;
    RecordSink sink(builder);
    size_t pos = fmt::kFileHeaderBytes;
    uint32_t chunkIndex = 0;
    std::string damage;                   // why loading stopped early
    constexpr size_t kWindow = 32u << 20; // resident window of the mapped file
    size_t lastProgress = 0;
    file.advance(0, 2 * kWindow);
    while (pos < size) {
        const size_t chunkStart = pos;
        auto stop = [&](std::string why) {
            damage = sprint("%s: chunk %" PRIu32 " at byte %zu: ", path.c_str(), chunkIndex,
                            chunkStart) +
                     why +
                     sprint("; kept the %" PRIu32 " chunk(s) before it, skipped the last %zu bytes",
                            chunkIndex, size - chunkStart);
        };
        if (size - pos < fmt::kChunkHeaderBytes) {
            stop(sprint("truncated chunk header (%zu of %zu bytes)", size - pos,
                        fmt::kChunkHeaderBytes));
            break;
        }
        Get h{data + pos};
        const uint32_t magic = h.u32();
        const uint32_t seq = h.u32();
        const uint32_t payload = h.u32();
        const uint32_t records = h.u32();
        const uint32_t storedCrc = h.u32();
        if (magic != fmt::kChunkMagic) {
            stop("expected the chunk magic \"CHNK\"");
            break;
        }
        if (payload > fmt::kMaxChunkPayload) {
            stop(sprint("bad chunk length %" PRIu32 " (at most %" PRIu32 ")", payload,
                        fmt::kMaxChunkPayload));
            break;
        }
        if (size - pos - fmt::kChunkHeaderBytes < payload) {
            stop(sprint("truncated chunk: %" PRIu32 " payload bytes announced, %zu present",
                        payload, size - pos - fmt::kChunkHeaderBytes));
            break;
        }
        const uint8_t* body = data + pos + fmt::kChunkHeaderBytes;
        const uint32_t crc = crc32c(crc32c(0, data + pos, 16), body, payload);
        if (crc != storedCrc) {
            stop(sprint("CRC mismatch (stored 0x%08" PRIx32 ", computed 0x%08" PRIx32 ")",
                        storedCrc, crc));
            break;
        }
        if (seq != chunkIndex) {
            stop(sprint("expected chunk sequence number %" PRIu32 ", found %" PRIu32, chunkIndex,
                        seq));
            break;
        }
        // Records.
        size_t r = 0;
        uint32_t n = 0;
        std::string bad;
        for (; n < records; ++n) {
            if (payload - r < fmt::kRecordHeaderBytes) {
                bad = "record header runs past the chunk end";
                break;
            }
            const auto type = fmt::RecordType(body[r]);
            uint32_t bodyBytes;
            std::memcpy(&bodyBytes, body + r + 1, 4);
            if (payload - r - fmt::kRecordHeaderBytes < bodyBytes) {
                bad = sprint("record body of %" PRIu32 " bytes runs past the chunk end", bodyBytes);
                break;
            }
            bad = sink.apply(type, Get{body + r + fmt::kRecordHeaderBytes}, bodyBytes);
            if (!bad.empty()) break;
            r += fmt::kRecordHeaderBytes + bodyBytes;
        }
        if (bad.empty() && r != payload)
            bad = sprint("%zu bytes after the %" PRIu32 " records the header announced",
                         size_t(payload) - r, records);
        if (!bad.empty()) {
            stop(sprint("record %" PRIu32 " at byte %zu: ", n,
                        chunkStart + fmt::kChunkHeaderBytes + r) +
                 bad);
            break;
        }
        pos += fmt::kChunkHeaderBytes + payload;
        ++chunkIndex;
        if (pos - lastProgress > kWindow) {
            lastProgress = pos;
            file.advance(pos, 2 * kWindow);
            if (options.progress && !options.progress(double(pos) / double(size)))
                return fail(pos, "loading was cancelled");
        }
    }

    if (!damage.empty())
        builder.addWarning(damage);
    else if (sink.endOfFileRecords == 0)
        builder.addWarning(sprint("%s: no end-of-file record after %" PRIu32
                                  " chunk(s): the writer did not close the file (still "
                                  "running, crashed or killed); data after its last flush is lost",
                                  path.c_str(), chunkIndex));
    if (sink.unknownRecords)
        builder.addWarning(sprint(
            "%s: skipped %" PRIu64 " record(s) of types this build does not know (file version "
            "%u.%u)",
            path.c_str(), sink.unknownRecords, unsigned(data[6]), unsigned(data[7])));
    if (sink.negativeDurations)
        builder.addWarning(sprint("%s: %" PRIu64
                                  " slice(s) ended before they started (or lasted over "
                                  "2^63 ns); their duration was set to 0",
                                  path.c_str(), sink.negativeDurations));
    if (options.progress) options.progress(1.0);
    result.trace = builder.build();
    return result;
}

} // namespace strata

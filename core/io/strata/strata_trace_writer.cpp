#include "io/strata/strata_trace_writer.h"

#include "io/strata/strata_crc32c.h"
#include "io/strata/strata_file_create.h"
#include "io/strata/strata_format.h"
#include "io/strata/strata_records.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace strata {

static_assert(std::endian::native == std::endian::little,
              ".strata is little-endian; a big-endian writer needs byte swaps");

namespace {

// Appends fixed-width little-endian fields at a cursor (the chunk header).
struct Put {
    uint8_t* p;
    template <typename T> void operator()(T v) {
        std::memcpy(p, &v, sizeof v);
        p += sizeof v;
    }
};

std::string_view clip(std::string_view s) {
    return s.size() > format::kMaxStringBytes ? s.substr(0, format::kMaxStringBytes) : s;
}

} // namespace

StrataTraceWriter::~StrataTraceWriter() {
    close();
}

bool StrataTraceWriter::open(const std::string& path, std::string* error, CreateMode mode) {
    std::lock_guard lock(mutex_);
    if (file_) {
        error_ = path + ": the writer already has " + path_ + " open";
        if (error) *error = error_;
        return false;
    }
    // Close-on-exec, so programs the target execs do not inherit the trace file; locked from
    // its creation to close() (io/strata/strata_file_create.h).
    const int fd = createStrataFile(path, mode, &error_);
    if (fd < 0) {
        if (error) *error = error_;
        return false;
    }
    return startOnLocked(fd, path, error);
}

bool StrataTraceWriter::openOn(int fd, const std::string& path, std::string* error) {
    std::lock_guard lock(mutex_);
    if (file_) {
        error_ = path + ": the writer already has " + path_ + " open";
        if (error) *error = error_;
        return false;
    }
    const int own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (own < 0) {
        error_ = path + ": cannot open: " + std::strerror(errno);
        if (error) *error = error_;
        return false;
    }
    return startOnLocked(own, path, error);
}

// The header written on `fd` (owned from here on), then the writer started on it.
bool StrataTraceWriter::startOnLocked(int fd, const std::string& path, std::string* error) {
    std::FILE* f = fdopen(fd, "wb");
    if (!f) {
        error_ = path + ": cannot create: " + std::strerror(errno);
        ::close(fd);
        if (error) *error = error_;
        return false;
    }
    uint8_t header[format::kFileHeaderBytes];
    std::memcpy(header, format::kMagic, sizeof format::kMagic);
    header[6] = format::kVersionMajor;
    header[7] = format::kVersionMinor;
    if (std::fwrite(header, 1, sizeof header, f) != sizeof header || std::fflush(f) != 0) {
        error_ = path + ": cannot write the header: " + std::strerror(errno);
        if (error) *error = error_;
        std::fclose(f);
        return false;
    }
    return startLocked(f, path, sizeof header, 0, false);
}

bool StrataTraceWriter::startLocked(std::FILE* f, const std::string& path, uint64_t bytes,
                                    uint32_t sequence, bool appending) {
    file_ = f;
    path_ = path;
    error_.clear();
    failed_ = false;
    appending_ = appending;
    sequence_ = sequence;
    bytesWritten_ = bytes;
    recordsWritten_ = 0;
    strings_.clear();
    nextString_ = 1;
    nextCallsite_ = 1;
    chunk_.assign(format::kChunkHeaderBytes, 0);
    chunkRecords_ = 0;
    blocks_.clear();
    samples_.clear();
    return true;
}

bool StrataTraceWriter::openAppend(int fd, const std::string& path, uint64_t keepBytes,
                                   uint32_t nextSequence, std::string* error) {
    std::lock_guard lock(mutex_);
    auto fail = [&](const std::string& what, std::FILE* f) {
        error_ = path + ": " + what + ": " + std::strerror(errno);
        if (error) *error = error_;
        if (f) std::fclose(f);
        return false;
    };
    if (file_) {
        errno = EBUSY;
        return fail("the writer already has " + path_ + " open", nullptr);
    }
    // A descriptor of its own (closed by close()) on the caller's open file: the file the caller
    // checked, whatever its name leads to meanwhile.
    const int own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (own < 0) return fail("cannot open for appending", nullptr);
    std::FILE* f = fdopen(own, "r+b");
    if (!f) {
        const int why = errno;
        ::close(own);
        errno = why;
        return fail("cannot open for appending", nullptr);
    }
    if (ftruncate(fileno(f), off_t(keepBytes)) != 0) return fail("cannot cut the damaged tail", f);
    if (fseeko(f, 0, SEEK_END) != 0) return fail("cannot seek to the end", f);
    return startLocked(f, path, keepBytes, nextSequence, true);
}

uint8_t* StrataTraceWriter::beginRecord(uint8_t type, uint32_t bodyBytes) {
    const size_t at = chunk_.size();
    chunk_.resize(at + format::kRecordHeaderBytes + bodyBytes);
    uint8_t* p = chunk_.data() + at;
    p[0] = type;
    std::memcpy(p + 1, &bodyBytes, 4);
    return p + format::kRecordHeaderBytes;
}

void StrataTraceWriter::endRecordLocked() {
    ++chunkRecords_;
    autoFlushLocked();
}

void StrataTraceWriter::autoFlushLocked() {
    if (chunk_.size() - format::kChunkHeaderBytes + blocks_.pendingBytes() +
            samples_.pendingBytes() >=
        autoFlushBytes_)
        flushLocked();
}

uint32_t StrataTraceWriter::internLocked(std::string_view s) {
    if (s.empty() || appending_) return 0; // appending: the file's ids are unknown
    s = clip(s);
    auto it = strings_.find(s);
    if (it != strings_.end()) return it->second;
    const uint32_t id = nextString_++;
    strings_.emplace(std::string(s), id);
    writeLocked(format::StringRecord{id, s});
    return id;
}

uint32_t StrataTraceWriter::string(std::string_view s) {
    std::lock_guard lock(mutex_);
    if (!file_) return 0;
    return internLocked(s);
}

void StrataTraceWriter::metadata(std::string_view key, std::string_view value) {
    std::lock_guard lock(mutex_);
    if (!file_) return;
    const uint32_t k = internLocked(key);
    writeLocked(format::MetadataRecord{k, clip(value)});
}

void StrataTraceWriter::process(int64_t pid, std::string_view name) {
    std::lock_guard lock(mutex_);
    if (!file_) return;
    writeLocked(format::ProcessRecord{pid, internLocked(name)});
}

void StrataTraceWriter::thread(int64_t pid, int64_t tid, std::string_view name) {
    std::lock_guard lock(mutex_);
    if (!file_) return;
    writeLocked(format::ThreadRecord{pid, tid, internLocked(name)});
}

void StrataTraceWriter::device(const DeviceInfo& d) {
    std::lock_guard lock(mutex_);
    if (!file_) return;
    const uint32_t name = internLocked(d.name);
    writeLocked(format::DeviceRecord{d.id, name, d.smCount, d.totalMemoryBytes, d.computeMajor,
                                     d.computeMinor, d.clockRateKHz, d.memoryClockRateKHz});
}

void StrataTraceWriter::cpuSlice(int64_t pid, int64_t tid, TimeNs start, TimeNs end, uint32_t name,
                                 SliceKind kind, int64_t correlation, int32_t returnCode) {
    std::lock_guard lock(mutex_);
    if (!file_) return;
    blocks_.cpuSlice(pid, tid, start, end, name, kind, correlation, returnCode);
    autoFlushLocked();
}

void StrataTraceWriter::cpuSlices(int64_t pid, int64_t tid, const format::CpuSliceRow* rows,
                                  size_t count) {
    std::lock_guard lock(mutex_);
    if (!file_) return;
    // In pieces: a chunk never grows past autoFlushBytes() by more than one piece.
    constexpr size_t kPiece = 8192;
    for (size_t at = 0; at < count; at += kPiece) {
        blocks_.cpuSlices(pid, tid, rows + at, std::min(kPiece, count - at));
        autoFlushLocked();
    }
}

void StrataTraceWriter::cpuBegin(int64_t pid, int64_t tid, TimeNs ts, uint32_t name,
                                 SliceKind kind) {
    std::lock_guard lock(mutex_);
    if (!file_) return;
    chunkRecords_ += blocks_.closeThread(pid, tid, chunk_); // the thread's slices before it
    writeLocked(format::CpuBeginRecord{pid, tid, ts, name, uint8_t(kind)});
}

void StrataTraceWriter::cpuEnd(int64_t pid, int64_t tid, TimeNs ts) {
    std::lock_guard lock(mutex_);
    if (!file_) return;
    chunkRecords_ += blocks_.closeThread(pid, tid, chunk_);
    writeLocked(format::CpuEndRecord{pid, tid, ts});
}

void StrataTraceWriter::asyncSlice(int64_t pid, uint64_t id, TimeNs start, TimeNs end,
                                   uint32_t name) {
    std::lock_guard lock(mutex_);
    if (!file_) return;
    writeLocked(format::AsyncSliceRecord{pid, id, start, end, name});
}

void StrataTraceWriter::instant(int64_t pid, int64_t tid, TimeNs ts, uint32_t name) {
    std::lock_guard lock(mutex_);
    if (!file_) return;
    writeLocked(format::InstantRecord{pid, tid, ts, name});
}

void StrataTraceWriter::nameColor(uint32_t name, uint32_t argb) {
    std::lock_guard lock(mutex_);
    if (!file_) return;
    writeLocked(format::NameColorRecord{name, argb});
}

void StrataTraceWriter::gpuOp(TimeNs start, TimeNs end, uint32_t name, SliceKind kind,
                              const GpuActivity& gpu, int64_t correlation) {
    std::lock_guard lock(mutex_);
    if (!file_) return;
    blocks_.gpuOp(start, end, name, kind, gpu, correlation);
    autoFlushLocked();
}

void StrataTraceWriter::counter(int64_t pid, uint32_t name, TimeNs ts, double value) {
    std::lock_guard lock(mutex_);
    if (!file_) return;
    writeLocked(format::CounterRecord{pid, name, ts, value});
}

void StrataTraceWriter::callsite(uint32_t id, uint32_t parent, uint32_t frame) {
    std::lock_guard lock(mutex_);
    if (!file_) return;
    writeLocked(format::CallsiteRecord{id, parent, frame});
}

uint32_t StrataTraceWriter::newCallsite(uint32_t parent, uint32_t frame) {
    std::lock_guard lock(mutex_);
    if (!file_) return 0;
    const uint32_t id = nextCallsite_++;
    writeLocked(format::CallsiteRecord{id, parent, frame});
    return id;
}

void StrataTraceWriter::stackSample(int64_t pid, int64_t tid, TimeNs ts, uint32_t callsite,
                                    uint8_t kind) {
    std::lock_guard lock(mutex_);
    if (!file_) return;
    samples_.add(pid, tid, ts, callsite, kind);
    autoFlushLocked();
}

void StrataTraceWriter::warning(std::string_view text) {
    std::lock_guard lock(mutex_);
    warningLocked(text);
}

void StrataTraceWriter::warningLocked(std::string_view text) {
    if (!file_) return;
    writeLocked(format::WarningRecord{clip(text)});
}

void StrataTraceWriter::run(const RunInfo& r) {
    std::lock_guard lock(mutex_);
    if (file_) runLocked(r);
}

void StrataTraceWriter::runLocked(const RunInfo& r) {
    using R = format::RunRecord;
    const std::string json = runInfoToJson(r);
    writeLocked(R{r.startUnixNs, r.durationNs, r.pid, r.exitCode ? int32_t(*r.exitCode) : R::kNone,
                  r.signal ? int32_t(*r.signal) : R::kNone, json});
}

void StrataTraceWriter::sections(const SectionsLaunch& l) {
    std::lock_guard lock(mutex_);
    if (!file_) return;
    std::string joined;
    for (size_t i = 0; i < l.names.size(); ++i) {
        if (i) joined += '\n';
        joined += l.names[i];
    }
    const uint32_t kernel = internLocked(l.kernel), names = internLocked(joined);
    size_t at = 0;
    do {
        const size_t n = std::min(l.count - at, kSectionRecordsPerRecord);
        const std::string_view bytes(reinterpret_cast<const char*>(l.records) +
                                         at * kSectionRecordBytes,
                                     n * kSectionRecordBytes);
        writeLocked(format::SectionsRecord{l.correlation, kernel, names, l.device, l.scope,
                                           l.clockHz, l.attempted, bytes});
        at += n;
    } while (at < l.count);
}

void StrataTraceWriter::kernelMetrics(int64_t correlation, int32_t device, std::string_view kernel,
                                      std::string_view names, const double* values, size_t count) {
    std::lock_guard lock(mutex_);
    if (!file_) return;
    const uint32_t k = internLocked(kernel), n = internLocked(names);
    const std::string_view bytes(reinterpret_cast<const char*>(values), count * sizeof(double));
    writeLocked(format::KernelMetricsRecord{correlation, device, k, n, bytes});
}

bool StrataTraceWriter::flushLocked() {
    if (!file_ || failed_) return false;
    chunkRecords_ += blocks_.closeAll(chunk_);
    chunkRecords_ += samples_.closeAll(chunk_); // after the callsites they name
    if (chunkRecords_ == 0) return std::fflush(file_) == 0;
    const uint32_t payload = uint32_t(chunk_.size() - format::kChunkHeaderBytes);
    Put put{chunk_.data()};
    put(format::kChunkMagic);
    put(sequence_);
    put(payload);
    put(chunkRecords_);
    uint32_t crc = crc32c(0, chunk_.data(), 16);
    crc = crc32c(crc, chunk_.data() + format::kChunkHeaderBytes, payload);
    put(crc);
    const bool ok = std::fwrite(chunk_.data(), 1, chunk_.size(), file_) == chunk_.size() &&
                    std::fflush(file_) == 0;
    if (!ok) {
        // Keep going without writing: the collector must not crash the target. The reader
        // reports the damaged tail; lastError() says why.
        error_ = path_ + ": write failed: " + std::strerror(errno);
        failed_ = true;
    } else {
        bytesWritten_ += chunk_.size();
        recordsWritten_ += chunkRecords_;
        ++sequence_;
    }
    chunk_.resize(format::kChunkHeaderBytes);
    chunkRecords_ = 0;
    return ok;
}

bool StrataTraceWriter::flush() {
    std::lock_guard lock(mutex_);
    return flushLocked();
}

void StrataTraceWriter::abandonInForkedChild() {
    if (!file_) return;
    ::close(fileno(file_)); // the FILE itself is left as it is: its buffer is the parent's
    file_ = nullptr;
}

bool StrataTraceWriter::close() {
    std::lock_guard lock(mutex_);
    return closeLocked();
}

bool StrataTraceWriter::closeWithin(std::chrono::milliseconds timeout, std::string_view warning,
                                    const RunInfo* run) {
    std::unique_lock lock(mutex_, std::defer_lock);
    if (!lock.try_lock_for(timeout)) return false;
    if (!file_) return false;
    if (!warning.empty()) warningLocked(warning);
    if (run) runLocked(*run);
    return closeLocked();
}

bool StrataTraceWriter::closeLocked() {
    if (!file_) return false;
    bool ok = flushLocked(); // the data, then a chunk holding only the end-of-file record
    if (!appending_) {
        appendLocked(format::EndOfFileRecord{});
        ++chunkRecords_;
        ok = flushLocked() && ok;
    }
    if (std::fclose(file_) != 0 && ok) {
        error_ = path_ + ": close failed: " + std::strerror(errno);
        ok = false;
    }
    file_ = nullptr;
    chunk_.clear();
    chunk_.shrink_to_fit();
    blocks_.clear();
    samples_.clear();
    strings_.clear();
    return ok && !failed_;
}

uint64_t StrataTraceWriter::bytesWritten() const {
    std::lock_guard lock(mutex_);
    return bytesWritten_;
}

bool StrataTraceWriter::isOpen() const {
    std::lock_guard lock(mutex_);
    return file_ != nullptr;
}

uint32_t StrataTraceWriter::chunksWritten() const {
    std::lock_guard lock(mutex_);
    return sequence_;
}

uint64_t StrataTraceWriter::recordsWritten() const {
    std::lock_guard lock(mutex_);
    return recordsWritten_;
}

std::string StrataTraceWriter::lastError() const {
    std::lock_guard lock(mutex_);
    return error_;
}

void StrataTraceWriter::setAutoFlushBytes(size_t bytes) {
    std::lock_guard lock(mutex_);
    autoFlushBytes_ = bytes == 0 ? 1 : std::min<size_t>(bytes, format::kMaxChunkPayload / 2);
}

size_t StrataTraceWriter::autoFlushBytes() const {
    std::lock_guard lock(mutex_);
    return autoFlushBytes_;
}

} // namespace strata

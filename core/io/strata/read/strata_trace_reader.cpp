// Reads a .strata file (io/strata/strata_format.h) straight into a TraceBuilder.
//
// The file is mapped read-only; each chunk's header and CRC32C are checked before any of its
// records reach the builder. A damaged or truncated chunk ends the load with a warning naming
// the chunk index and byte offset; every good chunk before it is kept. Only a bad file header
// (not .strata, unknown major version) is an error.
#include "io/strata/read/strata_trace_reader.h"
#include "io/strata/model_file/trace_snapshot.h"
#include "io/strata/read/strata_parallel_load.h"
#include "io/strata/read/strata_record_sink.h"
#include "io/strata/strata_chunks.h"
#include "io/strata/strata_format.h"
#include "io/trace_loader.h"
#include "model/build/trace_builder.h"
#include "util/input_file.h"
#include "util/phase_timer.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace strata {
namespace {

using namespace strata_reader;

// A read-only view of the whole file (mmap, or empty).
class MappedFile {
public:
    ~MappedFile() {
        if (data_ && size_) munmap(const_cast<uint8_t*>(data_), size_);
    }
    bool open(const std::string& path, std::string* error) {
        struct stat st {};
        FileDescriptor file = openRegularFile(path, error, &st); // never a FIFO or a device
        if (!file.valid()) return false;
        const int fd = file.release();
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
    // Drops the pages wholly inside [from, to) from this process (the page cache keeps them).
    void release(size_t from, size_t to) {
        const size_t page = size_t(sysconf(_SC_PAGESIZE));
        const size_t lo = (from + page - 1) / page * page, hi = std::min(to, size_) / page * page;
        if (hi > lo) madvise(const_cast<uint8_t*>(data_) + lo, hi - lo, MADV_DONTNEED);
    }
    const uint8_t* data() const { return data_; }
    size_t size() const { return size_; }

private:
    const uint8_t* data_ = nullptr;
    size_t size_ = 0;
    size_t released_ = 0;
};

// Ends a load: the kernel metrics given to their kernels (every row is in the builder now), then
// the warnings (damage, missing end-of-file record, skipped records, metrics of no kernel).
void finishWarnings(TraceBuilder& builder, RecordSink& sink, const std::string& damage,
                    const std::string& path, uint32_t chunks, const uint8_t* header, bool growing) {
    if (const uint64_t orphans = sink.attachKernelMetrics())
        builder.addWarning(sprint("%s: %" PRIu64
                                  " kernel metrics record(s) name a launch whose kernel is not in "
                                  "the trace; their values are not shown",
                                  path.c_str(), orphans));
    if (!damage.empty())
        builder.addWarning(damage);
    else if (sink.endOfFileRecords == 0 && !growing)
        builder.addWarning(sprint("%s: no end-of-file record after %" PRIu32
                                  " chunk(s): the writer did not close the file (still "
                                  "running, crashed or killed); data after its last flush is lost",
                                  path.c_str(), chunks));
    if (sink.unknownRecords)
        builder.addWarning(sprint(
            "%s: skipped %" PRIu64 " record(s) of types this build does not know (file version "
            "%u.%u)",
            path.c_str(), sink.unknownRecords, unsigned(header[6]), unsigned(header[7])));
    if (sink.nonFiniteCounters)
        builder.addWarning(
            sprint("%s: skipped %" PRIu64
                   " counter sample(s) that are not finite numbers (NaN or infinity)",
                   path.c_str(), sink.nonFiniteCounters));
    for (const std::string& p : sink.stackProblems) builder.addWarning(path + ": " + p);
    if (sink.badCallsites || sink.badStackSamples)
        builder.addWarning(sprint("%s: skipped %" PRIu64 " callsite(s) and %" PRIu64
                                  " stack sample(s) that were not valid (the first %zu named "
                                  "above)",
                                  path.c_str(), sink.badCallsites, sink.badStackSamples,
                                  sink.stackProblems.size()));
    if (sink.negativeDurations)
        builder.addWarning(sprint("%s: %" PRIu64
                                  " slice(s) ended before they started (or lasted over "
                                  "2^63 ns); their duration was set to 0",
                                  path.c_str(), sink.negativeDurations));
}

// A live picture without its earlier rows still starts where the run's trace does.
void keepRunStart(TraceBuilder& builder, const LoadResult& result, const LoadOptions& options) {
    if (result.rowsLeftOut && options.growingStart) builder.includeInBounds(*options.growingStart);
}

// "path: chunk N at byte B: why; kept ..." for a load that stopped at chunk `index`.
std::string damageText(const std::string& path, uint32_t index, size_t offset, size_t size,
                       const std::string& why) {
    return sprint("%s: chunk %" PRIu32 " at byte %zu: ", path.c_str(), index, offset) + why +
           sprint("; kept the %" PRIu32 " chunk(s) before it, skipped the last %zu bytes", index,
                  size - offset);
}

// What the sequential load's walk over the chunks read: the chunks applied, why it stopped
// before the end (empty: it did not), or where it was cancelled.
struct ChunkWalk {
    uint32_t chunks = 0;
    std::string damage;
    std::optional<size_t> cancelledAt;
};

// Each chunk checked, then its records applied through the sink, in file order; a live picture's
// chunks before `rowsFromChunk` give their definitions only. `file` (may be null) keeps a window
// of the mapped file resident.
ChunkWalk applyChunksInOrder(const uint8_t* data, size_t size, const std::string& path,
                             const ChunkScan& scan, size_t rowsFromChunk, RecordSink& sink,
                             MappedFile* file, const LoadOptions& options) {
    ChunkWalk walk;
    uint32_t& chunkIndex = walk.chunks;
    constexpr size_t kWindow = 32u << 20; // resident window of the mapped file
    size_t lastProgress = 0;
    if (file) file->advance(0, 2 * kWindow);
    for (; chunkIndex < scan.chunks.size(); ++chunkIndex) {
        const ChunkSpan& chunk = scan.chunks[chunkIndex];
        // A live picture's chunks before its rows were checked whole by an earlier picture, which
        // held their rows (LiveFeed): only their definitions are read, their records still
        // bound-checked.
        const bool rowsLeftOut = chunkIndex < rowsFromChunk;
        std::string bad = checkChunk(data, chunk, chunkIndex, !rowsLeftOut);
        if (bad.empty())
            bad = forEachRecord(data, chunk,
                                [&](fmt::RecordType type, const uint8_t* body, uint32_t bytes) {
                                    if (rowsLeftOut && rowsOnlyRecord(type)) return std::string();
                                    return sink.apply(type, body, bytes);
                                });
        if (!bad.empty()) {
            walk.damage = damageText(path, chunkIndex, chunk.offset, size, bad);
            return walk;
        }
        if (chunk.end() - lastProgress > kWindow) {
            lastProgress = chunk.end();
            if (file) file->advance(lastProgress, 2 * kWindow);
            if (options.progress && !options.progress(double(lastProgress) / double(size))) {
                walk.cancelledAt = lastProgress;
                return walk;
            }
        }
    }
    if (!scan.stopReason.empty())
        walk.damage = damageText(path, chunkIndex, scan.stoppedAt, size, scan.stopReason);
    return walk;
}

// The whole load over bytes in memory; `file` (may be null) releases pages behind the cursor.
LoadResult readStrataBytes(const uint8_t* data, size_t size, const std::string& path,
                           const LoadOptions& options, MappedFile* file, StrataLoadPath how,
                           const RecordTable& records) {
    LoadResult result;
    auto fail = [&](uint64_t offset, std::string message) {
        result.error = LoadError{path, offset, 0, std::move(message)};
        return result;
    };
    const size_t magicSeen = std::min(size, sizeof fmt::kMagic);
    if (size == 0) // (an empty mapping has no data pointer to compare)
        return fail(0, "not a complete .strata header: the file is empty");
    if (std::memcmp(data, fmt::kMagic, magicSeen) != 0)
        return fail(0, "expected the .strata header (\"STRATA\" + 2 version bytes)");
    if (size < fmt::kFileHeaderBytes)
        return fail(size, sprint("not a complete .strata header: the file ends at byte %zu of "
                                 "the %zu-byte header",
                                 size, fmt::kFileHeaderBytes));
    if (data[6] != fmt::kVersionMajor)
        return fail(6, sprint("unsupported .strata version %u.%u (this build reads %u.x)",
                              unsigned(data[6]), unsigned(data[7]), unsigned(fmt::kVersionMajor)));
    if (TraceSnapshot::isSnapshot(data, size)) {
        std::function<void(size_t, size_t)> release;
        if (file) release = [file](size_t from, size_t to) { file->release(from, to); };
        return TraceSnapshot::read(data, size, path, options, release);
    }

    PhaseTimer phases;
    ChunkScan scan = scanChunks(data, size);
    // A live file's last chunk may be half written: not damage (LoadOptions::growing).
    if (options.growing && scan.truncated) scan.stopReason.clear();
    // A live picture of a long run: the chunks before this one contribute no rows.
    size_t rowsFromChunk = 0;
    while (rowsFromChunk < scan.chunks.size() &&
           scan.chunks[rowsFromChunk].end() <= options.growingRowsFrom)
        ++rowsFromChunk;
    result.rowsLeftOut = rowsFromChunk > 0;
    const bool parallel =
        how == StrataLoadPath::Parallel ||
        (how == StrataLoadPath::Auto && !options.oneThread && size >= kParallelLoadMinBytes &&
         std::thread::hardware_concurrency() > 1);
    if (parallel) {
        TraceBuilder builder;
        keepRunStart(builder, result, options);
        RecordSink sink(builder, records);
        sink.setFileStart(data);
        ParallelLoadHooks hooks;
        hooks.progress = options.progress;
        hooks.rowsFromChunk = rowsFromChunk;
        if (file) hooks.releaseBytes = [file](size_t from, size_t to) { file->release(from, to); };
        switch (loadChunksInParallel(data, scan.chunks, builder, sink, hooks)) {
        case ParallelLoad::Loaded: {
            const auto chunks = uint32_t(scan.chunks.size());
            finishWarnings(builder, sink,
                           scan.stopReason.empty()
                               ? std::string()
                               : damageText(path, chunks, scan.stoppedAt, size, scan.stopReason),
                           path, chunks, data, options.growing);
            phases.mark("read records (2 threads)");
            if (options.progress) options.progress(1.0);
            result.trace = builder.build();
            return result;
        }
        case ParallelLoad::Cancelled:
            return fail(0, "loading was cancelled");
        case ParallelLoad::NeedsSequential:
            phases.mark("parallel read gave up");
            break; // damaged: the sequential load keeps what is good and says what is not
        }
    }

    TraceBuilder builder;
    keepRunStart(builder, result, options);
    RecordSink sink(builder, records);
    sink.setFileStart(data);
    const ChunkWalk walk =
        applyChunksInOrder(data, size, path, scan, rowsFromChunk, sink, file, options);
    if (walk.cancelledAt) return fail(*walk.cancelledAt, "loading was cancelled");
    finishWarnings(builder, sink, walk.damage, path, walk.chunks, data, options.growing);
    phases.mark("read records");
    if (options.progress) options.progress(1.0);
    result.trace = builder.build();
    return result;
}

} // namespace

LoadResult readStrataTrace(const std::string& path, const LoadOptions& options) {
    MappedFile file;
    std::string error;
    if (!file.open(path, &error)) {
        LoadResult r;
        r.error = LoadError{path, 0, 0, error};
        return r;
    }
    return readStrataBytes(file.data(), file.size(), path, options, &file, StrataLoadPath::Auto,
                           RecordTable::standard());
}

LoadResult readStrataBuffer(std::string_view bytes, const std::string& name,
                            const LoadOptions& options, StrataLoadPath how,
                            const strata_reader::RecordTable* records) {
    return readStrataBytes(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), name,
                           options, nullptr, how, records ? *records : RecordTable::standard());
}

} // namespace strata

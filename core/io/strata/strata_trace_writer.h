#pragma once
// Writes a .strata file incrementally (layout: io/strata/strata_format.h and, record by record,
// io/strata/strata_records.h; docs/strata-format.md).
//
// The CUPTI collector links this writer (kernels/collector), so it depends on nothing but the
// standard library and the model headers' plain structs (DeviceInfo, GpuActivity, SliceKind,
// TimeNs). Records accumulate in the current chunk (slices as per-thread and per-stream column
// blocks, io/strata_block_buffer.h); flush() closes it (length + CRC32C), writes
// it in one fwrite and fflush()es, so a crash or kill -9 loses at most what came after the last
// flush. The collector calls flush() every ~200 ms; the writer also flushes by itself when a
// chunk reaches autoFlushBytes() so memory stays bounded.
//
// Internally synchronized by one (timed) mutex: every member may be called from any thread. Calls
// before open() or after close() are ignored (and return 0 / false where they return).
#include "io/strata/strata_block_buffer.h"
#include "io/strata/strata_file_create.h"
#include "io/strata/strata_records.h"
#include "io/strata/strata_sample_buffer.h"
#include "model/run_info.h"
#include "model/slice_kind.h"
#include "model/time.h"
#include "model/trace.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace strata {

class StrataTraceWriter {
public:
    StrataTraceWriter() = default;
    ~StrataTraceWriter(); // close()s an open file
    StrataTraceWriter(const StrataTraceWriter&) = delete;
    StrataTraceWriter& operator=(const StrataTraceWriter&) = delete;

    // Creates the file as `mode` says (io/strata/strata_file_create.h: a recording's file is
    // made Exclusive, or ReplaceFinished for --force; Truncate for files nobody else writes) and
    // writes its header. The writer holds an exclusive flock on it from its creation until
    // close(), so the launcher and --force can tell a file still being written.
    bool open(const std::string& path, std::string* error, CreateMode mode = CreateMode::Truncate);
    // Writes on `fd`, a file the caller made (util/output_file.h's temporary: a synthetic trace
    // written whole, then renamed): the writer takes a descriptor of its own; `path` names it.
    bool openOn(int fd, const std::string& path, std::string* error);
    // Continues an existing .strata file open at `fd` (the writer takes a descriptor of its own;
    // `path` names it in errors): cuts it to `keepBytes` (a damaged tail) and appends chunks
    // numbered from `nextSequence`; close() then writes no end-of-file record. The file's string
    // ids are unknown to the writer: only records without strings may be written (run(),
    // warning()). For io/strata/strata_append.h, which finds those two numbers.
    bool openAppend(int fd, const std::string& path, uint64_t keepBytes, uint32_t nextSequence,
                    std::string* error);
    uint32_t string(std::string_view s); // interned; the string record is emitted once
    void metadata(std::string_view key, std::string_view value);
    void process(int64_t pid, std::string_view name);
    void thread(int64_t pid, int64_t tid, std::string_view name);
    void device(const DeviceInfo& d);
    // CPU side. kind: CudaRuntime / CudaDriver (API calls), UserAnnotation (NVTX), ...
    void cpuSlice(int64_t pid, int64_t tid, TimeNs start, TimeNs end, uint32_t name, SliceKind kind,
                  int64_t correlation, int32_t returnCode);
    // `count` CPU slices of one thread under one lock (the Python agent's calls, by thousands).
    void cpuSlices(int64_t pid, int64_t tid, const format::CpuSliceRow* rows, size_t count);
    void cpuBegin(int64_t pid, int64_t tid, TimeNs ts, uint32_t name, SliceKind kind); // NVTX push
    void cpuEnd(int64_t pid, int64_t tid, TimeNs ts);                                  // NVTX pop
    void asyncSlice(int64_t pid, uint64_t id, TimeNs start, TimeNs end, uint32_t name);
    void instant(int64_t pid, int64_t tid, TimeNs ts, uint32_t name); // NVTX marks
    void nameColor(uint32_t name, uint32_t argb); // the colour of the slices named `name`
    // GPU side: kernels, memcpy, memset, sync, cuda events (kind).
    void gpuOp(TimeNs start, TimeNs end, uint32_t name, SliceKind kind, const GpuActivity& gpu,
               int64_t correlation);
    void counter(int64_t pid, uint32_t name, TimeNs ts, double value);
    // Sampled stacks (Callsite and StackSampleBlock records, docs/strata-format.md).
    // A frame of sampled stacks: callsite `id` (1, 2, 3, ... chosen by the caller, each id
    // written once, before any sample or callsite that names it) is the frame named `frame` (a
    // string id from string()) called from callsite `parent` (0: the frame is a stack's root,
    // its outermost frame).
    void callsite(uint32_t id, uint32_t parent, uint32_t frame);
    // The same under the next id this writer hands out (1, 2, ...), returned: for writers whose
    // callsites come from more than one source (the collector's Python and native samplers).
    // Not to be mixed with callsite() in one file.
    uint32_t newCallsite(uint32_t parent, uint32_t frame);
    // One sampled stack of thread (pid, tid) at `ts`: `callsite` is its innermost frame (0: the
    // thread had no frame when sampled). kind: 0 = a Python stack, 1 = a native stack. Kept
    // per thread as a block until the chunk is flushed.
    void stackSample(int64_t pid, int64_t tid, TimeNs ts, uint32_t callsite, uint8_t kind);
    void warning(std::string_view text);
    void run(const RunInfo& run); // what was run (a Run record, model/run_info.h)
    // In-kernel sections of one launch: `count` 48-byte device records (model/kernel_sections.h),
    // written as Sections records of at most kSectionRecordsPerRecord records each.
    struct SectionsLaunch {
        int64_t correlation = -1;
        std::string_view kernel;
        std::vector<std::string_view> names;
        int32_t device = -1;
        uint8_t scope = 0;
        double clockHz = 0;
        uint64_t attempted = 0;
        const uint8_t* records = nullptr;
        size_t count = 0;
    };
    static constexpr size_t kSectionRecordsPerRecord = 16384; // 768 KiB
    void sections(const SectionsLaunch& launch);
    // The metrics measured on one kernel launch (a KernelMetrics record): `names` are the metric
    // names joined by '\n' (interned once), `values` one per name (NaN: not measured).
    void kernelMetrics(int64_t correlation, int32_t device, std::string_view kernel,
                       std::string_view names, const double* values, size_t count);
    bool flush(); // closes the current chunk (length + CRC), writes it, fflush
    bool close(); // flush + end-of-file record
    // close() (after a warning record and a Run record, if given) unless another thread holds
    // the writer for longer than `timeout`: then nothing is written and false returned. For a
    // thread that must not wait on one that may never run again (the collector's fatal-signal
    // path).
    bool closeWithin(std::chrono::milliseconds timeout, std::string_view warning,
                     const RunInfo* run = nullptr);
    uint64_t bytesWritten() const;
    // In a forked child that never writes this file: closes the child's copy of its descriptor
    // (the flock is shared with the parent's) without writing, flushing or locking anything.
    void abandonInForkedChild();

    // Additions to the contract.
    bool isOpen() const;
    uint32_t chunksWritten() const;
    uint64_t recordsWritten() const; // records in chunks already written
    std::string lastError() const;   // why the last open/flush/close failed
    // The current chunk is flushed when its payload reaches this size (default 1 MiB).
    void setAutoFlushBytes(size_t bytes);
    size_t autoFlushBytes() const;

    // Writes one record of a type declared as those of io/strata/strata_records.h, as it is:
    // for a type no call above writes (a test's own type). Its string ids come from string().
    template <typename Record> void writeRecord(const Record& r) {
        std::lock_guard lock(mutex_);
        if (file_) writeLocked(r);
    }

private:
    mutable std::timed_mutex mutex_;
    std::FILE* file_ = nullptr;
    std::string path_;
    std::string error_;
    std::vector<uint8_t> chunk_; // header space + payload of the chunk being filled
    uint32_t chunkRecords_ = 0;
    uint32_t sequence_ = 0;
    uint64_t bytesWritten_ = 0;
    uint64_t recordsWritten_ = 0;
    size_t autoFlushBytes_ = 1u << 20;
    bool failed_ = false;    // a write failed: later records are dropped
    bool appending_ = false; // opened by openAppend: no strings, no end-of-file record
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const noexcept {
            return std::hash<std::string_view>{}(s);
        }
    };
    std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>> strings_;
    StrataBlockBuffer blocks_;   // slices not in chunk_ yet
    StrataSampleBuffer samples_; // stack samples not in chunk_ yet
    uint32_t nextString_ = 1;
    uint32_t nextCallsite_ = 1;

    bool startOnLocked(int fd, const std::string& path, std::string* error);
    bool startLocked(std::FILE* f, const std::string& path, uint64_t bytes, uint32_t sequence,
                     bool appending);
    uint32_t internLocked(std::string_view s);
    uint8_t* beginRecord(uint8_t type, uint32_t bodyBytes);
    // Appends a record to the chunk (its layout from strata_records.h); writeLocked also counts
    // it and flushes a full chunk.
    template <typename Record> void appendLocked(const Record& r) {
        using Body = typename Record::Body;
        Body::write(beginRecord(uint8_t(Record::kType), Body::bytes(r)), r);
    }
    template <typename Record> void writeLocked(const Record& r) {
        appendLocked(r);
        endRecordLocked();
    }
    void endRecordLocked();
    void autoFlushLocked();
    bool flushLocked();
    bool closeLocked();
    void warningLocked(std::string_view text);
    void runLocked(const RunInfo& run);
};

} // namespace strata

// TraceSnapshot::read: a model file back into a Trace. Chunk 0's Model record sizes every array;
// then the other chunks are checked (CRC32C) and their parts copied into place on a few threads,
// each taking a run of chunks; every array must be filled exactly; the strings are interned in
// id order and every index is checked (TraceSnapshot::validate) before the trace is handed out.
#include "io/snapshot/snapshot_arrays.h"
#include "io/snapshot/trace_snapshot.h"
#include "io/strata/strata_chunks.h"
#include "io/strata/strata_format.h"
#include "io/strata/strata_slice_rows.h"
#include "util/input_file.h"
#include "util/phase_timer.h"

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <unordered_map>

namespace strata {
namespace {

namespace fmt = format;
using namespace snapshot;
using strata_reader::ChunkSpan;
using strata_reader::sprint;

uint64_t key(uint16_t id, uint32_t owner) {
    return uint64_t(id) << 32 | owner;
}

// Where the parts go: the model's arrays, the strings' two buffers and the GPU activities.
struct Targets {
    std::vector<TraceSnapshot::Array> arrays;
    std::unordered_map<uint64_t, size_t> slot; // (id, owner) -> index in arrays
    PodVector<GpuActivity>* gpu = nullptr;
    size_t gpuSlot = 0; // the GPU activities' tally slot: arrays.size()
};

// The pages of [p, p + n) mapped in one call rather than a fault per page (the file's pages are
// usually in the page cache: a second open); ignored where the kernel cannot.
void populate(const uint8_t* p, size_t n) {
#ifdef MADV_POPULATE_READ
    const auto page = uintptr_t(sysconf(_SC_PAGESIZE));
    const uintptr_t lo = uintptr_t(p) / page * page;
    madvise(reinterpret_cast<void*>(lo), uintptr_t(p) + n - lo, MADV_POPULATE_READ);
#else
    (void)p, (void)n;
#endif
}

// Large arrays backed by huge pages where the kernel allows it (transparent huge pages in
// "madvise" mode): a fault per 2 MiB instead of per 4 KiB as the parts are copied in.
void preferHugePages(uint8_t* p, size_t n) {
    constexpr uintptr_t kHuge = uintptr_t(2) << 20;
    if (n < 2 * kHuge) return;
    const uintptr_t lo = (uintptr_t(p) + kHuge - 1) / kHuge * kHuge;
    const uintptr_t hi = (uintptr_t(p) + n) / kHuge * kHuge;
    if (hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
}

// One worker's run of chunks: checks each, copies its parts, tallies the bytes per array.
struct Worker {
    const uint8_t* data;
    const Targets& targets;
    const std::function<void(size_t, size_t)>& release;
    std::vector<uint64_t> filled; // bytes per slot (arrays, then the GPU activities)
    std::string error;            // the first problem, with its chunk and byte offset
    uint32_t errorChunk = UINT32_MAX;
    uint32_t endOfFile = 0;

    std::string part(const uint8_t* body, uint32_t bytes) {
        if (bytes < kPartHeadBytes) return "a ModelPart record shorter than its head";
        uint16_t id;
        uint32_t owner;
        uint64_t offset;
        std::memcpy(&id, body, 2);
        std::memcpy(&owner, body + 2, 4);
        std::memcpy(&offset, body + 6, 8);
        const uint8_t* src = body + kPartHeadBytes;
        const size_t n = bytes - kPartHeadBytes;
        if (id == GpuActivities) {
            const size_t total = targets.gpu->size() * fmt::kGpuActivityBytes;
            if (offset % fmt::kGpuActivityBytes || n % fmt::kGpuActivityBytes || offset > total ||
                n > total - offset)
                return sprint("GPU activity part at byte %" PRIu64 " (%zu bytes) does not fit "
                              "the %zu activities",
                              offset, n, targets.gpu->size());
            GpuActivity* out = targets.gpu->data() + offset / fmt::kGpuActivityBytes;
            for (size_t i = 0; i < n / fmt::kGpuActivityBytes; ++i)
                out[i] = fmt::Codec<GpuActivity>::read(src + i * fmt::kGpuActivityBytes);
            filled[targets.gpuSlot] += n;
            return {};
        }
        const auto it = targets.slot.find(key(id, owner));
        if (it == targets.slot.end())
            return sprint("a part of array %u of owner %u, which the model does not have",
                          unsigned(id), unsigned(owner));
        const TraceSnapshot::Array& a = targets.arrays[it->second];
        if (offset > a.bytes() || n > a.bytes() - offset)
            return sprint("part of array %u of owner %u at byte %" PRIu64
                          " (%zu bytes) runs past its %zu bytes",
                          unsigned(id), unsigned(owner), offset, n, a.bytes());
        std::memcpy(a.data + offset, src, n);
        filled[it->second] += n;
        return {};
    }

    void run(const std::vector<ChunkSpan>& chunks, uint32_t first, uint32_t last) {
        for (uint32_t c = first; c < last && error.empty(); ++c) {
            populate(data + chunks[c].offset, chunks[c].end() - chunks[c].offset);
            std::string bad = strata_reader::checkChunk(data, chunks[c], c);
            if (bad.empty())
                bad = strata_reader::forEachRecord(
                    data, chunks[c], [&](fmt::RecordType type, const uint8_t* body, uint32_t n) {
                        if (type == fmt::RecordType::ModelPart) return part(body, n);
                        if (type == fmt::RecordType::EndOfFile) {
                            ++endOfFile;
                            return std::string();
                        }
                        return sprint("a record of type %u in a model file (only ModelPart "
                                      "records follow the Model record)",
                                      unsigned(type));
                    });
            if (!bad.empty()) {
                error = sprint("chunk %u at byte %zu: ", c, chunks[c].offset) + bad;
                errorChunk = c;
            }
            if (release) release(chunks[c].offset, chunks[c].end());
        }
    }
};

// The chunks cut into `n` runs of about equal bytes (chunk 0, the Model record's, excluded).
std::vector<uint32_t> splitChunks(const std::vector<ChunkSpan>& chunks, unsigned n) {
    size_t total = 0;
    for (size_t c = 1; c < chunks.size(); ++c) total += chunks[c].payload;
    std::vector<uint32_t> bounds{1};
    size_t acc = 0;
    for (uint32_t c = 1; c < chunks.size(); ++c) {
        acc += chunks[c].payload;
        if (bounds.size() < n && acc >= total / n * bounds.size()) bounds.push_back(c + 1);
    }
    while (bounds.size() <= n) bounds.push_back(uint32_t(chunks.size()));
    bounds.back() = uint32_t(chunks.size());
    return bounds;
}

} // namespace

bool TraceSnapshot::isSnapshot(const uint8_t* data, size_t size) {
    const size_t first = fmt::kFileHeaderBytes + fmt::kChunkHeaderBytes;
    return size > first && data[first] == uint8_t(fmt::RecordType::Model);
}

LoadResult TraceSnapshot::read(const uint8_t* data, size_t size, const std::string& path,
                               const LoadOptions& options,
                               const std::function<void(size_t, size_t)>& release) {
    LoadResult result;
    auto fail = [&](uint64_t offset, std::string message) {
        result.error = LoadError{path, offset, 0, "model file: " + std::move(message)};
        return result;
    };
    PhaseTimer phases;
    const strata_reader::ChunkScan scan = strata_reader::scanChunks(data, size);
    if (!scan.stopReason.empty())
        return fail(scan.stoppedAt, sprint("chunk %zu: ", scan.chunks.size()) + scan.stopReason);
    if (scan.chunks.empty()) return fail(fmt::kFileHeaderBytes, "no chunk");
    const ChunkSpan& head = scan.chunks[0];
    if (std::string bad = strata_reader::checkChunk(data, head, 0); !bad.empty())
        return fail(head.offset, "chunk 0: " + bad);
    std::string json;
    std::string bad = strata_reader::forEachRecord(
        data, head, [&](fmt::RecordType type, const uint8_t* body, uint32_t n) {
            if (type != fmt::RecordType::Model || n < 4 || !json.empty())
                return std::string("chunk 0 holds more than the Model record");
            uint32_t layout;
            std::memcpy(&layout, body, 4);
            if (layout != kLayoutVersion)
                return sprint("model layout %u (this build reads %u)", unsigned(layout),
                              unsigned(kLayoutVersion));
            json.assign(reinterpret_cast<const char*>(body + 4), n - 4);
            return std::string();
        });
    if (!bad.empty()) return fail(head.offset, bad);

    auto trace = std::make_shared<Trace>();
    Trace& t = *trace;
    SnapshotSource source;
    size_t stringCount = 0, stringBytes = 0;
    if (std::string why = applyHeader(json, size, t, &source, &stringCount, &stringBytes);
        !why.empty())
        return fail(head.offset, why);
    std::vector<uint32_t> lengths(stringCount);
    std::string text(stringBytes, '\0');
    Targets targets;
    targets.arrays = arrays(t);
    if (stringCount)
        targets.arrays.push_back(
            {StringLengths, 0, reinterpret_cast<uint8_t*>(lengths.data()), 4, stringCount});
    if (stringBytes)
        targets.arrays.push_back(
            {StringBytes, 0, reinterpret_cast<uint8_t*>(text.data()), 1, stringBytes});
    for (size_t i = 0; i < targets.arrays.size(); ++i)
        targets.slot[key(targets.arrays[i].id, targets.arrays[i].owner)] = i;
    targets.gpu = &t.gpu_;
    targets.gpuSlot = targets.arrays.size();
    for (const Array& a : targets.arrays) preferHugePages(a.data, a.bytes());
    preferHugePages(reinterpret_cast<uint8_t*>(t.gpu_.data()), t.gpu_.size() * sizeof(GpuActivity));
    phases.mark("model: header, sizes");

    const unsigned threads =
        options.oneThread ? 1 : std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
    const std::vector<uint32_t> runs = splitChunks(scan.chunks, threads);
    std::vector<Worker> workers(threads, Worker{data, targets, release, {}, {}, UINT32_MAX, 0});
    for (Worker& w : workers) w.filled.assign(targets.arrays.size() + 1, 0);
    {
        std::vector<std::jthread> pool;
        for (unsigned i = 1; i < threads; ++i)
            pool.emplace_back([&, i] { workers[i].run(scan.chunks, runs[i], runs[i + 1]); });
        workers[0].run(scan.chunks, runs[0], runs[1]);
    }
    phases.mark("model: parts");
    uint32_t endOfFile = 0;
    for (const Worker& w : workers) {
        if (!w.error.empty()) return fail(scan.chunks[w.errorChunk].offset, w.error);
        endOfFile += w.endOfFile;
    }
    if (endOfFile != 1)
        return fail(size, "the file does not end with its end-of-file record (cut short?)");
    for (size_t i = 0; i <= targets.arrays.size(); ++i) {
        uint64_t got = 0;
        for (const Worker& w : workers) got += w.filled[i];
        const bool gpu = i == targets.arrays.size();
        const size_t want =
            gpu ? t.gpu_.size() * fmt::kGpuActivityBytes : targets.arrays[i].bytes();
        if (got != want)
            return fail(size, sprint("array %u of owner %u: %" PRIu64 " of its %zu bytes present",
                                     unsigned(gpu ? uint16_t(GpuActivities) : targets.arrays[i].id),
                                     unsigned(gpu ? 0 : targets.arrays[i].owner), got, want));
    }
    size_t at = 0;
    for (size_t i = 0; i < stringCount; ++i) {
        if (lengths[i] > stringBytes - at) return fail(size, "string lengths run past their text");
        const StringId id = t.strings_.intern(std::string_view(text).substr(at, lengths[i]));
        if (id != i) return fail(size, sprint("string %zu repeats string %u", i, unsigned(id)));
        at += lengths[i];
    }
    phases.mark("model: strings");
    if (std::string why = validate(t, threads); !why.empty()) return fail(size, why);
    phases.mark("model: checked");
    if (options.progress) options.progress(1.0);
    result.trace = std::move(trace);
    return result;
}

std::optional<SnapshotSource> TraceSnapshot::sourceOf(const std::string& path, std::string* error) {
    std::string why;
    FileDescriptor file = openRegularFile(path, &why); // never a FIFO or a device
    if (!file.valid()) {
        *error = path + ": " + why;
        return std::nullopt;
    }
    const int fd = file.get();
    uint8_t head[fmt::kFileHeaderBytes + fmt::kChunkHeaderBytes + 1]; // to the first record's type
    std::optional<SnapshotSource> out;
    if (::pread(fd, head, sizeof head, 0) != ssize_t(sizeof head) ||
        std::memcmp(head, fmt::kMagic, 6) != 0 || !isSnapshot(head, sizeof head)) {
        *error = path + ": not a model file";
    } else {
        uint32_t payload;
        std::memcpy(&payload, head + fmt::kFileHeaderBytes + 8, 4);
        std::string chunk(fmt::kFileHeaderBytes + fmt::kChunkHeaderBytes +
                              std::min(payload, fmt::kMaxChunkPayload),
                          '\0');
        const auto* bytes = reinterpret_cast<const uint8_t*>(chunk.data());
        if (::pread(fd, chunk.data(), chunk.size(), 0) != ssize_t(chunk.size())) {
            *error = path + ": cut short in its first chunk";
        } else if (std::string bad = strata_reader::checkChunk(
                       bytes, ChunkSpan{fmt::kFileHeaderBytes, payload, 1}, 0);
                   !bad.empty()) {
            *error = path + ": " + bad;
        } else if (payload < fmt::kRecordHeaderBytes + 4) {
            *error = path + ": a Model record too short";
        } else {
            const size_t body =
                fmt::kFileHeaderBytes + fmt::kChunkHeaderBytes + fmt::kRecordHeaderBytes + 4;
            out = sourceFromHeader(chunk.substr(body), error);
            if (!out) *error = path + ": " + *error;
        }
    }
    return out;
}

} // namespace strata

// TraceSnapshot::read: a model file back into a Trace. Chunk 0's Model record sizes every array
// (its counts checked against each other and the file's size first); the parts' layout is checked
// (each array filled exactly once), then the chunks are checked (CRC32C) and their parts copied
// into place on a few threads (io/snapshot/snapshot_parts.h); the strings are interned in id order
// and every index and value is checked (TraceSnapshot::validate) before the trace is handed out.
#include "io/strata/model_file/snapshot_arrays.h"
#include "io/strata/model_file/snapshot_checks.h"
#include "io/strata/model_file/snapshot_parts.h"
#include "io/strata/model_file/trace_snapshot.h"
#include "io/strata/strata_chunks.h"
#include "io/strata/strata_format.h"
#include "util/input_file.h"
#include "util/phase_timer.h"

#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <fcntl.h>
#include <string_view>
#include <sys/mman.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <utility>

namespace strata {
namespace {

namespace fmt = format;
using namespace snapshot;
using strata_reader::ChunkSpan;
using strata_reader::sprint;

// Large arrays backed by huge pages where the kernel allows it (transparent huge pages in
// "madvise" mode): a fault per 2 MiB instead of per 4 KiB as the parts are copied in.
void preferHugePages(uint8_t* p, size_t n) {
    constexpr uintptr_t kHuge = uintptr_t(2) << 20;
    if (n < 2 * kHuge) return;
    const uintptr_t lo = (uintptr_t(p) + kHuge - 1) / kHuge * kHuge;
    const uintptr_t hi = (uintptr_t(p) + n) / kHuge * kHuge;
    if (hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
}

// Chunk 0's Model record: its JSON (read where it lies in the file), or why not.
std::string modelJson(const uint8_t* data, const ChunkSpan& head, std::string_view* json) {
    bool seen = false;
    return strata_reader::forEachRecord(
        data, head, [&](fmt::RecordType type, const uint8_t* body, uint32_t n) {
            if (type != fmt::RecordType::Model || n < 4 || std::exchange(seen, true))
                return std::string("chunk 0 holds more than the Model record");
            uint32_t layout;
            std::memcpy(&layout, body, 4);
            if (layout != kLayoutVersion)
                return sprint("model layout %u (this build reads %u)", unsigned(layout),
                              unsigned(kLayoutVersion));
            *json = std::string_view(reinterpret_cast<const char*>(body + 4), n - 4);
            return std::string();
        });
}

// The strings' lengths and text interned in id order: empty, or what is wrong.
std::string internStrings(const std::vector<uint32_t>& lengths, std::string_view text,
                          StringPool& pool) {
    size_t at = 0;
    for (size_t i = 0; i < lengths.size(); ++i) {
        if (lengths[i] > text.size() - at)
            return sprint("string %zu: its length runs past the strings' text", i);
        const StringId id = pool.intern(text.substr(at, lengths[i]));
        if (id != i) return sprint("string %zu repeats string %u", i, unsigned(id));
        at += lengths[i];
    }
    if (at != text.size())
        return sprint("the string lengths add up to %zu of the strings' %zu bytes", at,
                      text.size());
    return {};
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
    std::string_view json;
    if (std::string bad = modelJson(data, head, &json); !bad.empty()) return fail(head.offset, bad);

    auto trace = std::make_shared<Trace>();
    Trace& t = *trace;
    SnapshotSource source;
    size_t stringCount = 0, stringBytes = 0;
    if (std::string why =
            applyHeader(json, size - head.end(), t, &source, &stringCount, &stringBytes);
        !why.empty())
        return fail(head.offset, "chunk 0 at byte " + std::to_string(head.offset) + ": " + why);
    std::vector<uint32_t> lengths(stringCount);
    std::string text(stringBytes, '\0');
    std::vector<Array> plain = arrays(t);
    if (stringCount)
        plain.push_back(
            {StringLengths, 0, reinterpret_cast<uint8_t*>(lengths.data()), 4, stringCount});
    if (stringBytes)
        plain.push_back({StringBytes, 0, reinterpret_cast<uint8_t*>(text.data()), 1, stringBytes});
    for (const Array& a : plain) preferHugePages(a.data, a.bytes());
    preferHugePages(reinterpret_cast<uint8_t*>(t.gpu_.data()), t.gpu_.size() * sizeof(GpuActivity));
    const PartTargets targets(std::move(plain), &t.gpu_);
    phases.mark("model: header, sizes");

    if (const PartsProblem p = checkLayout(data, scan.chunks, targets); !p.ok())
        return fail(p.offset, p.message);
    phases.mark("model: layout");
    const unsigned threads =
        options.oneThread ? 1 : std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
    if (const PartsProblem p = copyParts(data, scan.chunks, targets, threads, release); !p.ok())
        return fail(p.offset, p.message);
    phases.mark("model: parts");
    if (std::string bad = internStrings(lengths, text, t.strings_); !bad.empty())
        return fail(size, bad);
    phases.mark("model: strings");
    if (const Problem p = validate(t, threads); !p.ok()) {
        if (p.array == 0)
            return fail(head.offset, sprint("chunk 0 at byte %zu: ", head.offset) + p.what);
        const size_t slot = targets.slotOf(p.array, p.owner);
        const auto [at, chunk] = slot == SIZE_MAX
                                     ? std::pair<size_t, uint32_t>{size, 0}
                                     : locate(data, scan.chunks, targets, slot,
                                              p.element * targets.arrays()[slot].elementBytes);
        return fail(at, sprint("chunk %u at byte %zu: ", unsigned(chunk), at) +
                            describeArray(p.array, p.owner) +
                            sprint(", element %" PRIu64 ": ", p.element) + p.what);
    }
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

// The ModelPart records of a model file: their layout checked, then copied into place.
#include "io/strata/model_file/snapshot_parts.h"
#include "io/strata/model_file/snapshot_arrays.h"
#include "io/strata/strata_format.h"
#include "io/strata/strata_slice_rows.h"

#include <cinttypes>
#include <cstring>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>

namespace strata::snapshot {
namespace {

namespace fmt = format;
using strata_reader::ChunkSpan;
using strata_reader::sprint;

uint64_t key(uint16_t id, uint32_t owner) {
    return uint64_t(id) << 32 | owner;
}

// A ModelPart body's head.
struct PartHead {
    uint16_t id;
    uint32_t owner;
    uint64_t offset;
    const uint8_t* bytes;
    size_t n;
};

PartHead readHead(const uint8_t* body, uint32_t size) {
    PartHead h;
    std::memcpy(&h.id, body, 2);
    std::memcpy(&h.owner, body + 2, 4);
    std::memcpy(&h.offset, body + 6, 8);
    h.bytes = body + kPartHeadBytes;
    h.n = size - kPartHeadBytes;
    return h;
}

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

// The next part of each array, in file order.
class Layout {
public:
    explicit Layout(const PartTargets& targets)
        : targets_(targets), next_(targets.arrays().size(), 0) {}

    std::string record(fmt::RecordType type, const uint8_t* body, uint32_t n) {
        if (ended_) return "a record after the end-of-file record";
        if (type == fmt::RecordType::EndOfFile) {
            ended_ = true;
            return {};
        }
        if (type != fmt::RecordType::ModelPart)
            return sprint("a record of type %u in a model file (only ModelPart records follow "
                          "the Model record)",
                          unsigned(type));
        if (n < kPartHeadBytes) return "a ModelPart record shorter than its head";
        const PartHead h = readHead(body, n);
        const size_t slot = targets_.slotOf(h.id, h.owner);
        if (slot == SIZE_MAX)
            return sprint("a part of array %u of owner %u, which the model does not have",
                          unsigned(h.id), unsigned(h.owner));
        const TraceSnapshot::Array& a = targets_.arrays()[slot];
        const uint64_t want = next_[slot];
        if (h.n == 0) return describeArray(h.id, h.owner) + ": an empty part";
        if (h.offset != want)
            return describeArray(h.id, h.owner) +
                   sprint(": a part at byte %" PRIu64 " where byte %" PRIu64
                          " comes next (%s; an array's parts follow one another, each byte once)",
                          h.offset, want,
                          h.offset < want ? "it overlaps the part before" : "bytes left out");
        if (h.n > a.bytes() - want)
            return describeArray(h.id, h.owner) + sprint(": a part of %zu bytes at byte %" PRIu64
                                                         " runs past its %zu bytes",
                                                         h.n, h.offset, a.bytes());
        if (h.id == GpuActivities && h.n % fmt::kGpuActivityBytes)
            return describeArray(h.id, h.owner) +
                   sprint(": a part of %zu bytes, not whole %u-byte activities", h.n,
                          unsigned(fmt::kGpuActivityBytes));
        next_[slot] += h.n;
        return {};
    }
    bool ended() const { return ended_; }
    // The first array not filled to its end: its slot, or SIZE_MAX.
    size_t unfilled() const {
        for (size_t s = 0; s < next_.size(); ++s)
            if (next_[s] != targets_.arrays()[s].bytes()) return s;
        return SIZE_MAX;
    }
    uint64_t filled(size_t slot) const { return next_[slot]; }

private:
    const PartTargets& targets_;
    std::vector<uint64_t> next_; // bytes filled so far, per slot
    bool ended_ = false;
};

// One worker's run of chunks: checks each, copies its parts.
struct Worker {
    const uint8_t* data;
    const PartTargets& targets;
    const std::function<void(size_t, size_t)>& release;
    PartsProblem problem;

    std::string part(const uint8_t* body, uint32_t n) {
        // The layout was checked: a part that no longer fits is a file changed meanwhile.
        if (n < kPartHeadBytes) return "a ModelPart record shorter than its head";
        const PartHead h = readHead(body, n);
        const size_t slot = targets.slotOf(h.id, h.owner);
        if (slot == SIZE_MAX || h.offset > targets.arrays()[slot].bytes() ||
            h.n > targets.arrays()[slot].bytes() - h.offset)
            return "a part that does not fit (the file changed while read?)";
        targets.copy(slot, h.offset, h.bytes, h.n);
        return {};
    }

    void run(const std::vector<ChunkSpan>& chunks, uint32_t first, uint32_t last) {
        for (uint32_t c = first; c < last && problem.ok(); ++c) {
            populate(data + chunks[c].offset, chunks[c].end() - chunks[c].offset);
            std::string bad = strata_reader::checkChunk(data, chunks[c], c);
            if (bad.empty())
                bad = strata_reader::forEachRecord(
                    data, chunks[c], [&](fmt::RecordType type, const uint8_t* body, uint32_t n) {
                        return type == fmt::RecordType::ModelPart ? part(body, n) : std::string();
                    });
            if (!bad.empty())
                problem = {sprint("chunk %u at byte %zu: ", c, chunks[c].offset) + bad,
                           chunks[c].offset};
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

PartTargets::PartTargets(std::vector<TraceSnapshot::Array> arrays, PodVector<GpuActivity>* gpu)
    : arrays_(std::move(arrays)), gpu_(gpu) {
    if (gpu_->size())
        arrays_.push_back({GpuActivities, 0, nullptr, fmt::kGpuActivityBytes, gpu_->size()});
    slot_.reserve(arrays_.size());
    for (size_t i = 0; i < arrays_.size(); ++i) slot_[key(arrays_[i].id, arrays_[i].owner)] = i;
}

size_t PartTargets::slotOf(uint16_t id, uint32_t owner) const {
    const auto it = slot_.find(key(id, owner));
    return it == slot_.end() ? SIZE_MAX : it->second;
}

void PartTargets::copy(size_t slot, uint64_t offset, const uint8_t* src, size_t n) const {
    const TraceSnapshot::Array& a = arrays_[slot];
    if (a.data) {
        std::memcpy(a.data + offset, src, n);
        return;
    }
    GpuActivity* out = gpu_->data() + offset / fmt::kGpuActivityBytes;
    for (size_t i = 0; i < n / fmt::kGpuActivityBytes; ++i)
        out[i] = fmt::Codec<GpuActivity>::read(src + i * fmt::kGpuActivityBytes);
}

PartsProblem checkLayout(const uint8_t* data, const std::vector<ChunkSpan>& chunks,
                         const PartTargets& targets) {
    Layout layout(targets);
    for (uint32_t c = 1; c < chunks.size(); ++c) {
        std::string bad = layout.ended() ? "a chunk after the end-of-file record" : "";
        if (bad.empty())
            bad = strata_reader::forEachRecord(
                data, chunks[c], [&](fmt::RecordType type, const uint8_t* body, uint32_t n) {
                    return layout.record(type, body, n);
                });
        if (bad.empty()) continue;
        // A damaged chunk says so rather than what its damage looks like.
        if (std::string crc = strata_reader::checkChunk(data, chunks[c], c); !crc.empty())
            bad = std::move(crc);
        return {sprint("chunk %u at byte %zu: ", c, chunks[c].offset) + bad, chunks[c].offset};
    }
    const size_t end = chunks.empty() ? 0 : chunks.back().end();
    const std::string atEnd =
        sprint("at the file's end (byte %zu, after chunk %zu): ", end, chunks.size() - 1);
    if (!layout.ended()) return {atEnd + "no end-of-file record (cut short?)", end};
    if (const size_t s = layout.unfilled(); s != SIZE_MAX) {
        const TraceSnapshot::Array& a = targets.arrays()[s];
        return {atEnd + describeArray(a.id, a.owner) +
                    sprint(": %" PRIu64 " of its %zu bytes present (a part missing)",
                           layout.filled(s), a.bytes()),
                end};
    }
    return {};
}

PartsProblem copyParts(const uint8_t* data, const std::vector<ChunkSpan>& chunks,
                       const PartTargets& targets, unsigned threads,
                       const std::function<void(size_t, size_t)>& release) {
    threads = std::max(threads, 1u);
    const std::vector<uint32_t> runs = splitChunks(chunks, threads);
    std::vector<Worker> workers(threads, Worker{data, targets, release, {}});
    {
        std::vector<std::jthread> pool;
        for (unsigned i = 1; i < threads; ++i)
            pool.emplace_back([&, i] { workers[i].run(chunks, runs[i], runs[i + 1]); });
        workers[0].run(chunks, runs[0], runs[1]);
    }
    for (const Worker& w : workers)
        if (!w.problem.ok()) return w.problem;
    return {};
}

std::pair<size_t, uint32_t> locate(const uint8_t* data, const std::vector<ChunkSpan>& chunks,
                                   const PartTargets& targets, size_t slot, uint64_t at) {
    const TraceSnapshot::Array& want = targets.arrays()[slot];
    for (uint32_t c = 1; c < chunks.size(); ++c) {
        size_t found = 0;
        strata_reader::forEachRecord(
            data, chunks[c], [&](fmt::RecordType type, const uint8_t* body, uint32_t n) {
                if (type != fmt::RecordType::ModelPart || n < kPartHeadBytes) return std::string();
                const PartHead h = readHead(body, n);
                if (h.id == want.id && h.owner == want.owner && at >= h.offset &&
                    at - h.offset < h.n)
                    found = size_t(h.bytes - data) + size_t(at - h.offset);
                return std::string(found ? "found" : "");
            });
        if (found) return {found, c};
    }
    return {0, 0};
}

} // namespace strata::snapshot

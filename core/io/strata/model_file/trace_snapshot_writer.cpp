// TraceSnapshot::write: a model as a .strata 1.5 file — the header, one chunk holding the Model
// record, then chunks of ModelPart records (each array cut to kPartBytes pieces), each chunk
// with its length and CRC32C as in every .strata file (io/strata/strata_format.h). The same model
// gives the same bytes.
#include "io/strata/model_file/snapshot_arrays.h"
#include "io/strata/model_file/trace_snapshot.h"
#include "io/strata/strata_crc32c.h"
#include "io/strata/strata_format.h"
#include "io/strata/strata_records.h"
#include "io/strata/strata_slice_rows.h"
#include "util/output_file.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace strata {
namespace {

namespace fmt = format;
using namespace snapshot;

// Chunks of records into a FILE: records are appended to the chunk being filled, which is
// written (header, CRC) when the next record would take it past kChunkTarget.
class ChunkOut {
public:
    static constexpr size_t kChunkTarget = 2 * kPartBytes;
    explicit ChunkOut(std::FILE* f) : file_(f) { chunk_.reserve(kChunkTarget + 64); }

    // A record of `type` whose body is `head` then `tail`.
    void record(fmt::RecordType type, const void* head, size_t headBytes, const void* tail,
                size_t tailBytes) {
        const size_t body = headBytes + tailBytes;
        if (records_ > 0 && payload() + fmt::kRecordHeaderBytes + body > kChunkTarget) flush();
        const uint8_t t = uint8_t(type);
        const auto bytes = uint32_t(body);
        append(&t, 1);
        append(&bytes, 4);
        append(head, headBytes);
        append(tail, tailBytes);
        ++records_;
    }
    // Room for a record body of `bytes` in the chunk (for parts encoded in place).
    uint8_t* recordInPlace(fmt::RecordType type, size_t bytes) {
        if (records_ > 0 && payload() + fmt::kRecordHeaderBytes + bytes > kChunkTarget) flush();
        const uint8_t t = uint8_t(type);
        const auto b = uint32_t(bytes);
        append(&t, 1);
        append(&b, 4);
        const size_t at = chunk_.size();
        chunk_.resize(at + bytes);
        ++records_;
        return chunk_.data() + at;
    }
    void flush() {
        if (records_ == 0 || failed_) return;
        uint8_t header[fmt::kChunkHeaderBytes];
        const uint32_t fields[4] = {fmt::kChunkMagic, sequence_++, uint32_t(payload()), records_};
        std::memcpy(header, fields, 16);
        const uint32_t crc = crc32c(crc32c(0, header, 16), chunk_.data(), chunk_.size());
        std::memcpy(header + 16, &crc, 4);
        failed_ = std::fwrite(header, 1, sizeof header, file_) != sizeof header ||
                  std::fwrite(chunk_.data(), 1, chunk_.size(), file_) != chunk_.size();
        chunk_.clear();
        records_ = 0;
    }
    bool failed() const { return failed_; }

private:
    std::FILE* file_;
    std::vector<uint8_t> chunk_; // the payload being filled
    uint32_t records_ = 0;
    uint32_t sequence_ = 0;
    bool failed_ = false;
    size_t payload() const { return chunk_.size(); }
    void append(const void* p, size_t n) {
        const auto* b = static_cast<const uint8_t*>(p);
        chunk_.insert(chunk_.end(), b, b + n);
    }
};

void partHead(uint8_t* head, uint16_t id, uint32_t owner, uint64_t offset) {
    std::memcpy(head, &id, 2);
    std::memcpy(head + 2, &owner, 4);
    std::memcpy(head + 6, &offset, 8);
}

// One array, cut into parts.
void writeArray(ChunkOut& out, uint16_t id, uint32_t owner, const uint8_t* data, size_t bytes) {
    for (size_t at = 0; at < bytes; at += kPartBytes) {
        uint8_t head[kPartHeadBytes];
        partHead(head, id, owner, at);
        out.record(fmt::RecordType::ModelPart, head, sizeof head, data + at,
                   std::min(kPartBytes, bytes - at));
    }
}

// An id index's places, those past each id's count (never set: whatever the memory held) written
// as SliceRef{} so that the file holds no stray bytes and the same model gives the same file.
void writePlaces(ChunkOut& out, uint16_t id, const IdIndex& x) {
    const size_t slots = x.densePlaces.size();
    constexpr size_t kPerPart = kPartBytes / sizeof(SliceRef);
    std::vector<SliceRef> part;
    for (size_t first = 0; first < slots; first += kPerPart) {
        const size_t n = std::min(kPerPart, slots - first);
        part.assign(x.densePlaces.begin() + first, x.densePlaces.begin() + first + n);
        for (size_t k = 0; k < n; ++k) {
            const uint8_t set = x.denseCount[(first + k) / x.places];
            if (set == IdIndex::kListed || (first + k) % x.places >= set) part[k] = SliceRef{};
        }
        uint8_t head[kPartHeadBytes];
        partHead(head, id, 0, first * sizeof(SliceRef));
        out.record(fmt::RecordType::ModelPart, head, sizeof head, part.data(),
                   n * sizeof(SliceRef));
    }
}

} // namespace

std::string TraceSnapshot::write(const Trace& trace, const std::string& path,
                                 const SnapshotSource& source, const OutputOptions& output) {
    std::string error;
    const std::unique_ptr<OutputFile> file = OutputFile::open(path, &error, output);
    if (!file) return error;
    std::FILE* f = file->stream();
    uint8_t fileHeader[fmt::kFileHeaderBytes];
    std::memcpy(fileHeader, fmt::kMagic, 6);
    fileHeader[6] = fmt::kVersionMajor;
    fileHeader[7] = fmt::kVersionMinor;
    bool failed = std::fwrite(fileHeader, 1, sizeof fileHeader, f) != sizeof fileHeader;

    ChunkOut out(f);
    const std::string json = headerJson(trace, source);
    if (json.size() + 4 > fmt::kMaxChunkPayload - 64) {
        return "the model's header (" + std::to_string(json.size()) +
               " bytes of JSON: tracks, processes, metadata, warnings) is too large for a chunk";
    }
    const uint32_t layout = kLayoutVersion;
    out.record(fmt::RecordType::Model, &layout, 4, json.data(), json.size());
    out.flush(); // the Model record alone in chunk 0: sourceOf() reads only that

    const StringPool& strings = trace.strings();
    std::vector<uint32_t> lengths(strings.size());
    std::string text;
    for (size_t i = 0; i < strings.size(); ++i) {
        const std::string_view s = strings.view(StringId(i));
        lengths[i] = uint32_t(s.size());
        text.append(s);
    }
    writeArray(out, StringLengths, 0, reinterpret_cast<const uint8_t*>(lengths.data()),
               lengths.size() * 4);
    writeArray(out, StringBytes, 0, reinterpret_cast<const uint8_t*>(text.data()), text.size());
    std::string().swap(text);

    // GPU activities through their codec (GpuActivity has padding).
    const PodVector<GpuActivity>& gpu = trace.gpuActivities();
    constexpr size_t kPerPart = kPartBytes / fmt::kGpuActivityBytes;
    for (size_t first = 0; first < gpu.size(); first += kPerPart) {
        const size_t n = std::min(kPerPart, gpu.size() - first);
        uint8_t* body = out.recordInPlace(fmt::RecordType::ModelPart,
                                          kPartHeadBytes + n * fmt::kGpuActivityBytes);
        partHead(body, GpuActivities, 0, first * fmt::kGpuActivityBytes);
        uint8_t* p = body + kPartHeadBytes;
        for (size_t i = 0; i < n; ++i, p += fmt::kGpuActivityBytes)
            fmt::Codec<GpuActivity>::write(p, gpu[first + i]);
    }

    for (const Array& a : arrays(const_cast<Trace&>(trace))) { // only read here
        if (a.id == CorrelationDensePlaces || a.id == ExternalDensePlaces)
            writePlaces(out, a.id,
                        a.id == CorrelationDensePlaces ? trace.correlationIndex_
                                                       : trace.externalIndex_);
        else
            writeArray(out, a.id, a.owner, a.data, a.bytes());
    }
    out.record(fmt::RecordType::EndOfFile, nullptr, 0, nullptr, 0);
    out.flush();
    if (failed || out.failed()) return path + ": cannot write: " + std::strerror(errno);
    if (!file->commit(&error)) return error;
    return {};
}

} // namespace strata

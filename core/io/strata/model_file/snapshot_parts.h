#pragma once
// The ModelPart records of a model file (io/snapshot/trace_snapshot.h) into the arrays its Model
// record sized. Their layout is checked first, before a byte is copied: each array's parts follow
// one another in file order from its byte 0 to its last, so every element is filled exactly once
// (an overlapping, missing or repeated part is an error naming the array, the chunk and the byte,
// not memory left unwritten); nothing but ModelPart records, then one EndOfFile record, the
// file's last. Then the parts are copied on a few threads, each chunk's CRC checked as it comes.
// Internal to io/snapshot.
#include "io/strata/model_file/trace_snapshot.h"
#include "io/strata/strata_chunks.h"
#include "model/trace.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace strata::snapshot {

// Where the parts go: the model's plain arrays, the strings' two buffers and the GPU activities
// (an entry with no data and 83-byte elements: they go through their codec into `gpu`).
class PartTargets {
public:
    PartTargets(std::vector<TraceSnapshot::Array> arrays, PodVector<GpuActivity>* gpu);
    const std::vector<TraceSnapshot::Array>& arrays() const { return arrays_; }
    // The index in arrays() of (id, owner), or SIZE_MAX when the model has no such array.
    size_t slotOf(uint16_t id, uint32_t owner) const;
    // Copies `n` bytes of a part to byte `offset` of array `slot` (the layout checked).
    void copy(size_t slot, uint64_t offset, const uint8_t* src, size_t n) const;

private:
    std::vector<TraceSnapshot::Array> arrays_;
    std::unordered_map<uint64_t, size_t> slot_; // (id, owner) -> index in arrays_
    PodVector<GpuActivity>* gpu_;
};

// A problem and the byte offset of the file it is at (empty: none).
struct PartsProblem {
    std::string message; // starting with the chunk and its byte offset where there is one
    size_t offset = 0;
    bool ok() const { return message.empty(); }
};

// The layout of chunks 1.. (chunk 0 holds the Model record), checked before anything is copied.
PartsProblem checkLayout(const uint8_t* data, const std::vector<strata_reader::ChunkSpan>& chunks,
                         const PartTargets& targets);

// Every part copied into place on `threads` threads, each taking a run of chunks and checking
// each chunk's CRC32C; `release(from, to)`, when given, drops each chunk's pages once copied.
PartsProblem copyParts(const uint8_t* data, const std::vector<strata_reader::ChunkSpan>& chunks,
                       const PartTargets& targets, unsigned threads,
                       const std::function<void(size_t, size_t)>& release);

// Where byte `at` of array `slot` lies in the file (the layout checked): its offset and the index
// of its chunk; {0, 0} when no part holds it.
std::pair<size_t, uint32_t> locate(const uint8_t* data,
                                   const std::vector<strata_reader::ChunkSpan>& chunks,
                                   const PartTargets& targets, size_t slot, uint64_t at);

} // namespace strata::snapshot

#pragma once
// A whole model written as a .strata file and read back exactly as it was (format 1.5: a Model
// record, then ModelPart records; docs/strata-format.md "Model files"): what `strata-cli
// convert` writes and the trace cache keeps (io/cache/trace_cache.h). Reading one copies its
// columns into place: no parse, no nesting, no index to build.
//
// The arrays are written as they lie in memory on a 64-bit little-endian machine (the element
// types have no padding; GpuActivity, which has, goes through its 83-byte codec). A file is all
// or nothing: a damaged chunk, a Model record whose sizes the file's bytes cannot hold, parts that
// overlap or leave bytes out, an index out of range or a value no build makes (a start out of
// order, a duration past the trace, a parent that does not enclose) is an error naming the chunk
// and its byte offset (and the array and element), not a partial trace (the cache then reads the
// original again).
#include "io/cache/file_stamp.h"
#include "io/load_result.h"
#include "util/output_file.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

namespace snapshot {
struct Problem; // io/snapshot/snapshot_checks.h
}

class TraceSnapshot {
public:
    // Writes `trace` to `path` as util/output_file.h says (through a temporary file beside it
    // renamed when complete: a reader never sees half a file; a device written into, never
    // replaced). Returns empty, or why it could not.
    static std::string write(const Trace& trace, const std::string& path,
                             const SnapshotSource& source = {}, const OutputOptions& output = {});
    // Whether .strata bytes (header included) start with a Model record.
    static bool isSnapshot(const uint8_t* data, size_t size);
    // Reads the bytes of a file write() wrote (mapped by the caller; `path` names it in errors).
    // `release(from, to)`, when given, drops the mapped pages of bytes [from, to) once copied
    // (the model then is what stays resident, not the file as well).
    static LoadResult read(const uint8_t* data, size_t size, const std::string& path,
                           const LoadOptions& options,
                           const std::function<void(size_t, size_t)>& release = {});
    // The source a snapshot file names (reads its first chunk only); nullopt with `error` set
    // when the file is not a readable snapshot.
    static std::optional<SnapshotSource> sourceOf(const std::string& path, std::string* error);

    // One array of the model as the file holds it (ids: io/snapshot/snapshot_arrays.h).
    struct Array {
        uint16_t id = 0;
        uint32_t owner = 0; // the track (or section set) it belongs to; 0 for the trace's own
        uint8_t* data = nullptr;
        size_t elementBytes = 0;
        size_t count = 0;
        size_t bytes() const { return elementBytes * count; }
    };

private:
    // Every plain array of `trace` (sized already), in file order: the columns of each track,
    // the extras, External ids, args, flows and their indices, the id indices, the section
    // samples. GpuActivity and the strings are written apart.
    static std::vector<Array> arrays(Trace& trace);
    static std::string headerJson(const Trace& trace, const SnapshotSource& source);
    // Sizes `trace` as the Model record's JSON says and fills its small parts; refused before
    // anything is allocated when its counts disagree or its arrays would take more than the
    // `partBytes` the file holds after the Model record's chunk.
    static std::string applyHeader(std::string_view json, size_t partBytes, Trace& trace,
                                   SnapshotSource* source, size_t* stringCount,
                                   size_t* stringBytes);
    // The model read checked whole (io/snapshot/snapshot_checks.h).
    static snapshot::Problem validate(const Trace& trace, unsigned threads);
};

} // namespace strata

#pragma once
// What a trace file is now: the trace cache's key (io/cache/trace_cache.h) and what a model file
// records of its source (io/snapshot/trace_snapshot.h).
//
// Path, size and modification time alone do not tell a file rewritten in place: a same-size
// rewrite with its mtime put back (`cp -p`, `touch -d`, a coarse file system) keeps all three.
// So the stamp also holds what a rewrite cannot keep: the status-change time (set by the kernel
// on every write, truncation, rename onto the path or chmod; no call sets it back), the file's
// identity (device and inode: a new run moved onto the path is another file) and a hash of its
// first and last MiB (a file carried from elsewhere).
#include <cstdint>
#include <optional>
#include <string>

namespace strata {

struct SnapshotSource {
    std::string path; // absolute
    uint64_t size = 0;
    int64_t mtimeNs = 0;
    std::string format; // the reader that read it (LoadResult::format)
    int64_t ctimeNs = 0;
    uint64_t device = 0, inode = 0;
    uint64_t contentHash = 0; // of the first and the last MiB (FNV-1a, 64 bits)
    friend bool operator==(const SnapshotSource&, const SnapshotSource&) = default;
    // The same file, unchanged (every field but the format).
    bool sameFile(const SnapshotSource& o) const;
};

// The stamp of `path` now (format empty), or nullopt and *error when it is not a regular file
// that can be read.
std::optional<SnapshotSource> stampFile(const std::string& path, std::string* error = nullptr);

} // namespace strata

#pragma once
// The trace cache: the model of a large JSON trace kept as a model file (io/snapshot) in the
// user's cache, so that opening the trace again reads that instead of parsing the JSON.
//
// An entry is named by a hash of the trace's stamp (io/cache/file_stamp.h: absolute path, size,
// modification and status-change times, device and inode, a hash of its first and last MiB) and
// the model file's format version, and holds the stamp to be checked on open: a file changed in
// any way a rewrite can change it, or a newer Strata, finds no entry and the old one ages out.
// A trace is stamped before and after it is read, and kept only when the two agree: a file
// replaced while it loads is never cached under the new file's stamp.
//
// The folder is private: made 0700, used only when it is a folder of this user's that no one
// else can write (the fallback in /tmp not even through a link); entries are this user's regular
// files, created exclusively under fresh names (util/output_file.h) and renamed into place, so
// readers and other Strata processes never see half an entry and nothing planted is followed.
// The folder is bounded in total size; the least recently used entries go first (an entry's
// modification time is set each time it is used). Only files named as entries are ever removed.
#include "io/load_result.h"
#include "io/strata/model_file/trace_snapshot.h"

#include <cstdint>
#include <optional>
#include <string>

namespace strata {

struct TraceCacheSettings {
    bool enabled = true;
    std::string directory;                      // empty: defaultDirectory()
    uint64_t maxBytes = uint64_t(20) << 30;     // the folder's bound (20 GiB)
    uint64_t minFileBytes = uint64_t(64) << 20; // smaller traces load fast enough as they are
    // $XDG_CACHE_HOME/strata, or ~/.cache/strata; with neither, /tmp/strata-cache-<uid>.
    static std::string defaultDirectory();
    // The defaults, with minFileBytes from STRATA_CACHE_MIN_BYTES when it is set (tests, trials).
    static TraceCacheSettings fromEnvironment();
};

class TraceCache {
public:
    explicit TraceCache(TraceCacheSettings settings = {});
    const TraceCacheSettings& settings() const { return settings_; }
    std::string directory() const;

    // What a trace file is now (io/cache/file_stamp.h: stampFile), or nullopt when it is not a
    // regular file that can be read.
    static std::optional<SnapshotSource> stamp(const std::string& path);
    // The folder made ready for entries: created (0700) when absent; then it must be a folder
    // owned by this user that no one else can write (one it made with a wider mode is narrowed),
    // and in a folder anyone may write to (/tmp, the fallback) not a link. Empty, or why the
    // cache is not used.
    std::string prepareDirectory() const;
    // Whether `path` is a trace the cache is for: enabled, a file of at least minFileBytes that a
    // reader the cache keeps() recognises (not a .strata file: those load at the speed of the
    // cache already), read without options that change what a reader makes of it (the section
    // names and clock of a timer array).
    bool wants(const std::string& path, const LoadOptions& options = {}) const;
    // Whether a trace read by this reader (LoadResult::format) is kept: Chrome JSON, plain or
    // gzip'd, the format whose parse the cache saves.
    static bool keeps(const std::string& format);
    // The entry of `path` as it is now, when there is a valid one: the model loaded (its
    // cacheFile set) and the entry marked used. Not ok() when there is none; a damaged entry is
    // removed.
    LoadResult open(const std::string& path, const LoadOptions& options = {}) const;
    // The trace of `path`: from its entry when wants() and there is one (cacheFile set), else
    // read from the file — stamped before and after the read, and when the cache wants the file,
    // the read worked and the two stamps agree, the result's cacheSource is the stamp to store()
    // it under. The one way the CLI and the window read a trace through the cache.
    LoadResult load(const std::string& path, const LoadOptions& options = {}) const;
    // Writes the entry of `path` (whose current stamp is `source`, format set) from `trace`,
    // then evicts down to maxBytes. Takes as long as writing the model: call it off the GUI
    // thread. Returns empty, or why not.
    std::string store(const SnapshotSource& source, const Trace& trace) const;
    // The entry's file name for a trace stamp.
    std::string entryPath(const SnapshotSource& source) const;
    // Removes the least recently used entries until the folder holds at most maxBytes (and
    // unfinished entries over an hour old). Returns the bytes removed.
    uint64_t evict() const;
    uint64_t totalBytes() const; // of the entries
    size_t entryCount() const;
    // Removes every entry. Returns empty, or why not.
    std::string clear() const;

private:
    TraceCacheSettings settings_;
};

// TraceCache::load, then the entry written before returning when the result may be kept (its
// cacheSource; *storeError says why it could not be, when given) — for strata-cli --cache; the
// GUI writes in the background instead.
LoadResult loadTraceCached(const std::string& path, const TraceCache& cache,
                           const LoadOptions& options = {}, std::string* storeError = nullptr);

} // namespace strata

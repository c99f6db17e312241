#include "io/cache/trace_cache.h"
#include "io/strata/strata_format.h"
#include "io/trace_loader.h"
#include "io/trace_reader.h"
#include "util/input_file.h"
#include "util/output_file.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace strata {
namespace {

namespace fs = std::filesystem;

uint64_t fnv1a(std::string_view s, uint64_t h = 1469598103934665603ull) {
    for (unsigned char c : s) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

struct Entry {
    fs::path path;
    uint64_t bytes = 0;
    int64_t usedNs = 0; // its modification time: set each time it is used
};

int64_t nanoseconds(const timespec& t) {
    return int64_t(t.tv_sec) * 1000000000 + t.tv_nsec;
}

// Whether `name` is one the cache gives an entry: 16 hex digits and ".strata"; or, with
// `partial`, such a name's temporary (util/output_file.h: ".partial-" and six characters).
bool entryName(std::string_view name, bool partial) {
    if (name.size() < 23 || !std::all_of(name.begin(), name.begin() + 16, [](char c) {
            return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
        }))
        return false;
    name.remove_prefix(16);
    if (!partial) return name == ".strata";
    return name.size() == 7 + 9 + 6 && name.starts_with(".strata.partial-");
}

// The folder's entries and unfinished ones apart: this user's regular files named as entries,
// nothing else (the folder is the user's, but a file of another name is not the cache's to
// remove).
void listEntries(const std::string& dir, std::vector<Entry>* entries, std::vector<Entry>* parts) {
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
        const std::string name = e.path().filename().string();
        const bool entry = entryName(name, false);
        if (!entry && !(parts && entryName(name, true))) continue;
        struct stat st {};
        if (::lstat(e.path().c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid())
            continue;
        (entry ? entries : parts)
            ->push_back(Entry{e.path(), uint64_t(st.st_size), nanoseconds(st.st_mtim)});
    }
}

} // namespace

std::string TraceCacheSettings::defaultDirectory() {
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x == '/')
        return std::string(x) + "/strata";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.cache/strata";
    return "/tmp/strata-cache-" + std::to_string(getuid());
}

TraceCacheSettings TraceCacheSettings::fromEnvironment() {
    TraceCacheSettings s;
    const char* min = std::getenv("STRATA_CACHE_MIN_BYTES");
    char* end = nullptr;
    if (min && *min) {
        const unsigned long long v = std::strtoull(min, &end, 10);
        if (end && *end == '\0') s.minFileBytes = v;
    }
    return s;
}

TraceCache::TraceCache(TraceCacheSettings settings) : settings_(std::move(settings)) {}

std::string TraceCache::directory() const {
    return settings_.directory.empty() ? TraceCacheSettings::defaultDirectory()
                                       : settings_.directory;
}

std::optional<SnapshotSource> TraceCache::stamp(const std::string& path) {
    return stampFile(path);
}

std::string TraceCache::prepareDirectory() const {
    const std::string dir = directory();
    std::error_code ec;
    fs::create_directories(fs::path(dir).parent_path(), ec);
    // In a folder anyone may write to (/tmp, the fallback), another user could have put a link
    // or a folder of theirs under the name first: there the name itself must be this user's
    // folder, not a link to one.
    struct stat parent {};
    const bool shared = ::stat(fs::path(dir).parent_path().c_str(), &parent) == 0 &&
                        (parent.st_mode & S_ISVTX) && (parent.st_mode & S_IWOTH);
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
        return "cannot create the cache folder " + dir + ": " + std::strerror(errno);
    struct stat st {};
    if ((shared ? ::lstat(dir.c_str(), &st) : ::stat(dir.c_str(), &st)) != 0)
        return "cannot use the cache folder " + dir + ": " + std::strerror(errno);
    if (!S_ISDIR(st.st_mode))
        return "the cache folder " + dir + " is " + fileKindName(st.st_mode) + ", not a folder";
    if (st.st_uid != ::geteuid())
        return "the cache folder " + dir + " belongs to another user (uid " +
               std::to_string(st.st_uid) + "): not used";
    if ((st.st_mode & 077) != 0 && ::chmod(dir.c_str(), 0700) != 0)
        return "the cache folder " + dir +
               " is open to other users and cannot be made private: " + std::strerror(errno);
    return {};
}

bool TraceCache::keeps(const std::string& format) {
    return format.rfind("chrome-json", 0) == 0;
}

bool TraceCache::wants(const std::string& path, const LoadOptions& options) const {
    if (!settings_.enabled || !options.sectionNames.empty() || options.clockHz > 0) return false;
    std::string error;
    struct stat st {};
    if (!openRegularFile(path, &error, &st).valid() ||
        uint64_t(st.st_size) < settings_.minFileBytes)
        return false;
    const TraceReader* reader = recogniseFile(path); // by its first bytes, as loadTrace does
    return reader && keeps(std::string(reader->name));
}

std::string TraceCache::entryPath(const SnapshotSource& s) const {
    std::string key = s.path;
    for (const uint64_t v :
         {s.size, uint64_t(s.mtimeNs), uint64_t(s.ctimeNs), s.device, s.inode, s.contentHash})
        key += '\0' + std::to_string(v);
    key +=
        '\0' + std::to_string(format::kVersionMajor) + '.' + std::to_string(format::kVersionMinor);
    char name[32];
    std::snprintf(name, sizeof name, "%016llx.strata", (unsigned long long)fnv1a(key));
    return directory() + "/" + name;
}

LoadResult TraceCache::open(const std::string& path, const LoadOptions& options) const {
    LoadResult none;
    if (!settings_.enabled || !prepareDirectory().empty()) return none;
    const auto now = stamp(path);
    if (!now) return none;
    const std::string entry = entryPath(*now);
    // Only this user's regular file is an entry (nothing else is opened, nor removed).
    struct stat st {};
    if (::lstat(entry.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid())
        return none;
    std::string error;
    const auto named = TraceSnapshot::sourceOf(entry, &error);
    if (!named) {
        std::remove(entry.c_str()); // damaged
        return none;
    }
    if (!named->sameFile(*now)) return none; // another trace's entry under the same hash
    LoadResult r = readStrataTrace(entry, options);
    if (!r.ok()) {
        std::remove(entry.c_str());
        return none;
    }
    r.format = named->format;
    r.cacheFile = entry;
    std::error_code ec;
    fs::last_write_time(entry, fs::file_time_type::clock::now(), ec); // most recently used
    return r;
}

LoadResult TraceCache::load(const std::string& path, const LoadOptions& options) const {
    if (!wants(path, options)) return loadTrace(path, options);
    LoadResult cached = open(path, options);
    if (cached.ok()) return cached;
    const auto before = stamp(path);
    LoadResult r = loadTrace(path, options);
    if (!r.ok() || !before || !keeps(r.format)) return r;
    // Kept only when the file is what it was when the read began: a trace replaced or rewritten
    // while it loaded is not stored under either stamp.
    const auto after = stamp(path);
    if (after && after->sameFile(*before)) {
        r.cacheSource = *before;
        r.cacheSource->format = r.format;
    }
    return r;
}

std::string TraceCache::store(const SnapshotSource& source, const Trace& trace) const {
    if (std::string error = prepareDirectory(); !error.empty()) return error;
    OutputOptions entry;
    entry.named = false; // a name the cache made: never followed, never written into
    entry.mode = 0600;
    std::string error = TraceSnapshot::write(trace, entryPath(source), source, entry);
    evict();
    return error;
}

uint64_t TraceCache::evict() const {
    std::vector<Entry> entries, parts;
    listEntries(directory(), &entries, &parts);
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.usedNs > b.usedNs; });
    uint64_t kept = 0, removed = 0;
    std::error_code ec;
    for (const Entry& e : entries) {
        if (kept + e.bytes <= settings_.maxBytes) {
            kept += e.bytes;
        } else if (fs::remove(e.path, ec)) {
            removed += e.bytes;
        }
    }
    timespec now{};
    ::clock_gettime(CLOCK_REALTIME, &now);
    const int64_t hourAgo = nanoseconds(now) - int64_t(3600) * 1000000000;
    for (const Entry& p : parts)
        if (p.usedNs < hourAgo && fs::remove(p.path, ec)) removed += p.bytes;
    return removed;
}

uint64_t TraceCache::totalBytes() const {
    std::vector<Entry> entries;
    listEntries(directory(), &entries, nullptr);
    uint64_t total = 0;
    for (const Entry& e : entries) total += e.bytes;
    return total;
}

size_t TraceCache::entryCount() const {
    std::vector<Entry> entries;
    listEntries(directory(), &entries, nullptr);
    return entries.size();
}

std::string TraceCache::clear() const {
    std::vector<Entry> entries, parts;
    listEntries(directory(), &entries, &parts);
    std::string error;
    for (const auto* list : {&entries, &parts})
        for (const Entry& e : *list) {
            std::error_code ec;
            if (!fs::remove(e.path, ec) && ec && error.empty())
                error = "cannot remove " + e.path.string() + ": " + ec.message();
        }
    return error;
}

LoadResult loadTraceCached(const std::string& path, const TraceCache& cache,
                           const LoadOptions& options, std::string* storeError) {
    LoadResult r = cache.load(path, options);
    if (r.ok() && r.cacheSource) {
        std::string error = cache.store(*r.cacheSource, *r.trace);
        if (storeError) *storeError = std::move(error);
    }
    return r;
}

} // namespace strata

#include "io/cache/trace_cache.h"
#include "io/strata/strata_format.h"
#include "io/trace_loader.h"
#include "io/trace_reader.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
    fs::file_time_type used;
};

// The folder's entries (*.strata) and unfinished ones (*.strata.part-PID) apart.
void listEntries(const std::string& dir, std::vector<Entry>* entries, std::vector<Entry>* parts) {
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
        std::error_code ignored;
        if (!e.is_regular_file(ignored)) continue;
        const std::string name = e.path().filename().string();
        Entry x{e.path(), e.file_size(ignored), e.last_write_time(ignored)};
        if (name.size() > 7 && name.ends_with(".strata"))
            entries->push_back(std::move(x));
        else if (parts && name.find(".strata.part-") != std::string::npos)
            parts->push_back(std::move(x));
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
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
    std::error_code ec;
    const fs::path absolute = fs::absolute(path, ec);
    SnapshotSource s;
    s.path = ec ? path : absolute.lexically_normal().string();
    s.size = uint64_t(st.st_size);
    s.mtimeNs = int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    return s;
}

bool TraceCache::keeps(const std::string& format) {
    return format.rfind("chrome-json", 0) == 0;
}

bool TraceCache::wants(const std::string& path, const LoadOptions& options) const {
    if (!settings_.enabled || !options.sectionNames.empty() || options.clockHz > 0) return false;
    const auto s = stamp(path);
    if (!s || s->size < settings_.minFileBytes) return false;
    const TraceReader* reader = recogniseFile(path); // by its first bytes, as loadTrace does
    return reader && keeps(std::string(reader->name));
}

std::string TraceCache::entryPath(const SnapshotSource& s) const {
    std::string key = s.path;
    key += '\0' + std::to_string(s.size) + '\0' + std::to_string(s.mtimeNs) + '\0' +
           std::to_string(format::kVersionMajor) + '.' + std::to_string(format::kVersionMinor);
    char name[32];
    std::snprintf(name, sizeof name, "%016llx.strata", (unsigned long long)fnv1a(key));
    return directory() + "/" + name;
}

LoadResult TraceCache::open(const std::string& path, const LoadOptions& options) const {
    LoadResult none;
    if (!settings_.enabled) return none;
    const auto now = stamp(path);
    if (!now) return none;
    const std::string entry = entryPath(*now);
    std::string error;
    const auto named = TraceSnapshot::sourceOf(entry, &error);
    if (!named) {
        if (::access(entry.c_str(), F_OK) == 0) std::remove(entry.c_str()); // damaged
        return none;
    }
    if (named->path != now->path || named->size != now->size || named->mtimeNs != now->mtimeNs)
        return none; // another trace's entry under the same hash: left alone
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

std::string TraceCache::store(const SnapshotSource& source, const Trace& trace) const {
    std::error_code ec;
    fs::create_directories(directory(), ec);
    if (ec) return "cannot create the cache folder " + directory() + ": " + ec.message();
    std::string error = TraceSnapshot::write(trace, entryPath(source), source);
    evict();
    return error;
}

uint64_t TraceCache::evict() const {
    std::vector<Entry> entries, parts;
    listEntries(directory(), &entries, &parts);
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.used > b.used; });
    uint64_t kept = 0, removed = 0;
    std::error_code ec;
    for (const Entry& e : entries) {
        if (kept + e.bytes <= settings_.maxBytes) {
            kept += e.bytes;
        } else if (fs::remove(e.path, ec)) {
            removed += e.bytes;
        }
    }
    const auto hourAgo = fs::file_time_type::clock::now() - std::chrono::hours(1);
    for (const Entry& p : parts)
        if (p.used < hourAgo && fs::remove(p.path, ec)) removed += p.bytes;
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
                           const LoadOptions& options) {
    if (!cache.wants(path, options)) return loadTrace(path, options);
    LoadResult cached = cache.open(path, options);
    if (cached.ok()) return cached;
    const auto source = TraceCache::stamp(path);
    LoadResult r = loadTrace(path, options);
    if (r.ok() && source && TraceCache::keeps(r.format)) {
        SnapshotSource s = *source;
        s.format = r.format;
        cache.store(s, *r.trace);
    }
    return r;
}

} // namespace strata

#include "io/sections/sections_import.h"

#include "io/sections/sections_file_format.h"
#include "io/trace_reader.h"
#include "model/build/trace_builder.h"
#include "util/input_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace strata {

namespace {

template <typename T> bool take(std::string_view b, size_t& at, T* v) {
    if (b.size() - at < sizeof(T)) return false;
    std::memcpy(v, b.data() + at, sizeof(T));
    at += sizeof(T);
    return true;
}

bool takeString(std::string_view b, size_t& at, std::string* s) {
    uint32_t n;
    if (!take(b, at, &n) || b.size() - at < n) return false;
    s->assign(b.data() + at, n);
    at += n;
    return true;
}

} // namespace

namespace {

// One launch block at b[at] into *set (at moves past it); what is wrong with it otherwise.
std::string parseLaunchBlock(std::string_view b, size_t& at, const SectionsImportOptions& o,
                             SectionSet* set, size_t* bad) {
    using namespace sections_file;
    if (b.size() - at < sizeof kMagic || std::memcmp(b.data() + at, kMagic, sizeof kMagic) != 0)
        return "has no STRSECT1 magic (not a Strata sections file, or damaged)";
    at += sizeof kMagic;
    Header h;
    if (!take(b, at, &h.version) || !take(b, at, &h.correlation) || !take(b, at, &h.device) ||
        !take(b, at, &h.scope) || !take(b, at, &h.clockHz) || !take(b, at, &h.attempted) ||
        !take(b, at, &h.records))
        return "is cut short (header)";
    if (h.version != kVersion)
        return "has version " + std::to_string(h.version) + "; this Strata reads version " +
               std::to_string(kVersion);
    uint32_t nameCount;
    if (!takeString(b, at, &set->kernel) || !take(b, at, &nameCount)) return "is cut short (names)";
    if (nameCount > 65535) return "is cut short (section count past 65535)";
    for (uint32_t i = 0; i < nameCount; ++i) {
        std::string n;
        if (!takeString(b, at, &n)) return "is cut short (names)";
        set->names.push_back(std::move(n));
    }
    if (h.records > (b.size() - at) / kSectionRecordBytes) return "is cut short (records)";
    appendSectionRecords(*set, reinterpret_cast<const uint8_t*>(b.data() + at), h.records, bad);
    at += h.records * kSectionRecordBytes;
    set->correlation = h.correlation;
    set->device = h.device;
    set->perWarp = h.scope == 1;
    set->clockHz = o.clockHz > 0 ? o.clockHz : h.clockHz;
    set->lost = h.attempted > h.records ? h.attempted - h.records : 0;
    if (!o.names.empty()) set->names = o.names;
    return {};
}

} // namespace

SectionsImport parseSectionsFile(const std::string& path, std::string_view b,
                                 const SectionsImportOptions& o) {
    SectionsImport r;
    size_t at = 0;
    while (at < b.size()) {
        const size_t blockAt = at;
        SectionSet set;
        size_t bad = 0;
        const std::string what = parseLaunchBlock(b, at, o, &set, &bad);
        if (!what.empty()) {
            const std::string where =
                path + ": launch block at byte " + std::to_string(blockAt) + " " + what;
            if (r.sets.empty()) { // nothing complete before it: the file is not readable
                SectionsImport e;
                e.error = where;
                return e;
            }
            // A torn last block (the helper killed while appending) or bytes after the last
            // block: the complete launches before it are kept, the tail is named.
            r.warnings.push_back(
                where + "; the damaged tail (" + std::to_string(b.size() - blockAt) +
                " bytes from byte " + std::to_string(blockAt) + ") was skipped, the " +
                std::to_string(r.sets.size()) + " complete launch(es) before it are kept");
            break;
        }
        if (bad)
            r.warnings.push_back(path + ": launch block at byte " + std::to_string(blockAt) + ": " +
                                 std::to_string(bad) + " records end before they start; skipped");
        set.source = path;
        finishSectionSet(set);
        r.sets.push_back(std::move(set));
    }
    if (r.sets.empty()) r.error = path + ": the file is empty (no launch blocks)";
    return r;
}

LoadResult loadSectionsFile(const std::string& path, const LoadOptions& options,
                            SectionsParser parse) {
    LoadResult result;
    std::string bytes, error;
    if (!readRegularFile(path, &bytes, &error, UINT64_MAX)) {
        result.error = LoadError{path, 0, 0, error};
        return result;
    }
    SectionsImportOptions o;
    o.names = options.sectionNames;
    o.clockHz = options.clockHz;
    SectionsImport r = parse(path, bytes, o);
    if (!r.ok()) {
        // The parsers name the file first; the load error names it itself.
        std::string message = r.error;
        if (message.rfind(path + ": ", 0) == 0) message.erase(0, path.size() + 2);
        result.error = LoadError{path, LoadError::kInMessage, 0, message};
        return result;
    }
    TraceBuilder builder;
    for (const std::string& w : r.warnings) builder.addWarning(w);
    for (SectionSet& s : r.sets) {
        if (s.lost)
            builder.addWarning(path + ": " + s.kernel + ": " + std::to_string(s.lost) +
                               " records lost: the device buffer was full");
        builder.addSectionSet(std::move(s));
    }
    result.trace = builder.build();
    return result;
}

SectionsImport importSections(const std::string& path, const SectionsImportOptions& o) {
    SectionsImport r;
    std::string error;
    const TraceReader* reader = recogniseFile(path, &error);
    if (!reader) {
        r.error = path + ": " + error;
        return r;
    }
    if (reader->kind != ReaderKind::Sections) {
        r.error = path +
                  ": not a sections file (a .npy, .csv or .json timer array, or a "
                  ".sections file) but " +
                  std::string(reader->description);
        return r;
    }
    LoadOptions lo;
    lo.sectionNames = o.names;
    lo.clockHz = o.clockHz;
    const LoadResult loaded = reader->load(path, lo);
    if (!loaded.ok()) {
        r.error = loaded.error ? path + ": " + loaded.error->message : path + ": cannot load";
        return r;
    }
    r.sets = loaded.trace->sections();
    r.warnings = loaded.trace->warnings();
    return r;
}

} // namespace strata

#include "io/sections/sections_import.h"

#include "io/sections/sections_file_format.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

namespace strata {

namespace {

std::string lowerExtension(const std::string& path) {
    const size_t dot = path.find_last_of('.');
    const size_t slash = path.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
    std::string e = path.substr(dot);
    std::transform(e.begin(), e.end(), e.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return e;
}

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

bool isSectionsFile(const std::string& path) {
    const std::string e = lowerExtension(path);
    return e == ".npy" || e == ".csv" || e == ".json" || e == sections_file::kExtension;
}

SectionsImport parseSectionsFile(const std::string& path, std::string_view b,
                                 const SectionsImportOptions& o) {
    using namespace sections_file;
    SectionsImport r;
    size_t at = 0;
    while (at < b.size()) {
        const size_t blockAt = at;
        auto cut = [&](const char* what) {
            SectionsImport e;
            e.error = path + ": launch block at byte " + std::to_string(blockAt) +
                      " is cut short (" + what + ")";
            return e;
        };
        if (b.size() - at < sizeof kMagic ||
            std::memcmp(b.data() + at, kMagic, sizeof kMagic) != 0) {
            SectionsImport e;
            e.error = path + ": no STRSECT1 magic at byte " + std::to_string(at) +
                      " (not a Strata sections file, or damaged)";
            return e;
        }
        at += sizeof kMagic;
        Header h;
        if (!take(b, at, &h.version) || !take(b, at, &h.correlation) || !take(b, at, &h.device) ||
            !take(b, at, &h.scope) || !take(b, at, &h.clockHz) || !take(b, at, &h.attempted) ||
            !take(b, at, &h.records))
            return cut("header");
        if (h.version != kVersion) {
            SectionsImport e;
            e.error = path + ": launch block at byte " + std::to_string(blockAt) + " has version " +
                      std::to_string(h.version) + "; this Strata reads version " +
                      std::to_string(kVersion);
            return e;
        }
        SectionSet set;
        uint32_t nameCount;
        if (!takeString(b, at, &set.kernel) || !take(b, at, &nameCount)) return cut("names");
        if (nameCount > 65535) return cut("section count past 65535");
        for (uint32_t i = 0; i < nameCount; ++i) {
            std::string n;
            if (!takeString(b, at, &n)) return cut("names");
            set.names.push_back(std::move(n));
        }
        if (h.records > (b.size() - at) / kSectionRecordBytes) return cut("records");
        size_t bad = 0;
        appendSectionRecords(set, reinterpret_cast<const uint8_t*>(b.data() + at), h.records, &bad);
        at += h.records * kSectionRecordBytes;
        if (bad)
            r.warnings.push_back(path + ": launch block at byte " + std::to_string(blockAt) + ": " +
                                 std::to_string(bad) + " records end before they start; skipped");
        set.correlation = h.correlation;
        set.device = h.device;
        set.perWarp = h.scope == 1;
        set.clockHz = o.clockHz > 0 ? o.clockHz : h.clockHz;
        set.lost = h.attempted > h.records ? h.attempted - h.records : 0;
        set.source = path;
        if (!o.names.empty()) set.names = o.names;
        finishSectionSet(set);
        r.sets.push_back(std::move(set));
    }
    if (r.sets.empty()) r.error = path + ": the file is empty (no launch blocks)";
    return r;
}

SectionsImport importSections(const std::string& path, const SectionsImportOptions& o) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        SectionsImport r;
        r.error = path + ": cannot open: " + std::strerror(errno);
        return r;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    const std::string bytes = ss.str();
    const std::string e = lowerExtension(path);
    SectionsImport r;
    if (e == ".npy")
        r = parseNpySections(path, bytes, o);
    else if (e == ".csv")
        r = parseCsvSections(path, bytes, o);
    else if (e == ".json")
        r = parseJsonSections(path, bytes, o);
    else if (e == sections_file::kExtension)
        r = parseSectionsFile(path, bytes, o);
    else
        r.error = path + ": not a sections file (.npy, .csv, .json or .sections)";
    for (const SectionSet& s : r.sets)
        if (s.lost)
            r.warnings.push_back(path + ": " + s.kernel + ": " + std::to_string(s.lost) +
                                 " records lost: the device buffer was full");
    return r;
}

} // namespace strata

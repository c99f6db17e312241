// Nsight Systems reports: the SQLite export (io/formats/nsys/nsys_export.h), recognised by its
// tables; a .nsys-rep / .qdrep report through the export the nsys on PATH makes of it
// (io/formats/nsys/nsys_report.h).
#include "io/formats/whole_file_load.h"
#include "io/trace_reader.h"
#ifdef STRATA_HAVE_SQLITE
#include "io/formats/nsys/nsys_export.h"
#include "io/formats/nsys/nsys_report.h"
#include "io/formats/sqlite/sqlite_load.h"
#endif

namespace strata {
namespace {

bool isReport(std::string_view path) {
    const std::string ext = lowerExtension(path);
    return ext == ".nsys-rep" || ext == ".qdrep";
}

#ifdef STRATA_HAVE_SQLITE

bool isNsysExport(const SqliteDb& db) {
    return db.hasTable("EXPORT_META_DATA") || db.hasTable("META_DATA_EXPORT") ||
           (db.hasTable("StringIds") &&
            (db.hasTable("CUPTI_ACTIVITY_KIND_KERNEL") ||
             db.hasTable("CUPTI_ACTIVITY_KIND_RUNTIME") || db.hasTable("NVTX_EVENTS")));
}

Recognition recognise(std::string_view head, std::string_view path) {
    if (!isSqliteHeader(head)) return isReport(path) ? kByName : kNotMine;
    // Another SQLite file is ours by name only: opened, it is refused with what it lacks.
    return sqliteFileIs(head, path, isNsysExport) ? kByContent : kByName;
}

LoadResult loadExport(const std::string& path) {
    return loadSqliteTrace(path, [](SqliteDb& db, TraceBuilder& b, std::string* error) {
        return NsysExport(db, b).read(error);
    });
}

// A report: its SQLite export made by the nsys on PATH (io/formats/nsys/nsys_report.h), read,
// and said.
LoadResult loadReport(const std::string& path) {
    std::string error;
    const std::string sqlite = exportNsysReport(path, &error);
    if (sqlite.empty()) {
        LoadResult r;
        r.error = LoadError{path, LoadError::kInMessage, 0, error};
        return r;
    }
    LoadResult r = loadSqliteTrace(sqlite, [&](SqliteDb& db, TraceBuilder& b, std::string* e) {
        b.addWarning("Nsight report: read through its SQLite export, made by `nsys export` at " +
                     sqlite);
        return NsysExport(db, b).read(e);
    });
    if (r.error) r.error->file = path + " (its export " + sqlite + ")";
    return r;
}

LoadResult load(const std::string& path, const LoadOptions&) {
    return isReport(path) ? loadReport(path) : loadExport(path);
}

#else

Recognition recognise(std::string_view head, std::string_view path) {
    constexpr std::string_view kMagic("SQLite format 3\0", 16);
    return head.substr(0, kMagic.size()) == kMagic || isReport(path) ? kByName : kNotMine;
}

LoadResult load(const std::string& path, const LoadOptions&) {
    return builtWithout(path, "an Nsight Systems report or SQLite export", "SQLite",
                        "libsqlite3-dev");
}

#endif

} // namespace

extern const TraceReader kNsysSqliteReader{
    "nsys-sqlite",
    "Nsight Systems SQLite export",
    {".sqlite", ".nsys-rep", ".qdrep"},
    ReaderKind::Trace,
    recognise,
    load,
};

} // namespace strata

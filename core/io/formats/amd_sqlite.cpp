// AMD's SQLite profiles: rocprofv3's rocpd database (io/formats/amd/rocpd_file.h),
// rocmProfileData's .rpd (io/formats/amd/rpd_file.h) and the older rocprof's results.db
// (io/formats/amd/rocprof_results.h), each recognised by its tables.
#include "io/formats/whole_file_load.h"
#include "io/trace_reader.h"
#ifdef STRATA_HAVE_SQLITE
#include "io/formats/amd/rocpd_file.h"
#include "io/formats/amd/rocprof_results.h"
#include "io/formats/amd/rpd_file.h"
#include "io/formats/sqlite/sqlite_load.h"
#endif

namespace strata {
namespace {

#ifdef STRATA_HAVE_SQLITE

Recognition recogniseRocpd(std::string_view head, std::string_view path) {
    return sqliteFileIs(head, path, isRocpdFile) ? kByContent : kNotMine;
}
Recognition recogniseRpd(std::string_view head, std::string_view path) {
    return sqliteFileIs(head, path, isRpdFile) ? kByContent : kNotMine;
}
LoadResult loadRocpd(const std::string& path, const LoadOptions&) {
    return loadSqliteTrace(path, readRocpdFile);
}
LoadResult loadRpd(const std::string& path, const LoadOptions&) {
    return loadSqliteTrace(path, readRpdFile);
}
Recognition recogniseRocprof(std::string_view head, std::string_view path) {
    return sqliteFileIs(head, path, isRocprofResults) ? kByContent : kNotMine;
}
LoadResult loadRocprof(const std::string& path, const LoadOptions&) {
    return loadSqliteTrace(path, readRocprofResults);
}

#else

// Without SQLite these files go to the Nsight reader's "built without SQLite" message.
Recognition recogniseNone(std::string_view, std::string_view) {
    return kNotMine;
}
LoadResult loadNone(const std::string& path, const LoadOptions&) {
    return builtWithout(path, "an AMD SQLite profile", "SQLite", "libsqlite3-dev");
}
constexpr auto recogniseRocpd = recogniseNone;
constexpr auto recogniseRpd = recogniseNone;
constexpr auto loadRocpd = loadNone;
constexpr auto loadRpd = loadNone;
constexpr auto recogniseRocprof = recogniseNone;
constexpr auto loadRocprof = loadNone;

#endif

} // namespace

extern const TraceReader kRocpdReader{
    "rocpd",   "rocprofv3 rocpd database", {".db", ".rocpd"}, ReaderKind::Trace, recogniseRocpd,
    loadRocpd,
};

extern const TraceReader kRpdReader{
    "rpd", "rocmProfileData (.rpd)", {".rpd"}, ReaderKind::Trace, recogniseRpd, loadRpd,
};

extern const TraceReader kRocprofReader{
    "rocprof", "rocprof (v1) results.db", {".db"}, ReaderKind::Trace, recogniseRocprof, loadRocprof,
};

} // namespace strata

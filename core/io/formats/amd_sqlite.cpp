// AMD's SQLite profiles: rocprofv3's rocpd database (io/formats/amd/rocpd_file.h) and
// rocmProfileData's .rpd (io/formats/amd/rpd_file.h), each recognised by its tables.
#include "io/trace_reader.h"
#ifdef STRATA_HAVE_SQLITE
#include "io/formats/amd/rocpd_file.h"
#include "io/formats/amd/rpd_file.h"
#endif

namespace strata {
namespace {

#ifdef STRATA_HAVE_SQLITE

template <bool (*Is)(const SqliteDb&)>
Recognition recognise(std::string_view head, std::string_view path) {
    if (!isSqliteHeader(head)) return kNotMine;
    SqliteDb db;
    return db.open(std::string(path)) && Is(db) ? kByContent : kNotMine;
}

template <bool (*Read)(SqliteDb&, TraceBuilder&, std::string*)>
LoadResult load(const std::string& path, const LoadOptions&) {
    LoadResult r;
    SqliteDb db;
    if (!db.open(path)) {
        r.error = LoadError{path, 0, 0, "not a readable SQLite database: " + db.error()};
        return r;
    }
    TraceBuilder builder;
    std::string error;
    if (!Read(db, builder, &error)) {
        r.error = LoadError{path, LoadError::kInMessage, 0, error};
        return r;
    }
    r.trace = builder.build();
    return r;
}

constexpr auto recogniseRocpd = recognise<isRocpdFile>;
constexpr auto recogniseRpd = recognise<isRpdFile>;
constexpr auto loadRocpd = load<readRocpdFile>;
constexpr auto loadRpd = load<readRpdFile>;

#else

// Without SQLite these files go to the Nsight reader's "built without SQLite" message.
Recognition recogniseNone(std::string_view, std::string_view) {
    return kNotMine;
}
LoadResult loadNone(const std::string& path, const LoadOptions&) {
    LoadResult r;
    r.error = LoadError{path, 0, 0, "this Strata was built without SQLite"};
    return r;
}
constexpr auto recogniseRocpd = recogniseNone;
constexpr auto recogniseRpd = recogniseNone;
constexpr auto loadRocpd = loadNone;
constexpr auto loadRpd = loadNone;

#endif

} // namespace

extern const TraceReader kRocpdReader{
    "rocpd",   "rocprofv3 rocpd database", {".db", ".rocpd"}, ReaderKind::Trace, recogniseRocpd,
    loadRocpd,
};

extern const TraceReader kRpdReader{
    "rpd", "rocmProfileData (.rpd)", {".rpd"}, ReaderKind::Trace, recogniseRpd, loadRpd,
};

} // namespace strata

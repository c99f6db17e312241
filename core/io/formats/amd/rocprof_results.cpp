#include "io/formats/amd/rocprof_results.h"

#include "model/names/cupti_names.h"

#include <charconv>
#include <map>
#include <unordered_map>

namespace strata {

namespace {

// "... sizeBytes(33554432) ..." -> 33554432, else -1.
int64_t sizeBytes(std::string_view args) {
    const size_t at = args.find("sizeBytes(");
    int64_t v = -1;
    if (at != std::string_view::npos)
        std::from_chars(args.data() + at + 10, args.data() + args.size(), v);
    return v;
}

uint8_t copyKindOf(std::string_view name) {
    if (name == "CopyHostToDevice") return 1;
    if (name == "CopyDeviceToHost") return 2;
    if (name == "CopyDeviceToDevice") return 8;
    return 0;
}

class RocprofReader {
public:
    RocprofReader(SqliteDb& db, TraceBuilder& b) : db_(db), b_(b) {}

    void read() {
        readCalls();
        readGpu("OPS", SliceKind::Kernel, "kernel");
        readGpu("COPY", SliceKind::Memcpy, "gpu_memcpy");
        for (const auto& [why, n] : skipped_)
            b_.addWarning("rocprof: " + std::to_string(n) + " rows skipped (" + why + ")");
        warnNotShown();
    }

private:
    // rocprof's other tables with rows (HSA, KFD, ... calls): named, not read.
    void warnNotShown() {
        for (const std::string& t : db_.tables()) {
            if (t == "HIP" || t == "OPS" || t == "COPY" || t.starts_with("sqlite_")) continue;
            if (db_.hasRows(t)) b_.addWarning("rocprof: not shown by Strata: " + t);
        }
    }

    bool bad(const SqliteStatement& s) {
        if (!s.isNull(0) && !s.isNull(1) && s.integer(1) >= s.integer(0)) return false;
        ++skipped_["no BeginNs or EndNs, or an end before the start"];
        return true;
    }

    void readCalls() {
        if (!db_.hasTable("HIP")) return;
        const StringId category = b_.intern("cuda_runtime"), argsKey = b_.intern("args");
        SqliteStatement s =
            db_.prepare("SELECT BeginNs, EndNs, pid, tid, Name, args, \"Index\" FROM HIP");
        while (s.valid() && s.step()) {
            if (bad(s)) continue;
            const int64_t index = s.integer(6, -1);
            bytes_[index] = sizeBytes(s.text(5));
            SliceInput in;
            in.start = s.integer(0);
            in.dur = s.integer(1) - s.integer(0);
            in.name = b_.intern(s.text(4));
            in.category = category;
            in.kind = SliceKind::CudaRuntime;
            in.correlation = index;
            b_.args().begin();
            b_.args().addString(argsKey, s.text(5));
            in.args = b_.args().finish();
            b_.addSlice(b_.threadTrack(s.integer(2), s.integer(3)), in);
        }
        if (!s.error().empty()) b_.addWarning("rocprof: HIP read up to an error: " + s.error());
    }

    void readGpu(const std::string& table, SliceKind kind, const char* categoryName) {
        if (!db_.hasTable(table)) return;
        const StringId category = b_.intern(categoryName);
        SqliteStatement s = db_.prepare("SELECT BeginNs, EndNs, \"dev-id\", \"stream-id\", Name, "
                                        "\"Index\" FROM " +
                                        table);
        while (s.valid() && s.step()) {
            if (bad(s)) continue;
            GpuActivity a;
            a.device = int32_t(s.integer(2));
            a.stream = s.integer(3, 0);
            SliceInput in;
            in.start = s.integer(0);
            in.dur = s.integer(1) - s.integer(0);
            in.category = category;
            in.kind = kind;
            in.correlation = s.integer(5, -1);
            if (kind == SliceKind::Memcpy) {
                a.copyKind = copyKindOf(s.text(4));
                const auto b = bytes_.find(in.correlation);
                a.bytes = b != bytes_.end() ? b->second : -1;
                in.name = b_.intern(memcpyName(a.copyKind, 0, 0));
            } else {
                in.name = b_.intern(s.text(4));
            }
            in.gpu = &a;
            b_.addSlice(b_.gpuStreamTrack(a.device, a.stream, a.device, a.stream), in);
        }
        if (!s.error().empty())
            b_.addWarning("rocprof: " + table + " read up to an error: " + s.error());
    }

    SqliteDb& db_;
    TraceBuilder& b_;
    std::unordered_map<int64_t, int64_t> bytes_; // call Index -> sizeBytes
    std::map<std::string, uint64_t> skipped_;
};

} // namespace

bool isRocprofResults(const SqliteDb& db) {
    return (db.hasTable("OPS") || db.hasTable("HIP") || db.hasTable("COPY")) &&
           (db.columns("HIP").count("BeginNs") || db.columns("OPS").count("BeginNs") ||
            db.columns("COPY").count("BeginNs"));
}

bool readRocprofResults(SqliteDb& db, TraceBuilder& builder, std::string* error) {
    if (!isRocprofResults(db)) {
        *error = "not a rocprof results.db: no HIP, OPS or COPY table with BeginNs";
        return false;
    }
    RocprofReader(db, builder).read();
    return true;
}

} // namespace strata

#include "io/formats/amd/rpd_file.h"

#include "io/formats/amd/rocprofiler_names.h"

#include "io/formats/sqlite/string_table.h"
#include "model/names/cupti_names.h"
#include "model/names/track_names.h"

#include <map>
#include <unordered_map>

namespace strata {

namespace {

struct OpExtra {
    int64_t bytes = -1;
    std::array<int32_t, 3> grid{0, 0, 0};
    std::array<int32_t, 3> block{0, 0, 0};
};

class RpdReader {
public:
    RpdReader(SqliteDb& db, TraceBuilder& b) : db_(db), b_(b) {}
    void read() {
        strings_.load(db_, "SELECT id, string FROM rocpd_string", b_);
        readCalls();
        readLaunchDetails();
        readOps();
        readMonitor();
        for (const auto& [why, n] : skipped_)
            b_.addWarning("rpd: " + std::to_string(n) + " rows skipped (" + why + ")");
    }

private:
    void readCalls() {
        const StringId runtime = b_.intern("cuda_runtime"), overhead = b_.intern("overhead");
        const StringId marker = b_.intern("user_annotation");
        SqliteStatement s =
            db_.prepare("SELECT id, pid, tid, start, \"end\", apiName_id, args_id FROM rocpd_api");
        while (s.valid() && s.step()) {
            if (s.isNull(3) || s.isNull(4) || s.integer(4) < s.integer(3)) {
                ++skipped_["a call with no start or end, or an end before the start"];
                continue;
            }
            const std::string_view name = strings_.text(s.integer(5));
            SliceInput in;
            in.start = s.integer(3);
            in.dur = s.integer(4) - s.integer(3);
            in.correlation = s.integer(0);
            if (name == "UserMarker") {
                in.name = strings_.id(s.integer(6));
                in.kind = SliceKind::UserAnnotation;
                in.category = marker;
            } else {
                const bool ownWork = name.find("::writeRows") != std::string_view::npos ||
                                     name == "hcc_activity_callback";
                in.name = strings_.id(s.integer(5));
                in.kind = ownWork ? SliceKind::Overhead : SliceKind::CudaRuntime;
                in.category = ownWork ? overhead : runtime;
            }
            b_.addSlice(b_.threadTrack(s.integer(1), s.integer(2)), in);
        }
        if (!s.error().empty()) b_.addWarning("rpd: rocpd_api read up to an error: " + s.error());
    }

    // Per call: the launch configuration or the copy's size.
    void readLaunchDetails() {
        if (db_.hasTable("rocpd_kernelapi")) {
            SqliteStatement s = db_.prepare(
                "SELECT api_ptr_id, gridX, gridY, gridZ, workgroupX, workgroupY, workgroupZ "
                "FROM rocpd_kernelapi");
            while (s.valid() && s.step()) {
                OpExtra& x = extra_[s.integer(0)];
                for (int d = 0; d < 3; ++d) {
                    const int64_t items = s.integer(1 + d), group = s.integer(4 + d);
                    x.block[d] = int32_t(group);
                    x.grid[d] = workGroups(items, group);
                }
            }
        }
        if (db_.hasTable("rocpd_copyapi")) {
            SqliteStatement s = db_.prepare("SELECT api_ptr_id, size FROM rocpd_copyapi");
            while (s.valid() && s.step())
                if (!s.isNull(1)) extra_[s.integer(0)].bytes = s.integer(1);
        }
    }

    void readOps() {
        std::unordered_map<int64_t, int64_t> callOf; // op id -> api id
        SqliteStatement links = db_.prepare("SELECT api_id, op_id FROM rocpd_api_ops");
        while (links.valid() && links.step()) callOf[links.integer(1)] = links.integer(0);
        if (!links.error().empty())
            b_.addWarning("rpd: rocpd_api_ops read up to an error: " + links.error());
        const StringId kernel = b_.intern("kernel"), copy = b_.intern("gpu_memcpy");
        const StringId set = b_.intern("gpu_memset");
        SqliteStatement s = db_.prepare("SELECT id, gpuId, queueId, start, \"end\", "
                                        "description_id, opType_id FROM rocpd_op");
        std::map<std::string, uint64_t> unknown;
        while (s.valid() && s.step()) {
            if (s.isNull(3) || s.isNull(4) || s.integer(4) < s.integer(3)) {
                ++skipped_["an op with no start or end, or an end before the start"];
                continue;
            }
            const std::string_view type = strings_.text(s.integer(6));
            GpuActivity a;
            a.device = int32_t(s.integer(1));
            a.stream = s.integer(2);
            SliceInput in;
            in.start = s.integer(3);
            in.dur = s.integer(4) - s.integer(3);
            const auto call = callOf.find(s.integer(0));
            in.correlation = call != callOf.end() ? call->second : -1;
            const auto x = call != callOf.end() ? extra_.find(call->second) : extra_.end();
            if (type == "KernelExecution") {
                in.kind = SliceKind::Kernel;
                in.category = kernel;
                in.name = strings_.id(s.integer(5));
                if (x != extra_.end()) {
                    a.grid = x->second.grid;
                    a.block = x->second.block;
                }
            } else if (type.starts_with("Copy")) {
                a.copyKind = type == "CopyHostToDevice"     ? 1
                             : type == "CopyDeviceToHost"   ? 2
                             : type == "CopyDeviceToDevice" ? 8
                                                            : 0;
                a.bytes = x != extra_.end() ? x->second.bytes : -1;
                in.kind = SliceKind::Memcpy;
                in.category = copy;
                in.name = b_.intern(memcpyName(a.copyKind, 0, 0));
            } else if (type == "FillBuffer") {
                in.kind = SliceKind::Memset;
                in.category = set;
                in.name = b_.intern(memsetName(0));
            } else {
                ++unknown[std::string(type)];
                continue;
            }
            in.gpu = &a;
            b_.addSlice(b_.gpuStreamTrack(a.device, a.stream, a.device, a.stream), in);
        }
        if (!s.error().empty()) b_.addWarning("rpd: rocpd_op read up to an error: " + s.error());
        for (const auto& [type, n] : unknown)
            b_.addWarning("rpd: " + std::to_string(n) + " GPU ops of type \"" + type +
                          "\" not shown");
    }

    void readMonitor() {
        if (!db_.hasTable("rocpd_monitor")) return;
        SqliteStatement s = db_.prepare("SELECT deviceId, monitorType, start, value FROM "
                                        "rocpd_monitor ORDER BY start");
        while (s.valid() && s.step()) {
            const std::string name = gpuCounterName(s.integer(0), s.text(1));
            b_.addCounter(b_.counterTrack(s.integer(0), b_.intern(name)), s.integer(2),
                          std::strtod(std::string(s.text(3)).c_str(), nullptr));
        }
    }

    SqliteDb& db_;
    TraceBuilder& b_;
    SqliteStringTable strings_;
    std::unordered_map<int64_t, OpExtra> extra_; // api id -> launch details
    std::map<std::string, uint64_t> skipped_;
};

} // namespace

bool isRpdFile(const SqliteDb& db) {
    return db.hasTable("rocpd_op") && db.hasTable("rocpd_api") && db.hasTable("rocpd_string") &&
           !db.hasTable("rocpd_kernel_dispatch");
}

bool readRpdFile(SqliteDb& db, TraceBuilder& builder, std::string* error) {
    if (!isRpdFile(db)) {
        *error = "not a rocmProfileData file: no rocpd_op, rocpd_api or rocpd_string table";
        return false;
    }
    RpdReader(db, builder).read();
    return true;
}

} // namespace strata

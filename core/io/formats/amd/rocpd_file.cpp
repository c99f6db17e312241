#include "io/formats/amd/rocpd_file.h"

#include "io/formats/amd/rocprofiler_names.h"

#include "io/formats/sqlite/string_table.h"
#include "model/names/cupti_names.h"

#include <map>
#include <unordered_map>

namespace strata {

namespace {

struct Agent {
    int32_t device = -1;
    bool gpu = false;
};

class RocpdReader {
public:
    RocpdReader(SqliteDb& db, TraceBuilder& b) : db_(db), b_(b) {}
    void read() {
        strings_.load(db_, "SELECT id, string FROM rocpd_string", b_);
        readAgents();
        readThreads();
        readRegions();
        readDispatches();
        readCopies();
        for (const auto& [why, n] : skipped_)
            b_.addWarning("rocpd: " + std::to_string(n) + " rows skipped (" + why + ")");
        for (const char* t :
             {"rocpd_memory_allocate", "rocpd_pmc_event", "rocpd_sample", "rocpd_track"}) {
            if (db_.hasRows(t)) b_.addWarning(std::string("rocpd: not shown by Strata: ") + t);
        }
    }

private:
    bool bad(const SqliteStatement& s, int start, int end, const char* what) {
        if (!s.isNull(start) && !s.isNull(end) && s.integer(end) >= s.integer(start)) return false;
        ++skipped_[std::string(what) + " with no start or end, or an end before the start"];
        return true;
    }

    void readAgents() {
        SqliteStatement s = db_.prepare("SELECT id, type, type_index, product_name, name FROM "
                                        "rocpd_info_agent");
        while (s.valid() && s.step()) {
            Agent a{int32_t(s.integer(2)), s.text(1) == "GPU"};
            agents_[s.integer(0)] = a;
            if (!a.gpu) continue;
            DeviceInfo d;
            d.id = a.device;
            d.name = std::string(s.text(3).empty() ? s.text(4) : s.text(3));
            b_.addDevice(d);
        }
    }

    void readThreads() {
        SqliteStatement s = db_.prepare("SELECT pid, tid, name FROM rocpd_info_thread");
        while (s.valid() && s.step())
            if (!s.text(2).empty())
                b_.setThreadName(s.integer(0), s.integer(1), b_.intern(s.text(2)));
    }

    void readRegions() {
        SqliteStatement s = db_.prepare(
            "SELECT r.pid, r.tid, r.start, r.\"end\", r.name_id, e.stack_id, c.string FROM "
            "rocpd_region r LEFT JOIN rocpd_event e ON e.id = r.event_id LEFT JOIN rocpd_string "
            "c ON c.id = e.category_id");
        std::map<std::string, std::pair<SliceKind, StringId>> kinds;
        while (s.valid() && s.step()) {
            if (bad(s, 2, 3, "a region")) continue;
            const std::string category(s.text(6));
            auto k = kinds.find(category);
            if (k == kinds.end()) {
                const RocprofilerDomain d = rocprofilerDomain(category);
                k = kinds.emplace(category, std::pair{d.kind, b_.intern(d.category)}).first;
            }
            SliceInput in;
            in.start = s.integer(2);
            in.dur = s.integer(3) - s.integer(2);
            in.name = strings_.id(s.integer(4));
            in.kind = k->second.first;
            in.category = k->second.second;
            in.correlation = s.integer(5, -1);
            b_.addSlice(b_.threadTrack(s.integer(0), s.integer(1)), in);
        }
        if (!s.error().empty())
            b_.addWarning("rocpd: rocpd_region read up to an error: " + s.error());
    }

    int32_t device(int64_t agent) const {
        const auto it = agents_.find(agent);
        return it != agents_.end() ? it->second.device : int32_t(agent);
    }

    void readDispatches() {
        SqliteStatement s = db_.prepare(
            "SELECT k.agent_id, k.stream_id, k.start, k.\"end\", e.stack_id, k.grid_size_x, "
            "k.grid_size_y, k.grid_size_z, k.workgroup_size_x, k.workgroup_size_y, "
            "k.workgroup_size_z, ks.display_name, ks.kernel_name FROM rocpd_kernel_dispatch k "
            "LEFT JOIN rocpd_event e ON e.id = k.event_id LEFT JOIN rocpd_info_kernel_symbol ks "
            "ON ks.id = k.kernel_id");
        const StringId category = b_.intern("kernel");
        while (s.valid() && s.step()) {
            if (bad(s, 2, 3, "a kernel dispatch")) continue;
            GpuActivity a;
            a.device = device(s.integer(0));
            a.stream = s.integer(1);
            for (int d = 0; d < 3; ++d) {
                const int64_t items = s.integer(5 + d), group = s.integer(8 + d);
                a.block[d] = int32_t(group);
                a.grid[d] = workGroups(items, group);
            }
            SliceInput in;
            in.start = s.integer(2);
            in.dur = s.integer(3) - s.integer(2);
            in.name = b_.intern(!s.text(11).empty() ? s.text(11) : s.text(12));
            in.category = category;
            in.kind = SliceKind::Kernel;
            in.correlation = s.integer(4, -1);
            in.gpu = &a;
            b_.addSlice(rocprofilerGpuLane(b_, a.device, a.stream), in);
        }
        if (!s.error().empty())
            b_.addWarning("rocpd: rocpd_kernel_dispatch read up to an error: " + s.error());
    }

    void readCopies() {
        if (!db_.hasTable("rocpd_memory_copy")) return;
        SqliteStatement s = db_.prepare(
            "SELECT m.src_agent_id, m.dst_agent_id, m.stream_id, m.start, m.\"end\", m.size, "
            "e.stack_id FROM rocpd_memory_copy m LEFT JOIN rocpd_event e ON e.id = m.event_id");
        const StringId category = b_.intern("gpu_memcpy");
        while (s.valid() && s.step()) {
            if (bad(s, 3, 4, "a copy")) continue;
            const auto src = agents_.find(s.integer(0)), dst = agents_.find(s.integer(1));
            const bool srcGpu = src != agents_.end() && src->second.gpu;
            const bool dstGpu = dst != agents_.end() && dst->second.gpu;
            GpuActivity a;
            a.device = dstGpu ? device(s.integer(1)) : device(s.integer(0));
            a.stream = s.integer(2);
            a.bytes = s.integer(5, -1);
            a.copyKind = srcGpu && dstGpu ? 8 : dstGpu ? 1 : srcGpu ? 2 : 9;
            SliceInput in;
            in.start = s.integer(3);
            in.dur = s.integer(4) - s.integer(3);
            in.name = b_.intern(memcpyName(a.copyKind, 0, 0));
            in.category = category;
            in.kind = SliceKind::Memcpy;
            in.correlation = s.integer(6, -1);
            in.gpu = &a;
            b_.addSlice(rocprofilerGpuLane(b_, a.device, a.stream), in);
        }
        if (!s.error().empty())
            b_.addWarning("rocpd: rocpd_memory_copy read up to an error: " + s.error());
    }

    SqliteDb& db_;
    TraceBuilder& b_;
    SqliteStringTable strings_;
    std::unordered_map<int64_t, Agent> agents_;
    std::map<std::string, uint64_t> skipped_;
};

} // namespace

bool isRocpdFile(const SqliteDb& db) {
    return db.hasTable("rocpd_kernel_dispatch") && db.hasTable("rocpd_region") &&
           db.hasTable("rocpd_string") && db.hasTable("rocpd_event");
}

bool readRocpdFile(SqliteDb& db, TraceBuilder& builder, std::string* error) {
    if (!isRocpdFile(db)) {
        *error = "not a rocpd database: no rocpd_kernel_dispatch, rocpd_region, rocpd_event or "
                 "rocpd_string view";
        return false;
    }
    RocpdReader(db, builder).read();
    return true;
}

} // namespace strata

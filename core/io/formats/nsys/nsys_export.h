#pragma once
// An Nsight Systems SQLite export (`nsys export --type sqlite`) read into a TraceBuilder, for
// every schema from nsys 2020.5 on: the tables and columns the file has are looked up, not
// assumed (EXPORT_META_DATA or META_DATA_EXPORT, enum tables that old exports lack, columns that
// come and go). What becomes what:
//   PROCESSES, ThreadNames       process and thread names (pid, tid out of globalPid/globalTid:
//                                (id >> 24) & 0xFFFFFF and id & 0xFFFFFF)
//   TARGET_INFO_GPU              the devices (name, SMs, memory, clock)
//   CUPTI_ACTIVITY_KIND_RUNTIME  runtime and driver calls on their threads (cuda_runtime /
//                                cuda_driver; nsys's "_v7000" version suffix dropped)
//   ..._KERNEL, _MEMCPY, _MEMSET GPU lanes per (device, stream), launch configuration, bytes,
//                                copy and memory kinds, named as Kineto names copies and sets
//   ..._SYNCHRONIZATION          cuda_sync slices (Stream Sync, Context Sync, Event Sync, Stream
//                                Wait Event) on their stream
//   ..._GRAPH_TRACE              a whole CUDA graph's run as one GPU slice "CUDA Graph <id>"
//   CUDA_GRAPH_(NODE_)EVENTS     graph and node creation calls on their threads ("cuda_graph")
//   NVTX_EVENTS                  push/pop and start/end ranges as annotations on their thread
//                                (category: the domain's name, else "nvtx"), marks as instants
//   OSRT_API                     OS runtime calls on their threads (category "osrt")
//   GPU_METRICS                  counter rows under each GPU ("GPU <n> <metric name>", named by
//                                TARGET_INFO_GPU_METRICS; the device is typeId's low byte)
//   COMPOSITE_EVENTS,            CPU samples: each thread's native call stacks (frames by symbol,
//   SAMPLING_CALLCHAINS          else "[module]"; stackDepth 0 the innermost)
// Correlation ids are per process in nsys: with more than one process making CUDA calls they
// become (pid << 32) | id, and a warning says so. A bad row is skipped and counted per table;
// a non-empty table Strata does not show is named in a warning (its contents are not read: the
// export's environment variables and command lines are never read).
#include "io/formats/sqlite/sqlite_db.h"
#include "io/formats/sqlite/string_table.h"
#include "model/build/trace_builder.h"

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace strata {

class NsysExport {
public:
    NsysExport(SqliteDb& db, TraceBuilder& builder) : db_(db), b_(builder) {}
    // False (and *error) when the file is not an Nsight Systems export.
    bool read(std::string* error);

private:
    // nsys_export.cpp
    void readMeta();
    void readStrings();
    void readProcessesAndThreads();
    void readDevices();
    void warnUnshown();
    // A column of `table` for a SELECT: its name, or NULL when the export lacks it.
    std::string col(const std::string& table, const std::string& name);
    // Steps `sql` over `table` (when the export has it), calling `row` with each row.
    template <class F> void eachRow(const std::string& table, const std::string& sql, F&& row);
    StringId str(int64_t id) const { return strings_.id(id); } // a StringIds value, interned
    std::string_view text(int64_t id) const { return strings_.text(id); }
    void skipped(const std::string& table, const char* why);
    // nsys_cuda.cpp
    void readRuntime();
    void readKernels();
    void readCopies();
    void readSets();
    void readSyncs();
    void readGraphs();
    int64_t correlation(int64_t pid, int64_t id) const;
    TrackId gpuTrack(int64_t device, int64_t stream);
    // A GPU table's row (read with kGpuColumns first: start, end, deviceId, streamId,
    // correlationId, globalPid): false (counted) when its span is bad, else device and stream.
    bool gpuRow(const std::string& table, const SqliteStatement& s, GpuActivity* a);
    void addGpuSlice(const SqliteStatement& s, const GpuActivity& a, SliceKind kind,
                     StringId category, StringId name);
    // nsys_nvtx.cpp
    void readNvtx();
    void readOsrt();
    void readThreadCalls(const std::string& table, StringId category);
    // nsys_samples.cpp
    void readGpuMetrics();
    void readCpuSamples();

    SqliteDb& db_;
    TraceBuilder& b_;
    SqliteStringTable strings_;
    bool perProcessCorrelation_ = false;
    std::map<std::string, std::map<std::string, uint64_t>> skipped_; // table -> why -> rows
    std::vector<std::string> read_;                                  // tables read
};

template <class F>
void NsysExport::eachRow(const std::string& table, const std::string& sql, F&& row) {
    if (!db_.hasTable(table)) return;
    read_.push_back(table);
    SqliteStatement s = db_.prepare(sql);
    if (!s.valid()) {
        b_.addWarning("Nsight export: table " + table + " not read: " + db_.error());
        return;
    }
    while (s.step()) row(s);
    if (!s.error().empty())
        b_.addWarning("Nsight export: table " + table + " read up to an error (" + s.error() +
                      "); the rows before it are kept");
}

// pid and tid out of nsys's globalTid / globalPid.
inline int64_t nsysPid(int64_t globalId) {
    return (globalId >> 24) & 0xFFFFFF;
}
inline int64_t nsysTid(int64_t globalTid) {
    return globalTid & 0xFFFFFF;
}

} // namespace strata

// The CUDA tables of an Nsight Systems export: API calls, kernels, copies, sets and syncs.
#include "io/formats/nsys/nsys_export.h"

#include "model/names/cupti_names.h"

namespace strata {

namespace {

// "cudaLaunchKernel_v7000" -> "cudaLaunchKernel" (nsys names API calls with their version).
std::string_view withoutVersion(std::string_view name) {
    const size_t v = name.rfind("_v");
    if (v == std::string_view::npos || v + 2 == name.size()) return name;
    for (size_t i = v + 2; i < name.size(); ++i)
        if (name[i] < '0' || name[i] > '9') return name;
    return name.substr(0, v);
}

constexpr const char* kGpuColumns =
    "SELECT start, \"end\", deviceId, streamId, correlationId, globalPid, ";

bool validStream(int64_t s) {
    return s >= 0 && s != 0xFFFFFFFFLL;
}

// CUpti_ActivitySynchronizationType -> the name Kineto gives the sync.
const char* syncName(int64_t type) {
    switch (type) {
    case 1:
        return "Event Sync";
    case 2:
        return "Stream Wait Event";
    case 3:
        return "Stream Sync";
    case 4:
        return "Context Sync";
    default:
        return "Sync";
    }
}

} // namespace

int64_t NsysExport::correlation(int64_t pid, int64_t id) const {
    return perProcessCorrelation_ ? (pid << 32) | (id & 0xFFFFFFFFLL) : id;
}

TrackId NsysExport::gpuTrack(int64_t device, int64_t stream) {
    return b_.gpuStreamTrack(int32_t(device), stream, device, stream);
}

// The columns every GPU table is read with first (kGpuColumns), and the row's span checked.
bool NsysExport::gpuRow(const std::string& table, const SqliteStatement& s, GpuActivity* a) {
    if (s.isNull(0) || s.isNull(1) || s.integer(1) < s.integer(0)) {
        skipped(table, "no start or end, or an end before the start");
        return false;
    }
    a->device = int32_t(s.integer(2));
    a->stream = s.integer(3);
    return true;
}

void NsysExport::addGpuSlice(const SqliteStatement& s, const GpuActivity& a, SliceKind kind,
                             StringId category, StringId name) {
    SliceInput in;
    in.start = s.integer(0);
    in.dur = s.integer(1) - s.integer(0);
    in.name = name;
    in.category = category;
    in.kind = kind;
    in.correlation = correlation(nsysPid(s.integer(5)), s.integer(4));
    in.gpu = &a;
    b_.addSlice(gpuTrack(a.device, a.stream), in);
}

void NsysExport::readRuntime() {
    const std::string t = "CUPTI_ACTIVITY_KIND_RUNTIME";
    if (!db_.hasTable(t)) return;
    SqliteStatement pids =
        db_.prepare("SELECT COUNT(DISTINCT (globalTid >> 24) & 16777215) FROM " + t);
    if (pids.valid() && pids.step() && pids.integer(0) > 1) {
        perProcessCorrelation_ = true;
        b_.addWarning("Nsight export: CUDA calls from several processes: correlation ids (per "
                      "process in nsys) are shown as (pid << 32) | id");
    }
    const StringId runtime = b_.intern("cuda_runtime"), driver = b_.intern("cuda_driver");
    std::unordered_map<int64_t, std::pair<StringId, bool>> names; // nameId -> (name, driver)
    eachRow(t, "SELECT start, \"end\", globalTid, correlationId, nameId FROM " + t,
            [&](SqliteStatement& s) {
                if (s.isNull(0) || s.isNull(1) || s.integer(1) < s.integer(0))
                    return skipped(t, "no start or end, or an end before the start");
                auto it = names.find(s.integer(4));
                if (it == names.end()) {
                    const std::string_view full = text(s.integer(4));
                    const std::string_view name = withoutVersion(full);
                    const bool isDriver = name.starts_with("cu") && !name.starts_with("cuda");
                    it = names.emplace(s.integer(4), std::pair{b_.intern(name), isDriver}).first;
                }
                const int64_t g = s.integer(2);
                SliceInput in;
                in.start = s.integer(0);
                in.dur = s.integer(1) - s.integer(0);
                in.name = it->second.first;
                in.kind = it->second.second ? SliceKind::CudaDriver : SliceKind::CudaRuntime;
                in.category = it->second.second ? driver : runtime;
                in.correlation = s.isNull(3) ? -1 : correlation(nsysPid(g), s.integer(3));
                b_.addSlice(b_.threadTrack(nsysPid(g), nsysTid(g)), in);
            });
}

void NsysExport::readKernels() {
    const std::string t = "CUPTI_ACTIVITY_KIND_KERNEL";
    const std::string name = db_.columns(t).count("demangledName") ? "demangledName" : "shortName";
    const StringId category = b_.intern("kernel");
    eachRow(t,
            std::string(kGpuColumns) + name + ", " + col(t, "contextId") + ", " + col(t, "gridX") +
                ", " + col(t, "gridY") + ", " + col(t, "gridZ") + ", " + col(t, "blockX") + ", " +
                col(t, "blockY") + ", " + col(t, "blockZ") + ", " + col(t, "registersPerThread") +
                ", " + col(t, "staticSharedMemory") + ", " + col(t, "dynamicSharedMemory") + ", " +
                col(t, "graphNodeId") + ", " + col(t, "graphId") + " FROM " + t,
            [&](SqliteStatement& s) {
                GpuActivity a;
                if (!gpuRow(t, s, &a)) return;
                a.context = s.integer(7, -1);
                a.grid = {int32_t(s.integer(8)), int32_t(s.integer(9)), int32_t(s.integer(10))};
                a.block = {int32_t(s.integer(11)), int32_t(s.integer(12)), int32_t(s.integer(13))};
                a.registersPerThread = int32_t(s.integer(14, -1));
                a.staticSharedBytes = int32_t(s.integer(15, -1));
                a.dynamicSharedBytes = int32_t(s.integer(16, -1));
                a.graphNodeId = s.integer(17, -1);
                a.graphId = s.integer(18, -1);
                addGpuSlice(s, a, SliceKind::Kernel, category, str(s.integer(6)));
            });
}

void NsysExport::readCopies() {
    const std::string t = "CUPTI_ACTIVITY_KIND_MEMCPY";
    const StringId category = b_.intern("gpu_memcpy");
    eachRow(t,
            std::string(kGpuColumns) + "bytes, copyKind, " + col(t, "srcKind") + ", " +
                col(t, "dstKind") + ", " + col(t, "contextId") + ", " + col(t, "srcDeviceId") +
                ", " + col(t, "dstDeviceId") + ", " + col(t, "graphNodeId") + " FROM " + t,
            [&](SqliteStatement& s) {
                GpuActivity a;
                if (!gpuRow(t, s, &a)) return;
                a.bytes = s.integer(6, -1);
                a.copyKind = uint8_t(s.integer(7));
                a.srcMemory = uint8_t(s.integer(8));
                a.dstMemory = uint8_t(s.integer(9));
                a.context = s.integer(10, -1);
                a.graphNodeId = s.integer(13, -1);
                const std::string name =
                    a.copyKind == 10 && !s.isNull(11) && !s.isNull(12)
                        ? peerMemcpyName(uint32_t(s.integer(11)), uint32_t(s.integer(12)))
                        : memcpyName(a.copyKind, a.srcMemory, a.dstMemory);
                addGpuSlice(s, a, SliceKind::Memcpy, category, b_.intern(name));
            });
}

void NsysExport::readSets() {
    const std::string t = "CUPTI_ACTIVITY_KIND_MEMSET";
    const StringId category = b_.intern("gpu_memset");
    eachRow(t,
            std::string(kGpuColumns) + "bytes, " + col(t, "memKind") + ", " + col(t, "contextId") +
                " FROM " + t,
            [&](SqliteStatement& s) {
                GpuActivity a;
                if (!gpuRow(t, s, &a)) return;
                a.bytes = s.integer(6, -1);
                a.dstMemory = uint8_t(s.integer(7));
                a.context = s.integer(8, -1);
                addGpuSlice(s, a, SliceKind::Memset, category, b_.intern(memsetName(a.dstMemory)));
            });
}

void NsysExport::readSyncs() {
    const std::string t = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
    const StringId category = b_.intern("cuda_sync");
    eachRow(t, std::string(kGpuColumns) + "syncType, " + col(t, "contextId") + " FROM " + t,
            [&](SqliteStatement& s) {
                GpuActivity a;
                if (!gpuRow(t, s, &a)) return;
                a.stream = validStream(s.integer(3, -1)) ? s.integer(3) : -1;
                a.context = s.integer(7, -1);
                addGpuSlice(s, a, SliceKind::Synchronization, category,
                            b_.intern(syncName(s.integer(6))));
            });
}

// CUDA graphs. CUPTI_ACTIVITY_KIND_GRAPH_TRACE (nsys --cuda-graph-trace=graph): a whole graph's
// run on its stream as one GPU slice, "CUDA Graph <graphId>", linked to its cudaGraphLaunch.
// CUDA_GRAPH_EVENTS and CUDA_GRAPH_NODE_EVENTS: graph and node creation calls on their threads
// (category "cuda_graph"). Node by node (--cuda-graph-trace=node) the kernels carry graphId and
// graphNodeId (readKernels).
void NsysExport::readGraphs() {
    const std::string t = "CUPTI_ACTIVITY_KIND_GRAPH_TRACE";
    const StringId category = b_.intern("cuda_graph");
    eachRow(t, std::string(kGpuColumns) + "graphId, " + col(t, "contextId") + " FROM " + t,
            [&](SqliteStatement& s) {
                GpuActivity a;
                if (!gpuRow(t, s, &a)) return;
                a.graphId = s.integer(6, -1);
                a.context = s.integer(7, -1);
                addGpuSlice(s, a, SliceKind::Kernel, category,
                            b_.intern("CUDA Graph " + std::to_string(a.graphId)));
            });
    readThreadCalls("CUDA_GRAPH_EVENTS", category);
    readThreadCalls("CUDA_GRAPH_NODE_EVENTS", category);
}

} // namespace strata

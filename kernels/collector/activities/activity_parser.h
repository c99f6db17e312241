#pragma once
// Turns CUPTI activity records into .strata writer calls: API calls on their CPU threads, NVTX
// ranges/marks, kernels/memcpy/memset/sync/events on GPU streams, allocations as a memory
// counter, CUPTI overhead, device properties. Called from CUPTI's buffer-completion callback
// under the collector's parser lock; it never calls back into CUPTI except
// cuptiActivityGetNextRecord. Records with invalid timestamps or outside the capture schedule
// are counted (stats()) and reported as warnings by finish(), never silently dropped.
// Implemented in activity_parser.cpp, activity_parser_gpu.cpp and activity_parser_nvtx.cpp.
#include "activities/api_names.h"
#include "capture_schedule.h"
#include "model/slice_kind.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include <cupti_activity.h>

namespace strata {

class StrataTraceWriter;
struct GpuActivity;

struct ParserStats {
    uint64_t records = 0;           // records seen
    uint64_t written = 0;           // records that became trace events
    uint64_t outsideCapture = 0;    // outside the schedule / capture range / duration
    uint64_t invalidTimestamps = 0; // start or end 0, or end < start (CUPTI out of device memory)
    uint64_t filteredApis = 0;      // noisy getters seen despite the per-cbid disable
    uint64_t unknownKinds = 0;      // record kinds this parser does not handle
    uint64_t incompleteBuffers = 0; // buffers that ended in CUPTI_ERROR_INVALID_KIND
    uint64_t nvtxUnmatched = 0;     // NVTX range starts or ends whose partner never came
    uint64_t driverLinksMerged = 0; // driver calls sharing a runtime call's correlation id
    uint64_t clockSkew = 0;         // GPU ops that start before the runtime call launching them
};

class ActivityParser {
public:
    ActivityParser(StrataTraceWriter& writer, ApiNameTable& names, uint32_t captureMask);

    // The windows in force for the next buffers (a copy, taken under the schedule's lock).
    void setSchedule(const CaptureSchedule& schedule) { schedule_ = schedule; }
    void parseBuffer(uint8_t* buffer, size_t validBytes);
    void handle(const CUpti_Activity* record);
    // End of a buffer: driver calls held back to see whether a runtime call owns their id.
    void endOfBuffer();
    // End of the recording: NVTX ranges still open and the counts above become warnings.
    void finish();
    const ParserStats& stats() const { return stats_; }

private:
    struct OpenMarker {
        std::string name;
        int64_t pid = 0, tid = 0, ts = 0;
        uint32_t color = 0; // ARGB from the event attributes, 0 = none given
    };
    struct PendingDriver {
        int64_t pid, tid, start, end;
        uint32_t name;
        int64_t correlation;
        int32_t ret;
    };

    // activity_parser.cpp: shared checks, API calls and launch correlation, other records.
    bool keep(int64_t t);
    bool keepMarker(std::string_view name, int64_t start, int64_t end); // NVTX: a step's own too
    bool validRange(uint64_t start, uint64_t end);
    void noteThread(int64_t pid, int64_t tid);
    uint32_t apiName(bool runtime, uint32_t cbid);
    void api(const CUpti_Activity* r, bool runtime);
    void checkLaunchOrder(uint32_t correlation, int64_t gpuStart);
    void overhead(const CUpti_Activity* r);
    void device(const CUpti_Activity* r);
    // activity_parser_gpu.cpp: GPU operations and memory counters.
    uint32_t kernelName(const char* mangled);
    int32_t deviceOfContext(uint32_t context) const;
    void kernel(const CUpti_Activity* r);
    void memcpy(const CUpti_Activity* r);
    void peerCopy(const CUpti_Activity* r);
    template <class Copy, class Name> void copyOp(const Copy* m, uint64_t key, Name&& makeName);
    void launchedOp(uint64_t start, uint64_t end, uint32_t name, SliceKind kind,
                    const GpuActivity& g, uint32_t correlation);
    void memset(const CUpti_Activity* r);
    void memory(const CUpti_Activity* r);
    void sync(const CUpti_Activity* r);
    void cudaEvent(const CUpti_Activity* r);
    // activity_parser_nvtx.cpp: NVTX ranges, marks and colours.
    void marker(const CUpti_Activity* r);
    void markerData(const CUpti_Activity* r);
    uint32_t takeColor(uint32_t markerId);
    void nameColor(uint32_t name, uint32_t argb);
    void emitRange(const OpenMarker& begin, int64_t endTs, int64_t endTid, uint32_t id);

    StrataTraceWriter& w_;
    ApiNameTable& names_;
    uint32_t mask_;
    CaptureSchedule schedule_;
    ParserStats stats_;
    std::set<std::pair<int64_t, int64_t>> threads_;
    std::unordered_map<std::string, uint32_t> kernelNames_;
    // CUPTI hands the same name pointer for every launch of a function: a pointer hit (checked
    // with strcmp) avoids hashing the name again.
    std::unordered_map<const char*, std::pair<std::string, uint32_t>> kernelNameByPointer_;
    std::vector<uint32_t> runtimeNameIds_, driverNameIds_; // writer string ids by cbid, 0 = not yet
    std::unordered_map<uint64_t, uint32_t> copyNameIds_;   // (copyKind, src, dst) or (peer
                                                           // devices) -> string id
    std::pair<int64_t, int64_t> lastThread_{-1, -1};
    std::unordered_map<uint32_t, int32_t> contextDevice_;
    std::unordered_map<uint32_t, OpenMarker> openMarkers_;                // NVTX range id -> start
    std::unordered_map<uint32_t, std::pair<int64_t, int64_t>> earlyEnds_; // id -> (ts, tid)
    // NVTX colours (MARKER_DATA records, which come after their marker's record in practice):
    // a colour whose marker has not come yet waits by marker id; the last mark written is
    // remembered for the colour that follows it; each name's colour is written on change.
    std::unordered_map<uint32_t, uint32_t> pendingColors_;  // marker id -> ARGB
    std::optional<std::pair<uint32_t, uint32_t>> lastMark_; // (marker id, name) of the last mark
    std::unordered_map<uint32_t, uint32_t> nameColors_;     // name -> ARGB written
    std::map<int32_t, double> deviceMemory_;                // device -> bytes allocated
    double pinnedMemory_ = 0;
    std::vector<PendingDriver> pendingDrivers_;
    std::unordered_map<uint32_t, int64_t> runtimeStarts_;   // recent runtime calls: id -> start
    std::unordered_map<uint32_t, int64_t> gpuBeforeLaunch_; // GPU op starts waiting for their call
    std::vector<uint32_t> runtimeIdOrder_;                  // ring order for trimming runtimeIds_
};

} // namespace strata

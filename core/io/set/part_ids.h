#pragma once
// The pids and tids of a trace, or of each part of a set, on one timeline: what the Perfetto JSON
// export writes (io/export) and the window's merged set shows (io/set/trace_set_merge.h), so both
// name the same groups. Every reader accepts positive 32-bit integers,
// and Perfetto's importer gives pid/tid 0 a meaning of its own (the idle "swapper"), so: CPU
// processes and threads keep their ids when those are in 1..2^31-1 and unique, and get fresh
// ones otherwise; each GPU device is one process and each of its streams one thread (the real
// device and stream ids travel in the events' args, as Kineto writes them); a track lane that
// holds slices overlapping the main lane (model/spill_lanes) becomes a thread of its own named
// "<thread> (overlapping, lane N)". Names and sort indices put the CPU processes first, then
// the GPU devices in order. A CPU process or thread whose id changed keeps the id it had
// (ExportProcess::original, written as "strata_pid" / "strata_tid" in its name event), and one
// without a name gets "Process N" / "Thread N" marked as made up ("strata_unnamed"): Strata reads
// both back, so "python3 0" does not come back as "python3 1073741824". In a file of several
// traces each GPU device keeps its id when no trace before it used that id, and takes the next
// free one otherwise (the "device" arg of its events; its process stays "rank 1: GPU 0"), so
// that a reader that groups GPU work by device keeps the ranks' devices apart; and each trace's
// correlation and External ids are moved past those of the traces before it, so that a launch
// is linked to its own rank's kernel.
#include "model/trace.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace strata {

struct ExportProcess {
    int64_t pid = 0;
    std::string name;
    std::string label; // process_labels (a GPU's model name), or empty
    int32_t sortIndex = 0;
    std::optional<int64_t> original; // the pid shown before, when `pid` differs from it
    bool unnamed = false;            // `name` is made up ("Process 12")
};

struct ExportThread {
    int64_t pid = 0;
    int64_t tid = 0;
    std::string name;
    int32_t sortIndex = 0;
    std::optional<int64_t> original; // the tid shown before, when `tid` differs from it
    bool unnamed = false;            // `name` is made up ("Thread 12")
};

// The ids a file's traces have taken so far: an export of several traces (the ranks of a job)
// gives each its ids apart from those of the traces written before it.
struct PartIdSpace {
    std::map<int64_t, int64_t> usedPid, usedTid;   // exported id -> 1
    std::set<int32_t> usedDevice;                  // exported GPU device ids
    int64_t nextCorrelation = 0, nextExternal = 0; // the first ids the next trace may use
    int64_t nextPid = 0x40000000, nextTid = 0x40000000;
};

// The first sort index of the i-th trace of a file of several: the traces' processes stay in
// their order (a trace's take at most 1,000,000 + its highest device).
int32_t setPartSortBase(size_t i);

class PartIds {
public:
    explicit PartIds(const Trace& trace);
    // One trace of several in a file: pids and tids that none in `space` has (then added to it),
    // process names prefixed with `label` ("rank 3: "), sort indices from `sortBase`.
    PartIds(const Trace& trace, PartIdSpace& space, const std::string& label, int32_t sortBase);
    PartIds(const PartIds&) = delete;
    PartIds& operator=(const PartIds&) = delete;

    // The exported (pid, tid) of a Thread or GpuStream track; pid alone for the other kinds.
    int64_t pid(TrackId track) const { return pid_[track]; }
    int64_t tid(TrackId track) const { return tid_[track]; }
    // The exported (pid, tid) of a thread that has stack samples and no thread track.
    std::pair<int64_t, int64_t> sampleThread(int64_t pid, int64_t tid) const;
    // The exported id of a GPU device (the same id in a file of one trace).
    int32_t device(int32_t original) const;
    // The exported correlation and External ids (the same in a file of one trace).
    int64_t correlation(int64_t id) const { return id < 0 ? id : id + correlationBase_; }
    int64_t external(int64_t id) const { return id < 0 ? id : id + externalBase_; }

    const std::vector<ExportProcess>& processes() const { return processes_; }
    const std::vector<ExportThread>& threads() const { return threads_; }
    size_t overlapThreads() const { return overlapThreads_; }
    // A tid no thread of the file uses (threads the writer adds: in-kernel section lanes).
    int64_t newTid() { return freshTid(); }

private:
    int64_t freshPid();
    int64_t freshTid();
    int64_t processFor(int64_t originalPid);

    void assign(const PartIdSpace& before, const std::string& label, int32_t sortBase);
    void nameCpuProcesses(const std::set<int64_t>& cpuPids, const std::string& label,
                          int32_t sortBase);
    void assignGpuProcesses(const std::string& label, int32_t sortBase);
    void assignTracks(const PartIdSpace& before);
    void assignSampleThreads(const PartIdSpace& before);
    int64_t threadTid(const PartIdSpace& before, int64_t pid, int64_t tid);
    // A thread's export entry: its name (or "Thread N", marked made up), sort index, exported
    // ids; an extra `lane` of its track is a thread of its own.
    ExportThread threadEntry(int64_t pid, int64_t tid, int64_t exportedTid, uint32_t lane);

    const Trace& trace_;
    std::vector<int64_t> pid_, tid_;
    std::map<int64_t, int64_t> pidOf_;                     // original CPU pid -> exported
    std::map<int32_t, int64_t> gpuPid_;                    // device -> exported pid
    std::map<int32_t, int32_t> deviceOf_;                  // device -> exported device id
    std::map<std::pair<int64_t, int64_t>, int64_t> tidOf_; // original (pid, tid) -> exported tid
    std::map<int64_t, int64_t> tidOwner_;                  // exported tid -> original pid
    std::map<std::pair<int64_t, int64_t>, std::pair<int64_t, int64_t>> sampleThreads_;
    int64_t correlationBase_ = 0, externalBase_ = 0;
    PartIdSpace own_; // a file of one trace
    std::map<int64_t, int64_t>& usedPid_;
    std::map<int64_t, int64_t>& usedTid_;
    std::set<int32_t>& usedDevice_;
    int64_t& nextPid_;
    int64_t& nextTid_;
    std::vector<ExportProcess> processes_;
    std::vector<ExportThread> threads_;
    size_t overlapThreads_ = 0;
};

} // namespace strata

#pragma once
// When the collector keeps records: a pure, CUPTI-free decision from step markers (NVTX ranges or
// marks named STRATA_STEP_NAME), a capture range (an NVTX range name, or the spans between
// cudaProfilerStart and cudaProfilerStop) and a maximum duration. The collector feeds it NVTX
// events and profiler starts/stops as they happen (from CUPTI's callbacks, on the application's
// threads) and asks captures(t) for every record it parses. Not thread-safe: the
// collector guards it and hands the parser a copy.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

struct CaptureWindow {
    int64_t start = 0;
    int64_t end = INT64_MAX; // exclusive; INT64_MAX while open
    friend bool operator==(const CaptureWindow&, const CaptureWindow&) = default;
};

// The capture range name that means "between cudaProfilerStart and cudaProfilerStop" (the value
// nsys takes for --capture-range).
inline constexpr std::string_view kProfilerApiRange = "cudaProfilerApi";

struct CaptureScheduleConfig {
    // torch.profiler.schedule semantics, counted in steps: `wait` steps skipped, `warmup` steps
    // skipped (CUPTI is already on), `active` steps recorded; the cycle repeats `repeat` times
    // (0 = forever). active == 0 disables the schedule (everything is recorded).
    int32_t wait = 0;
    int32_t warmup = 0;
    int32_t active = 0;
    int32_t repeat = 0;
    std::string stepName;  // NVTX range or mark that starts a step (default "step")
    std::string rangeName; // record only inside NVTX ranges of this name ("" = no capture range;
                           // kProfilerApiRange: inside cudaProfilerStart .. cudaProfilerStop)
    int64_t maxDurationNs = 0; // 0 = unlimited; counted from `origin`
    // STRATA_WAIT_FOR_ATTACH: nothing is kept outside the windows attach sessions open and close
    // (onAttachStart/onAttachStop), on top of the conditions above.
    bool attach = false;

    bool scheduleEnabled() const { return active > 0; }
    bool rangeEnabled() const { return !rangeName.empty(); }
    bool profilerApiRange() const { return rangeName == kProfilerApiRange; }
    bool nvtxRange() const { return rangeEnabled() && !profilerApiRange(); }
};

class CaptureSchedule {
public:
    CaptureSchedule() = default;
    CaptureSchedule(CaptureScheduleConfig config, int64_t origin);

    const CaptureScheduleConfig& config() const { return config_; }

    // NVTX events, in the order they happened (per process; times non-decreasing).
    void onRangeBegin(std::string_view name, int64_t t); // push or start
    void onRangeEnd(std::string_view name, int64_t t);   // pop or end, with the range's name
    void onMark(std::string_view name, int64_t t);
    // cudaProfilerStart returned / cudaProfilerStop was called (repeats are no-ops, as in CUDA).
    void onProfilerStart(int64_t t);
    void onProfilerStop(int64_t t);
    // strata-cli attach --start / --stop served at t (repeats are no-ops).
    void onAttachStart(int64_t t);
    void onAttachStop(int64_t t);

    // Whether a record starting at t is kept.
    bool captures(int64_t t) const;
    // Whether an NVTX range [start, end] or a mark (end == start) named `name` is kept. A step's
    // or the capture range's own marker is timestamped by CUPTI before its callback reaches the
    // schedule, so it starts just before the window it opens: it is kept when that window
    // begins at most kMarkerLeadNs after it and, for a range, holds its end (found on an H100:
    // the first active step was lost). A mark-delimited step shorter than the lead, just before
    // the first active one, is kept too.
    bool capturesMarker(std::string_view name, int64_t start, int64_t end) const;
    static constexpr int64_t kMarkerLeadNs = 50'000;
    // True once nothing later than `now` can be captured (schedule exhausted or duration over).
    bool finished(int64_t now) const;

    // Windows (sorted, disjoint) of the schedule and of the capture range; empty when disabled.
    const std::vector<CaptureWindow>& scheduleWindows() const { return schedule_; }
    const std::vector<CaptureWindow>& rangeWindows() const { return range_; }
    const std::vector<CaptureWindow>& attachWindows() const { return attach_; }
    int64_t stepsSeen() const { return steps_; }

private:
    enum class Phase { Wait, Warmup, Active, Done };
    Phase phaseOf(int64_t step) const;
    void stepBegins(int64_t t);
    void stepEnds(int64_t t);
    static bool inside(const std::vector<CaptureWindow>& w, int64_t t);

    CaptureScheduleConfig config_;
    int64_t origin_ = 0;
    int64_t steps_ = 0;      // steps begun so far
    bool stepOpen_ = false;  // the current step is an open NVTX range
    int32_t stepDepth_ = 0;  // nesting of step ranges (a step range inside a step range)
    int32_t rangeDepth_ = 0; // nesting of capture ranges
    std::vector<CaptureWindow> schedule_;
    std::vector<CaptureWindow> range_;
    std::vector<CaptureWindow> attach_;
};

} // namespace strata

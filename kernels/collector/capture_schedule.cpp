#include "capture_schedule.h"

#include <algorithm>
#include <utility>

namespace strata {

CaptureSchedule::CaptureSchedule(CaptureScheduleConfig config, int64_t origin)
    : config_(std::move(config)), origin_(origin) {
    if (config_.wait < 0) config_.wait = 0;
    if (config_.warmup < 0) config_.warmup = 0;
    if (config_.active < 0) config_.active = 0;
    if (config_.repeat < 0) config_.repeat = 0;
}

CaptureSchedule::Phase CaptureSchedule::phaseOf(int64_t step) const {
    const int64_t cycle = int64_t(config_.wait) + config_.warmup + config_.active;
    if (cycle <= 0) return Phase::Done;
    if (config_.repeat > 0 && step >= cycle * config_.repeat) return Phase::Done;
    const int64_t pos = step % cycle;
    if (pos < config_.wait) return Phase::Wait;
    if (pos < int64_t(config_.wait) + config_.warmup) return Phase::Warmup;
    return Phase::Active;
}

static void closeAt(std::vector<CaptureWindow>& w, int64_t t) {
    if (w.empty() || w.back().end != INT64_MAX) return;
    if (t <= w.back().start)
        w.pop_back(); // an empty window keeps nothing
    else
        w.back().end = t;
}

static void openAt(std::vector<CaptureWindow>& w, int64_t t) {
    if (!w.empty() && w.back().end == INT64_MAX) return;
    w.push_back(CaptureWindow{t, INT64_MAX});
}

void CaptureSchedule::stepBegins(int64_t t) {
    const int64_t s = steps_++;
    if (!config_.scheduleEnabled()) return;
    if (phaseOf(s) == Phase::Active)
        openAt(schedule_, t);
    else
        closeAt(schedule_, t);
}

void CaptureSchedule::stepEnds(int64_t t) {
    if (!config_.scheduleEnabled() || steps_ == 0) return;
    // The gap between two active steps belongs to the window; after the last active step of a
    // cycle the window closes where the step's range ends.
    if (phaseOf(steps_) != Phase::Active) closeAt(schedule_, t);
}

void CaptureSchedule::onRangeBegin(std::string_view name, int64_t t) {
    if (!config_.stepName.empty() && name == config_.stepName) {
        if (stepDepth_++ == 0) stepBegins(t);
    }
    if (config_.nvtxRange() && name == config_.rangeName) {
        if (rangeDepth_++ == 0) openAt(range_, t);
    }
}

void CaptureSchedule::onRangeEnd(std::string_view name, int64_t t) {
    if (!config_.stepName.empty() && name == config_.stepName && stepDepth_ > 0) {
        if (--stepDepth_ == 0) stepEnds(t);
    }
    if (config_.nvtxRange() && name == config_.rangeName && rangeDepth_ > 0) {
        if (--rangeDepth_ == 0) closeAt(range_, t);
    }
}

void CaptureSchedule::onMark(std::string_view name, int64_t t) {
    if (!config_.stepName.empty() && name == config_.stepName) stepBegins(t);
}

void CaptureSchedule::onProfilerStart(int64_t t) {
    if (config_.profilerApiRange()) openAt(range_, t);
}

void CaptureSchedule::onProfilerStop(int64_t t) {
    if (config_.profilerApiRange()) closeAt(range_, t);
}

void CaptureSchedule::onAttachStart(int64_t t) {
    if (config_.attach) openAt(attach_, t);
}

void CaptureSchedule::onAttachStop(int64_t t) {
    if (config_.attach) closeAt(attach_, t);
}

bool CaptureSchedule::inside(const std::vector<CaptureWindow>& w, int64_t t) {
    // First window whose end is after t; t is inside it when its start is <= t.
    auto it = std::upper_bound(w.begin(), w.end(), t,
                               [](int64_t v, const CaptureWindow& x) { return v < x.end; });
    return it != w.end() && it->start <= t;
}

bool CaptureSchedule::captures(int64_t t) const {
    if (config_.maxDurationNs > 0 && t >= origin_ + config_.maxDurationNs) return false;
    if (config_.scheduleEnabled() && !inside(schedule_, t)) return false;
    if (config_.rangeEnabled() && !inside(range_, t)) return false;
    if (config_.attach && !inside(attach_, t)) return false;
    return true;
}

bool CaptureSchedule::capturesMarker(std::string_view name, int64_t t,
                                     int64_t end) const { // t: start
    if (captures(t)) return true;
    if (end != t && !captures(end)) return false;
    // The first window of `w` that starts after t, when it starts within the lead and is kept.
    auto opensSoon = [&](const std::vector<CaptureWindow>& w) {
        auto it = std::upper_bound(w.begin(), w.end(), t,
                                   [](int64_t v, const CaptureWindow& x) { return v < x.start; });
        return it != w.end() && it->start - t <= kMarkerLeadNs && captures(it->start);
    };
    if (config_.scheduleEnabled() && name == config_.stepName && opensSoon(schedule_)) return true;
    return config_.nvtxRange() && name == config_.rangeName && opensSoon(range_);
}

bool CaptureSchedule::finished(int64_t now) const {
    if (config_.maxDurationNs > 0 && now >= origin_ + config_.maxDurationNs) return true;
    if (config_.scheduleEnabled() && config_.repeat > 0 && phaseOf(steps_) == Phase::Done) {
        return schedule_.empty() || schedule_.back().end != INT64_MAX;
    }
    return false;
}

} // namespace strata

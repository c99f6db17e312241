#pragma once
// What Strata calls processes, GPU devices and tracks, in one place for every view: the track
// tree's group headers and rows, the Details panel's "Track" field, exports. A process or thread
// an export renumbered shows the id it had (Process::originalPid): "python3 0" stays itself.
#include "model/trace.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace strata {

// "python 4242" (the process name and pid; "Process 4242" without a name).
std::string processGroupName(const Trace& trace, int64_t pid);
// "GPU 0 (NVIDIA H100 80GB HBM3)" (the device name when the trace has its properties); in a file
// of several traces Strata wrote, the name its GPU process has there ("rank 1: GPU 0").
std::string deviceGroupName(const Trace& trace, int32_t device);
// A track's row in its group: "MainThread 4243", "Stream 7", a counter's or an async track's
// name, "Instants". Extra lanes of a thread or stream share their base track's row.
std::string trackRowName(const Trace& trace, const Track& track);
// A thread's row, "MainThread 4243", whether or not it has a track (a thread with samples
// alone is named as its track would be).
std::string threadRowName(const Trace& trace, int64_t pid, int64_t tid);
// A track on its own, with where it lives: "MainThread [4243] · python [4242]",
// "GPU 0 · stream 7", "... (lane 2)" for an extra lane.
std::string trackFullName(const Trace& trace, TrackId id);
// A GPU counter a profiler recorded (rpd's monitors, Nsight's GPU metrics), kept on the device's
// pid: "GPU 0 SMs Active".
std::string gpuCounterName(int64_t device, std::string_view metric);
// A counter's device and metric when its name is a GPU counter's (`GPU <device> <metric>`, as
// gpuCounterName makes it, or a Kineto counter event "GPU 0" with an argument "SM Active").
std::optional<std::pair<int32_t, std::string>> parseGpuCounterName(std::string_view name);

} // namespace strata

#pragma once
// A trace's first frames while it loads (issue 49): what has been read so far (io/load_preview.h)
// as a Trace of its own, which the window's timeline draws in the place, with the ruler, rows and
// labels, of the trace to come, instead of a page of its own. Each preview lane becomes its track
// (a GPU stream's, a CPU thread's); each bin the lane was busy in becomes a slice from the bin's
// start, as long as the lane's busy share of the bin, and a run of wholly busy bins one slice, so
// a lane reads as busy where and as much as it was (a CPU thread's nested slices count over their
// parents: its shape, not a measure). The slices are named kPreviewGpuName / kPreviewCpuName, in
// the preview's colours (a GPU stream's in the kernel blue, a thread's in grey); a GPU stream's are
// of kind Kernel, so the timeline's busy bands show where the GPU worked, a thread's Generic. No
// slice has a correlation: there are no launches, and the timeline finds no gaps in a preview
// (TimelineView). The trace's metadata "preview" says how much of the file was read.
#include "io/load_preview.h"
#include "model/trace.h"

#include <memory>
#include <string>
#include <string_view>

namespace strata {

inline constexpr std::string_view kPreviewGpuName = "GPU busy (read so far)";
inline constexpr std::string_view kPreviewCpuName = "CPU busy (read so far)";

std::shared_ptr<const Trace> previewTrace(const LoadPreview& preview);
// What a preview trace's metadata says of it ("42 % of the file read, 1234 slices"); empty for
// any other trace.
std::string previewOf(const Trace& trace);

} // namespace strata

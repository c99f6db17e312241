#pragma once
// Where each CUDA/HIP API call came from in the program's Python (issue 45): its call site, the
// innermost Python frame of the user's own code among the python_function slices enclosing it on
// its thread (any lane: a slice the builder moved to an extra lane still encloses by time). A
// frame of the user's own code is a source frame, `path/file.py(LINE): function`, that is not a
// library's (frame_roles.h: isLibraryPythonFrame); where no such frame encloses the call, the
// innermost python_function slice at all (a library frame, a `<built-in ...>`, an nn.Module);
// where none, the Python stack the collector took at the call (a StackKind::ApiCall stack
// sample, --python sample, when the call holds the GIL: the last one at or before the call's end
// taken after the thread's previous call ended, however long before the call's start the thread
// was held), else the thread's Python sample nearest
// the call within one sampling period (a call made with the GIL released, as PyTorch's ops do:
// the line of Python around it, to a period): its innermost user frame, else its innermost;
// where none of these, the call has no site. A GPU op's site is its launch's (Trace::launchOf).
//
// A site is shown as `path/file.py:LINE function` (callSiteText); sites are told apart by that
// text, so two frames of one line (a `<built-in method ... at 0x...>` of two objects) are one.
// Computed once per trace (TraceAnalysis::launchSites); the Details dock asks for one call.
#include "model/trace.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace strata {

// "path/file.py(12): f" -> "path/file.py:12 f"; "<built-in method to of Tensor object at
// 0x7f..>" -> "<built-in method to of Tensor object>"; any other name as it is.
std::string callSiteText(std::string_view frameName);
// A Python source frame's name: `path(LINE): function` (LINE decimal digits).
bool isPythonSourceFrame(std::string_view name);
// A frame of the user's own code: a source frame that is not a library's.
bool isUserPythonFrame(std::string_view name);
// The frame (its name) of the sampled stack that tells where the call [start, end) on `thread`
// came from (the rule above; `notBefore`: the end of the thread's call before it, so that an
// ApiCall stack taken before is that call's; `window`: a sampling period); 0 when there is none.
StringId sampledCallFrame(const Trace& trace, const Track& thread, TimeNs start, TimeNs end,
                          TimeNs notBefore, TimeNs window);

// The python_function slice that is the call site of `slice` (any slice of a thread track; the
// rule above), or an invalid ref. O(depth x lanes of its thread).
SliceRef pythonCallSiteFrame(const Trace& trace, SliceRef slice);
// The same for the GPU op's launch, or for `slice` itself when it is not a GPU op.
SliceRef pythonCallSiteOf(const Trace& trace, SliceRef slice);

class LaunchSites {
public:
    static constexpr uint32_t kNone = UINT32_MAX;
    // The site of an API call (CudaRuntime / CudaDriver slice), kNone when it has none.
    uint32_t siteOf(SliceRef apiCall) const;
    // The site of a GPU op (through its launch), or of an API call; kNone when none.
    uint32_t siteOfOp(const Trace& trace, SliceRef op) const;
    size_t size() const { return texts_.size(); }
    const std::string& text(uint32_t site) const { return texts_[site]; }
    size_t callsWithSite() const { return callsWithSite_; }
    size_t callsWithoutSite() const { return callsWithoutSite_; }

private:
    friend LaunchSites findLaunchSites(const Trace& trace);
    // Per track: (API call, site) of its calls that have a site, by slice index (8 bytes a
    // call, nothing for the other slices); looked up by binary search.
    std::vector<std::vector<std::pair<SliceIndex, uint32_t>>> perTrack_;
    std::vector<std::string> texts_;
    size_t callsWithSite_ = 0, callsWithoutSite_ = 0;
};

// Every API call's site, in one pass over the thread tracks' API calls.
LaunchSites findLaunchSites(const Trace& trace);

} // namespace strata

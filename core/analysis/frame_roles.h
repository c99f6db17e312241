#pragma once
// What a CPU slice is to someone reading why the GPU waited (gap_breakdown.h): a frame they
// recognise (an aten:: or other CPU op, an nn.Module, a record_function / NVTX range, a Python
// frame of their own code rather than of a library), an input-pipeline span (a DataLoader's
// `enumerate(DataLoader)#...__next__`, torch/utils/data), a blocking CUDA/HIP call (it waits for
// the device), another runtime call (a launch, an event record), or an annotation (a range that
// says where the program was, not what it did: time under it with nothing traced below is
// untraced time; the profiler's ProfilerStep#N is one, and no context). Roles that depend on the
// name are decided once per name and cached, so a FrameRoles belongs to one thread.
#include "model/trace.h"

#include <string_view>
#include <vector>

namespace strata {

// A blocking call by its name: device, stream, event or context synchronize, a synchronous copy
// or set, a syncing allocation or free (CUDA runtime and driver, HIP).
bool isBlockingCallName(std::string_view name);
// A Python frame of a library (the standard library, torch, transformers, numpy, ...) by its
// Kineto name "path(line): function": the file's top-level package is a known one, or the path
// lies under site-packages, dist-packages or lib/python. `<built-in ...>` frames too.
bool isLibraryPythonFrame(std::string_view name);
// An input pipeline span: `enumerate(DataLoader)#...` or `enumerate(DataPipe)#...`, a DataLoader
// iterator's frame, torch/utils/data.
bool isInputPipelineName(std::string_view name);

class FrameRoles {
public:
    enum Role : uint8_t {
        kRecognised = 1,    // shown as the context of the work below it
        kInputPipeline = 2, // a DataLoader span
        kBlocking = 4,      // a runtime call that waits for the device
        kApiCall = 8,       // any CUDA/HIP runtime or driver call
        kAnnotation = 16,   // a range only: time under it with nothing below is untraced
    };
    explicit FrameRoles(const Trace& trace);
    uint8_t of(const SliceColumns& c, SliceIndex i);

private:
    uint8_t byName(StringId name, bool pythonFrame);
    const Trace& trace_;
    std::vector<uint8_t> names_; // per name: its bits once decided (0: not yet)
};

} // namespace strata

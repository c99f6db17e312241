#pragma once
// A gap's explanation as words, one wording for strata-cli gaps, the Gaps dock and the timeline's
// tooltip (widgets/style/gap_style.h wraps these): why the GPU waited in a line, and each part of
// its breakdown (gap_breakdown.h).
#include "analysis/gaps/gap_causes.h"

#include <string>
#include <string_view>

namespace strata {

// One part: "aten::copy_ in enumerate(DataLoader)#...__next__", "blocked in
// cudaStreamSynchronize", "blocked in cudaMemcpyAsync (pageable memory)", "hipLaunchKernel in
// aten::add_ (first launch: module loading)", "untraced under ## forward ##", "queued after the
// launch returned", "12 more frames". Names are cut to `maxName` characters (0: whole).
std::string gapPartText(const Trace& trace, const GapPart& part, size_t maxName = 0);
// Why, in a line: "input pipeline: 118 ms under enumerate(DataLoader)#...", "CPU busy in zoom
// (in preprocess) 120 ms", "blocked in cudaStreamSynchronize 80 µs", "launch calls:
// cudaLaunchKernel 30 µs", "waited on ncclKernel_SendRecv (ended 2 µs before)", "waited on the
// device: not visible in the trace", "no launch call in the trace".
std::string gapReason(const Trace& trace, const ExplainedGap& gap, size_t maxName = 0);

// A thread blocked while the gap lasted (gap_causes.h: ThreadWait): "thread 4242 (pt_main)
// blocked in cudaStreamSynchronize 80.00 µs (the whole gap)", "the launching thread, after its
// launch, blocked in cudaMemcpyAsync (pageable memory) 1.2 ms".
std::string threadWaitText(const Trace& trace, const ThreadWait& wait, TimeNs gapLength,
                           size_t maxName = 0);

// A driver call that loads a kernel's module (cuLibraryLoadData, cuModuleLoad...,
// hipModuleLoad...): with lazy loading (CUDA_MODULE_LOADING=LAZY, the default since CUDA 12.2) it
// runs inside a kernel's first launch, a one-time warm-up cost rather than launch overhead.
bool isModuleLoadingName(std::string_view name);

} // namespace strata

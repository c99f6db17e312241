#pragma once
// GPU time by GPU-side user annotation (issue 46): Kineto writes a record_function range's
// extent on each GPU stream its work ran on as a `gpu_user_annotation` slice (SliceKind
// GpuUserAnnotation, on that stream's track). Over the GPU ops that start in a range:
//   attribution  each kernel, copy and set belongs to the innermost annotation it overlaps on
//                its own stream (same device and stream: HTA's same pid and tid), as HTA's
//                get_gpu_kernels_with_user_annotations does: any overlap counts (op.start <
//                annotation end and annotation start < op.end, so a 0 ns op at an annotation's
//                start is not in it), and an op that crosses an annotation's edge belongs to it
//                whole; innermost = the shortest overlapping annotation (HTA keeps the last of
//                the annotations taken longest first); of equal lengths, the one that starts
//                later, then the later in the trace. An op under no annotation belongs to none.
//   per name     ops and kernels attributed; GPU time = per device the union of those ops'
//                intervals, summed over devices; share = GPU time / the busy time of every
//                device (the union of all its ops, kernel_stats.h); the annotations of the
//                name that start in the range and their summed duration (HTA's
//                get_gpu_user_annotation_breakdown "sum": the annotation's own span, not its
//                ops).
#include "model/trace.h"

#include <string>
#include <vector>

namespace strata {

struct GpuOpList;

struct GpuAnnotationRow {
    StringId nameId = 0;
    std::string name;
    uint64_t ops = 0, kernels = 0; // attributed to this name
    TimeNs gpuTime = 0;            // per device union of their intervals, summed
    double share = 0;              // gpuTime / busyTime
    uint64_t annotations = 0;      // slices of this name that start in the range
    TimeNs annotatedTime = 0;      // their summed durations
};

struct GpuAnnotations {
    uint64_t annotations = 0;           // gpu_user_annotation slices that start in the range
    uint64_t ops = 0;                   // GPU ops in the range
    uint64_t attributedOps = 0;         // of those, the ones under an annotation
    TimeNs busyTime = 0;                // union of all ops per device, summed
    std::vector<GpuAnnotationRow> rows; // by GPU time, then annotated time, descending; name
};

GpuAnnotations attributeGpuAnnotations(const Trace& trace, const GpuOpList& ops);

} // namespace strata

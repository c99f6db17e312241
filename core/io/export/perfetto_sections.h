#pragma once
// In-kernel sections (model/kernel_sections.h) in a Perfetto JSON export: each closed section of
// each block is an X slice named after its section (category "gpu_section") on a thread of its
// GPU device's process, one thread per SM ("SM 7 sections"), with more threads for an SM where
// sections overlap in time (blocks resident together, concurrent launches: "SM 7 sections, slot
// 1"), so that slices stay strictly nested per thread. Times are the records' %globaltimer
// shifted to the trace's clock at the kernel's start (model/section_placement.h), as the
// timeline draws them; the block, warp, iteration, cycles, kernel and correlation go in args.
// Sets that cannot be placed (no %globaltimer times, or no kernel slice of their launch in the
// trace) are not written and are counted.
#include "io/export/json_out.h"
#include "io/export/perfetto_json_export.h"
#include "io/set/part_ids.h"
#include "model/trace.h"

#include <functional>
#include <optional>

namespace strata {

struct SectionEventSink {
    std::function<void()> beginEvent; // the separator before an event, and its count
    std::function<bool(size_t)> tick; // progress by samples; false: stop (cancelled)
};

// Samples in the trace's section sets (for the progress total).
size_t sectionSampleCount(const Trace& t);

// Writes the sections (thread metadata and X events); fills the result's section counts. False
// when `tick` said stop.
bool writeSectionSlices(JsonOut& out, const Trace& t, PartIds& ids, TimeNs origin,
                        const std::optional<TimeRange>& range, const SectionEventSink& sink,
                        PerfettoExportResult& r);

} // namespace strata

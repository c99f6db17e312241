#pragma once
// Where a launch's in-kernel sections (model/kernel_sections.h) lie on the trace: the kernel
// slice of the launch, and the shift from the device's %globaltimer ns to the trace's clock (the
// two differ by an offset, so a launch's sections are placed from its kernel's start). One
// definition for the timeline's lanes, the Sections view and the export.
#include "model/trace.h"

namespace strata {

// The kernel slice of a set's launch (by correlation id and kernel name), or invalid.
SliceRef kernelOfSections(const Trace& trace, const SectionSet& set);

// The shift from a set's raw device ns to trace time: its kernel's start minus the set's earliest
// start, so the first section begins where the kernel does. 0 when the launch has no kernel slice
// in the trace (an imported file) or the set has no times.
TimeNs sectionTimeShift(const Trace& trace, const SectionSet& set);

} // namespace strata

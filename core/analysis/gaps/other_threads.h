#pragma once
// Who else was waiting while a GPU gap lasted (issue 44): a gap's breakdown covers the launching
// thread until its launch call returned; this names, for every thread of the launching process,
// the blocking call it spent the most of the gap in — a synchronize or another blocking call
// (frame_roles.h), an asynchronous copy to or from pageable memory, a wait (host_waits.h) — and
// for the launching thread itself the same after its launch call returned (a dependency's whole
// gap). Per thread one call; the threads by that time, most first, at most kMaxThreadWaits.
// One pass over the slices open at the gap's start and those that start inside it, per lane.
#include "analysis/gaps/gap_causes.h"

#include <vector>

namespace strata {

class GapContext;

constexpr size_t kMaxThreadWaits = 4;

std::vector<ThreadWait> threadWaits(GapContext& context, SliceRef launch, TimeNs start, TimeNs end);

} // namespace strata

#pragma once
// Background work yields to the window: a worker thread (the job pool's, the trace cache's
// writer, a load) runs at a lower scheduling priority than the GUI thread, so a frame or an input
// event is not kept waiting behind two busy cores. Threads a lowered thread starts inherit it.
namespace strata {

// Lowers the calling thread's priority (Linux: its nice value to kBackgroundNice; elsewhere
// nothing). Idempotent; never fails loudly (a refusal leaves the thread as it was).
void lowerThreadPriority();

} // namespace strata

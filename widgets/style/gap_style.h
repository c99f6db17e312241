#pragma once
// How a GPU idle gap looks and reads in every view (the timeline, its legend, the Gaps dock):
// the colour of its cause and the text that explains it (the words are core's:
// analysis/gap_text.h, so strata-cli gaps says the same).
#include "analysis/gaps/gap_causes.h"

#include <QRgb>
#include <QString>

#include <iterator>

namespace strata {

// The colour of a gap's cause: CPU-bound red, launch overhead teal, synchronization orange,
// dependency violet, unattributed grey.
inline QRgb gapCauseColor(int cause) {
    constexpr QRgb colors[] = {0xffd6453a, 0xff2a9d8f, 0xffe8892b, 0xff8e5bc6, 0xff8c8c8c};
    static_assert(std::size(colors) == kGapCauseCount);
    return cause >= 0 && cause < kGapCauseCount ? colors[cause] : colors[0];
}

// A cause as users read it: "CPU-bound", "launch overhead", "synchronization", ...
QString gapCauseText(GapCause cause);

// What a gap's tooltip says: its length and cause, how late the launch was and why in a line,
// then where the gap's time went on the launching thread, part by part ("GPU idle 291 µs ·
// CPU-bound\nlaunched 270 µs late; CPU busy: aten::index_select in nn.Module: Embedding_0 40 µs
// \nOn the launching thread:\n  120 µs  ..."), then the process's threads blocked while it
// lasted ("\nMeanwhile, blocked:\n  thread 12 (pt_main) was blocked in cudaStreamSynchronize
// 300 µs (the whole gap)").
QString gapDescription(const Trace& trace, const ExplainedGap& e);

} // namespace strata

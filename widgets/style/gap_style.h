#pragma once
// How a GPU idle gap looks and reads in every view (the timeline, its legend, the Gaps dock):
// the colour of its cause and the text that explains it.
#include "analysis/gap_causes.h"

#include <QRgb>
#include <QString>

namespace strata {

// The colour of a gap's cause: launch_bound red, synchronization orange, dependency violet,
// unattributed grey.
inline QRgb gapCauseColor(int cause) {
    constexpr QRgb colors[] = {0xffd6453a, 0xffe8892b, 0xff8e5bc6, 0xff8c8c8c};
    return cause >= 0 && cause < kGapCauseCount ? colors[cause] : colors[0];
}

// What a gap's tooltip says: its length and cause, how late the launch was, the blocking call or
// what a dependency waited on, and the CPU work on the launching thread ("GPU idle 26.0 µs ·
// launch_bound\nlaunched 20.0 µs late; traced CPU work covered 80 % of it\nCPU: aten::mm 12.0 µs").
QString gapDescription(const Trace& trace, const ExplainedGap& e);

} // namespace strata

#pragma once
// A track's name as the panels show it: "python3 (main) [4242]", "GPU 0 · stream 7",
// counter/async names. (The timeline's track tree draws its own labels.)
#include "model/trace.h"
#include "qt_text.h"

#include <QString>

namespace strata {

QString trackLabel(const Trace& trace, TrackId id);

} // namespace strata

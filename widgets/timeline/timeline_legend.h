#pragma once
// What the timeline's GPU colours mean, said once: the ? help shows it, and so does the tooltip
// of a GPU-idle row and of a stream's row.
#include <QString>

namespace strata {

// Rich text: the red (time in idle gaps longer than the threshold, as a share of each pixel
// column), the hatching (no GPU work anywhere in the column), the grey strip (busy), and the
// threshold (the toolbar's "Launch gaps ≥").
QString timelineLegendHtml(double thresholdUs);

} // namespace strata

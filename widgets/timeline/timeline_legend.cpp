#include "timeline/timeline_legend.h"

#include <QObject>

namespace strata {

QString timelineLegendHtml(double thresholdUs) {
    return QObject::tr(
               "<b>GPU rows</b><br>"
               "Idle gaps longer than the threshold (now %1 \u00b5s; the toolbar's \u201cLaunch "
               "gaps \u2265\u201d), coloured by why the GPU waited: "
               "<span style='background:#d6453a;color:white'>&nbsp;CPU-bound&nbsp;</span> "
               "(the launching thread was busy elsewhere: the tooltip names the work), "
               "<span style='background:#2a9d8f;color:white'>&nbsp;launch overhead&nbsp;</span> "
               "(it was in launch calls), "
               "<span style='background:#e8892b;color:white'>&nbsp;synchronization&nbsp;</span> "
               "(it was blocked in a synchronizing call most of the gap), "
               "<span style='background:#8e5bc6;color:white'>&nbsp;dependency&nbsp;</span> "
               "(launched in time, waited on other work), "
               "<span style='background:#8c8c8c;color:white'>&nbsp;unattributed&nbsp;</span> "
               "(no launch in the trace). Hover one for why; click it to select its launch call "
               "and the CPU work behind it. At coarse zoom each pixel column is coloured as high "
               "as the share of its time spent in such gaps, in the colour of the cause with the "
               "most of it: a 12 \u00b5s gap in a 500 \u00b5s column shows as nothing, a gap "
               "wider than a pixel as itself, with its length where there is room.<br>"
               "<span style='background:#f7dcd8;color:#d98a80'>&nbsp;////&nbsp;</span> hatched: "
               "no kernel, copy or set runs anywhere in that column (any idle time, however "
               "short).<br>"
               "<span style='background:#b9c2cc'>&nbsp;&nbsp;&nbsp;&nbsp;</span> grey strip: "
               "the stream (or, on the GPU-idle row, the device) is busy.<br>"
               "A stream's gaps are the holes between its kernels, copies and sets; the device's "
               "the holes in the union of all its streams.")
        .arg(thresholdUs, 0, 'g', 6);
}

} // namespace strata

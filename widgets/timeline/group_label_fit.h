#pragma once
// A group header's label in the track tree's width (issue 44: "GPU 0 (NVIDIA H100 80GB H…" lost
// the device's name). A label that fits is drawn whole in bold. A device's "GPU 0 (NAME)" that
// does not keeps "GPU 0" bold and its name whole in the regular weight, smaller if it must (to
// 80 %), then without the vendor's word ("NVIDIA ", "AMD ", "Intel "); only a name longer than
// all that loses its middle. Any other label is elided at its end, as before.
#include <QFont>
#include <QString>

namespace strata {

struct FittedGroupLabel {
    QString head; // drawn in headFont ("GPU 0", or the whole label)
    QString tail; // then this in tailFont (" (NVIDIA H100 80GB HBM3)"), or empty
    QFont headFont, tailFont;
    QString text() const { return head + tail; }
    int width() const; // both parts' advance
};

// `label` in `width` px, `bold` being the header's font.
FittedGroupLabel fitGroupLabel(const QString& label, const QFont& bold, int width);

} // namespace strata

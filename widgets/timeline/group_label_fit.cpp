#include "group_label_fit.h"

#include <QFontMetrics>

#include <algorithm>

namespace strata {

namespace {

int advance(const QFont& f, const QString& s) {
    return QFontMetrics(f).horizontalAdvance(s);
}

// "GPU 0 (NVIDIA H100)" -> {"GPU 0", " (NVIDIA H100)"}; false for a label without a name in
// parentheses at its end.
bool splitName(const QString& label, QString* head, QString* tail) {
    const qsizetype open = label.lastIndexOf(QStringLiteral(" ("));
    if (open <= 0 || !label.endsWith(QLatin1Char(')'))) return false;
    *head = label.left(open);
    *tail = label.mid(open);
    return true;
}

QString withoutVendor(QString tail) {
    for (const char* vendor : {"NVIDIA ", "AMD ", "Intel "})
        if (tail.startsWith(QStringLiteral(" (") + QLatin1String(vendor)))
            return tail.remove(2, qsizetype(qstrlen(vendor)));
    return tail;
}

// The regular weight of `bold`, `scale` times its size.
QFont scaled(const QFont& bold, double scale) {
    QFont f = bold;
    f.setBold(false);
    if (bold.pointSizeF() > 0)
        f.setPointSizeF(bold.pointSizeF() * scale);
    else if (bold.pixelSize() > 0)
        f.setPixelSize(std::max(1, int(bold.pixelSize() * scale + 0.5)));
    return f;
}

} // namespace

int FittedGroupLabel::width() const {
    return advance(headFont, head) + (tail.isEmpty() ? 0 : advance(tailFont, tail));
}

FittedGroupLabel fitGroupLabel(const QString& label, const QFont& bold, int width) {
    FittedGroupLabel out{label, QString(), bold, bold};
    QString head, tail;
    if (out.width() <= width) return out;
    if (!splitName(label, &head, &tail)) {
        out.head = QFontMetrics(bold).elidedText(label, Qt::ElideRight, width);
        return out;
    }
    if (advance(bold, head + QStringLiteral(" (…)")) > width) { // no room for any name
        out.head = QFontMetrics(bold).elidedText(label, Qt::ElideRight, width);
        return out;
    }
    out.head = head;
    for (const QString& t : {tail, withoutVendor(tail)}) {
        for (double scale : {1.0, 0.9, 0.8}) {
            out.tail = t;
            out.tailFont = scaled(bold, scale);
            if (out.width() <= width) return out;
        }
    }
    out.tail = QFontMetrics(out.tailFont)
                   .elidedText(out.tail, Qt::ElideMiddle, width - advance(bold, head));
    return out;
}

} // namespace strata

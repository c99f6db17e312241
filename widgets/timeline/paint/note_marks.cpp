#include "note_marks.h"

#include "model/names/time_text.h"
#include "style/note_style.h"

#include <QFontMetrics>
#include <QPolygon>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace strata {

namespace {

constexpr int kTagHeight = 16;
constexpr int kTagLanes = 3; // tags that would overlap go one below the other

QString shown(const TimelineNote& n) {
    return n.text.empty() ? (n.flag ? QStringLiteral("flag") : QStringLiteral("note"))
                          : QString::fromStdString(n.text);
}

int xOf(const TimelineState& s, TimeNs t) {
    return static_cast<int>(std::lround(s.axis.xForTime(t)));
}

// Tags of each note's text at the top of the tracks, each in the first lane where it fits.
void paintTags(QPainter& p, const TimelineState& s, int w, const NoteColors& c) {
    const QFontMetrics fm = p.fontMetrics();
    std::array<int, kTagLanes> laneRight;
    laneRight.fill(-1000000);
    std::vector<size_t> order(s.notes.size()); // left to right, so that lanes fill in turn
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return s.notes[a].start < s.notes[b].start; });
    for (size_t i : order) {
        const TimelineNote& n = s.notes[i];
        const int x0 = xOf(s, n.start), x1 = n.flag ? xOf(s, n.end) : x0;
        if (x1 < 0 || x0 > w) continue;
        const int left = std::max(x0, 0) + 3;
        const int room = n.flag ? std::clamp(x1 - left - 3, 60, 260) : 220;
        const QString text = fm.elidedText(shown(n), Qt::ElideRight, room);
        const int tagW = fm.horizontalAdvance(text) + 8;
        int lane = 0;
        while (lane < kTagLanes - 1 && left < laneRight[size_t(lane)] + 4) ++lane;
        laneRight[size_t(lane)] = left + tagW;
        const QRect tag(left, 2 + lane * (kTagHeight + 2), tagW, kTagHeight);
        const bool selected = int(i) == s.selectedNote;
        const QColor edge =
            n.flag ? (selected ? c.flagSelected : c.flag) : (selected ? c.noteSelected : c.note);
        p.fillRect(tag, c.tag);
        p.setPen(edge);
        p.drawRect(tag.adjusted(0, 0, -1, -1));
        p.setPen(c.tagText);
        p.drawText(tag.adjusted(4, 0, -4, 0), Qt::AlignLeft | Qt::AlignVCenter, text);
    }
}

} // namespace

void paintNoteMarks(QPainter& p, const TimelineState& s, int w, int h) {
    if (s.notes.empty() || !s.trace) return;
    const NoteColors c = noteColors();
    p.save();
    for (size_t i = 0; i < s.notes.size(); ++i) {
        const TimelineNote& n = s.notes[i];
        const bool selected = int(i) == s.selectedNote;
        if (n.flag) {
            const QRect rc = s.spanRect(n.start, n.end, 0, h);
            if (rc.right() < 0 || rc.left() > w) continue;
            p.fillRect(rc, c.flagBand);
            p.setPen(QPen(selected ? c.flagSelected : c.flag, selected ? 2 : 1));
            p.drawLine(rc.left(), 0, rc.left(), h);
            p.drawLine(rc.right(), 0, rc.right(), h);
        } else {
            const int x = xOf(s, n.start);
            if (x < -1 || x > w + 1) continue;
            p.setPen(QPen(selected ? c.noteSelected : c.note, selected ? 2 : 1));
            p.drawLine(x, 0, x, h);
        }
    }
    paintTags(p, s, w, c);
    p.restore();
}

void paintRulerNoteMarks(QPainter& p, const TimelineState& s, int w, int h) {
    if (s.notes.empty() || !s.trace) return;
    const NoteColors c = noteColors();
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    for (size_t i = 0; i < s.notes.size(); ++i) {
        const TimelineNote& n = s.notes[i];
        const bool selected = int(i) == s.selectedNote;
        if (n.flag) {
            const QRect rc = s.spanRect(n.start, n.end, 0, h);
            if (rc.right() < 0 || rc.left() > w) continue;
            const QColor col = selected ? c.flagSelected : c.flag;
            p.fillRect(QRect(rc.left(), 0, rc.width(), 4), col);
            p.fillRect(QRect(rc.left(), 0, 2, kRulerMarkHeight), col);
            p.fillRect(QRect(rc.right() - 1, 0, 2, kRulerMarkHeight), col);
        } else {
            const int x = xOf(s, n.start);
            if (x < -5 || x > w + 5) continue;
            const QColor col = selected ? c.noteSelected : c.note;
            p.setPen(Qt::NoPen);
            p.setBrush(col);
            p.drawPolygon(
                QPolygon({QPoint(x - 5, 0), QPoint(x + 5, 0), QPoint(x, kRulerMarkHeight)}));
            p.fillRect(QRect(x, kRulerMarkHeight, 1, h - kRulerMarkHeight), col);
        }
    }
    p.restore();
}

int noteAtX(const TimelineState& s, double x, bool inside) {
    int best = -1;
    double bestDist = 4.5;
    for (size_t i = 0; i < s.notes.size(); ++i) {
        const TimelineNote& n = s.notes[i];
        double d = std::abs(x - s.axis.xForTime(n.start));
        if (n.flag) d = std::min(d, std::abs(x - s.axis.xForTime(n.end)));
        if (d < bestDist) bestDist = d, best = int(i);
    }
    if (best >= 0 || !inside) return best;
    const TimeNs t = s.axis.timeForX(x);
    for (size_t i = 0; i < s.notes.size(); ++i) {
        const TimelineNote& n = s.notes[i];
        if (n.flag && n.start <= t && t < n.end &&
            (best < 0 || n.end - n.start < s.notes[size_t(best)].end - s.notes[size_t(best)].start))
            best = int(i);
    }
    return best;
}

QString noteTooltip(const TimelineState& s, const TimelineNote& n) {
    const TimeNs origin = s.trace ? s.trace->bounds().start : 0;
    auto at = [&](TimeNs t) { return QString::fromStdString(formatPreciseDuration(t - origin)); };
    if (!n.flag) return QStringLiteral("Note at %1\n%2").arg(at(n.start), shown(n));
    return QStringLiteral("Flag %1 \u2013 %2 (%3)\n%4")
        .arg(at(n.start), at(n.end), QString::fromStdString(formatPreciseDuration(n.end - n.start)),
             shown(n));
}

} // namespace strata

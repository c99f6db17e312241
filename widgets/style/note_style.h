#pragma once
// The colours of the user's notes and flags on the timeline (timeline/paint/note_marks.h), in
// the theme now in use (theme.h): a note a magenta line and marker, a flag a teal band, each
// label a tag in the ruler's colours.
#include "theme.h"

#include <QColor>

namespace strata {

struct NoteColors {
    QColor note, noteSelected; // a note's line and ruler marker
    QColor flag, flagSelected; // a flag's edges and ruler bar
    QColor flagBand;           // a flag's band across the tracks
    QColor tag, tagText;       // the label tag
};

inline NoteColors noteColors() {
    const ThemeColors t = themeColors();
    NoteColors c;
    c.note = t.dark ? QColor(0xf0, 0x6e, 0xc8) : QColor(0xc2, 0x18, 0x8c);
    c.noteSelected = t.dark ? QColor(0xff, 0xb0, 0xe8) : QColor(0x80, 0x00, 0x5c);
    c.flag = t.dark ? QColor(0x3c, 0xc8, 0xb4) : QColor(0x0e, 0x8a, 0x7a);
    c.flagSelected = t.dark ? QColor(0x9c, 0xf0, 0xe2) : QColor(0x04, 0x50, 0x46);
    c.flagBand = c.flag;
    c.flagBand.setAlpha(t.dark ? 40 : 28);
    c.tag = t.ruler;
    c.tag.setAlpha(230);
    c.tagText = t.rulerText;
    return c;
}

} // namespace strata

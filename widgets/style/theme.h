#pragma once
// Light and dark: the window follows the system's palette (Qt's platform theme) unless the user
// chose one (View > Theme, `strata --theme`, kept in the settings). The timeline's own surfaces
// (background, group bands, separators, the ruler, the track names) come from ThemeColors, the
// light theme's being the colours the timeline always had; the slices' colours serve both.
#include <QColor>
#include <QString>

namespace strata {

enum class Theme { System, Light, Dark };

Theme themeFromName(const QString& name, bool* ok = nullptr); // "system", "light", "dark"
QString themeName(Theme theme);
// Applies `theme` to the application (the Fusion style with a light or dark palette; System:
// the platform's own style and palette, as at start).
void applyTheme(Theme theme);
Theme currentTheme();
// The theme kept in the settings (System when none was chosen), and keeping one.
Theme savedTheme();
void saveTheme(Theme theme);

// The surfaces of the timeline in the palette now in use.
struct ThemeColors {
    bool dark = false;
    QColor background, headerBand, separator;      // tracks area
    QColor ruler, rulerLine, rulerTick, rulerText; // the time ruler
    QColor tree, treeGroup, treeText, treeMuted;   // the track names
    QColor treeLine, mutedText;
};
ThemeColors themeColors();

} // namespace strata

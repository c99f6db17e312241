#include "theme.h"

#include <QApplication>
#include <QPalette>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>

namespace strata {

namespace {

Theme current = Theme::System;

struct Platform {
    QString style;
    QPalette palette;
};

// The platform's style and palette, as the application started with them.
const Platform& platform() {
    static const Platform p{QApplication::style() ? QApplication::style()->name() : QString(),
                            QApplication::palette()};
    return p;
}

QPalette darkPalette() {
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31), base(0x1f, 0x21, 0x24), text(0xe6, 0xe8, 0xeb);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x27, 0x29, 0x2d));
    p.setColor(QPalette::ToolTipBase, QColor(0x35, 0x38, 0x3d));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x8a, 0x90, 0x98));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x33, 0x36, 0x3b));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Link, QColor(0x6c, 0xa8, 0xf0));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x7a, 0xc8));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Light, QColor(0x45, 0x48, 0x4e));
    p.setColor(QPalette::Midlight, QColor(0x3a, 0x3d, 0x42));
    p.setColor(QPalette::Mid, QColor(0x30, 0x33, 0x37));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1c));
    p.setColor(QPalette::Shadow, Qt::black);
    for (QPalette::ColorRole r : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, r, QColor(0x76, 0x7b, 0x82));
    return p;
}

} // namespace

Theme themeFromName(const QString& name, bool* ok) {
    const QString n = name.trimmed().toLower();
    if (ok) *ok = true;
    if (n == QLatin1String("light")) return Theme::Light;
    if (n == QLatin1String("dark")) return Theme::Dark;
    if (ok) *ok = n == QLatin1String("system");
    return Theme::System;
}

QString themeName(Theme theme) {
    switch (theme) {
    case Theme::Light:
        return QStringLiteral("light");
    case Theme::Dark:
        return QStringLiteral("dark");
    case Theme::System:
        break;
    }
    return QStringLiteral("system");
}

void applyTheme(Theme theme) {
    const Platform& p = platform();
    current = theme;
    switch (theme) {
    case Theme::System:
        if (!p.style.isEmpty()) QApplication::setStyle(QStyleFactory::create(p.style));
        QApplication::setPalette(p.palette);
        return;
    case Theme::Light:
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(QApplication::style()->standardPalette());
        return;
    case Theme::Dark:
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(darkPalette());
        return;
    }
}

Theme currentTheme() {
    return current;
}

Theme savedTheme() {
    return themeFromName(QSettings().value(QStringLiteral("view/theme")).toString());
}

void saveTheme(Theme theme) {
    QSettings().setValue(QStringLiteral("view/theme"), themeName(theme));
}

ThemeColors themeColors() {
    const QPalette pal = QApplication::palette();
    ThemeColors c;
    c.dark = pal.color(QPalette::Window).lightness() < 128;
    if (!c.dark) { // the timeline's colours as they always were
        c.background = QColor::fromRgb(0xfffcfcfd);
        c.headerBand = QColor::fromRgb(0xffeceef1);
        c.separator = QColor::fromRgb(0xffe3e5e8);
        c.ruler = QColor(0xf1, 0xf2, 0xf4);
        c.rulerLine = QColor(0xc8, 0xcc, 0xd2);
        c.rulerTick = QColor(0xa8, 0xae, 0xb6);
        c.rulerText = QColor(0x40, 0x46, 0x50);
        c.tree = QColor(0xf7, 0xf8, 0xfa);
        c.treeGroup = QColor(0xe4, 0xe7, 0xeb);
        c.treeText = QColor(0x20, 0x24, 0x2a);
        c.treeMuted = QColor(0x50, 0x58, 0x64);
        c.treeLine = QColor(0xe0, 0xe2, 0xe6);
        c.mutedText = QColor(90, 90, 90);
        return c;
    }
    c.background = QColor(0x1c, 0x1e, 0x21);
    c.headerBand = QColor(0x2a, 0x2d, 0x32);
    c.separator = QColor(0x30, 0x33, 0x38);
    c.ruler = QColor(0x26, 0x28, 0x2c);
    c.rulerLine = QColor(0x44, 0x48, 0x4f);
    c.rulerTick = QColor(0x5c, 0x62, 0x6b);
    c.rulerText = QColor(0xc8, 0xcc, 0xd2);
    c.tree = QColor(0x22, 0x24, 0x28);
    c.treeGroup = QColor(0x2e, 0x31, 0x36);
    c.treeText = QColor(0xe6, 0xe8, 0xeb);
    c.treeMuted = QColor(0xa8, 0xae, 0xb6);
    c.treeLine = QColor(0x33, 0x36, 0x3b);
    c.mutedText = QColor(0xb0, 0xb4, 0xba);
    return c;
}

} // namespace strata

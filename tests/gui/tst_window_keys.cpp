// The timeline's keys wherever the keyboard is in the window (issue 44: after a click into a dock,
// Ctrl+F, Home and W/A/S/D did nothing): a click into each dock, then W/S zoom by 0.8, A/D pan by
// a fifth of the visible duration, Home shows the whole trace and Ctrl+F opens the find bar. A
// text field in a dock keeps its typing (the letters and Home are its own there).
#include "analysis_views/call_tree_panel.h"
#include "support/main_window_fixture.h"
#include "support/test_main.h"

#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDockWidget>
#include <QPlainTextEdit>
#include <QTextEdit>

#include <cmath>

namespace {

// A widget that takes typing: an editable line, spin box, combo box or text box.
bool takesText(const QWidget* w) {
    if (auto* e = qobject_cast<const QLineEdit*>(w)) return !e->isReadOnly();
    if (auto* e = qobject_cast<const QPlainTextEdit*>(w)) return !e->isReadOnly();
    if (auto* e = qobject_cast<const QTextEdit*>(w)) return !e->isReadOnly();
    if (auto* c = qobject_cast<const QComboBox*>(w)) return c->isEditable();
    return qobject_cast<const QAbstractSpinBox*>(w) != nullptr;
}

// Where a click into `dock` lands: the first shown scroll area in it that takes no typing (a
// table, a tree, a read-only text), else the dock's own widget.
QWidget* clickTarget(QDockWidget* dock) {
    for (auto* area : dock->widget()->findChildren<QAbstractScrollArea*>())
        if (area->isVisible() && !takesText(area) && area->viewport()->width() > 8 &&
            area->viewport()->height() > 8)
            return area->viewport();
    return dock->widget();
}

QString rangeText(TimeRange r) {
    return QStringLiteral("[%1, %2)").arg(r.start).arg(r.end);
}

} // namespace

class TestWindowKeys : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { initMainWindowTests(); }

    void keysReachTheTimelineAfterAClickInAnyDock() {
        MainWindow w(testOptions());
        w.resize(1600, 1000);
        QVERIFY(w.openSync(OpenRequest::trace(kSample)));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        TimelineView* t = w.timeline();
        const TimeRange all = w.navigation()->bounds();
        const TimeNs d = all.duration();
        int docks = 0;
        for (QDockWidget* dock : w.findChildren<QDockWidget*>()) {
            dock->show();
            dock->raise();
            QApplication::processEvents();
            QWidget* target = clickTarget(dock);
            QTest::mouseClick(target, Qt::LeftButton, {},
                              QPoint(target->width() - 4, target->height() - 4));
            QApplication::processEvents();
            const QString where = dock->objectName();
            QWidget* focus = QApplication::focusWidget();
            const QWidget* owner = target == dock->widget() ? target : target->parentWidget();
            if (owner->focusPolicy() & Qt::ClickFocus) // the click gave the keyboard to the dock
                QVERIFY2(focus && dock->isAncestorOf(focus), qPrintable(where));
            QWidget* keys = focus ? focus : &w;
            ++docks;

            QTest::keyClick(keys, Qt::Key_Home);
            QVERIFY2(t->visibleRange() == all, qPrintable(where + rangeText(t->visibleRange())));
            // W twice: the duration times 0.8 each time, about the middle.
            QTest::keyClick(keys, Qt::Key_W);
            const TimeNs d1 = std::llround(double(d) * 0.8);
            QVERIFY2(t->visibleRange().duration() == d1, qPrintable(where));
            QTest::keyClick(keys, Qt::Key_W);
            const TimeNs d2 = std::llround(double(d1) * 0.8);
            const TimeRange zoomed = t->visibleRange();
            QVERIFY2(zoomed.duration() == d2, qPrintable(where + rangeText(zoomed)));
            QVERIFY2(zoomed.start > all.start && zoomed.end < all.end, qPrintable(where));
            // D: a fifth to the right (0.128 of the trace, inside the 0.18 left on each side).
            QTest::keyClick(keys, Qt::Key_D);
            QVERIFY2(t->visibleRange() == (TimeRange{zoomed.start + d2 / 5, zoomed.end + d2 / 5}),
                     qPrintable(where + rangeText(t->visibleRange())));
            QTest::keyClick(keys, Qt::Key_A);
            QVERIFY2(t->visibleRange() == zoomed, qPrintable(where + rangeText(t->visibleRange())));
            QTest::keyClick(keys, Qt::Key_S);
            QVERIFY2(t->visibleRange().duration() == std::llround(double(d2) / 0.8),
                     qPrintable(where + rangeText(t->visibleRange())));
            QTest::keyClick(keys, Qt::Key_Home);
            QVERIFY2(t->visibleRange() == all, qPrintable(where));
            // Ctrl+F: the find bar, ready for typing; Esc closes it.
            QTest::keyClick(keys, Qt::Key_F, Qt::ControlModifier);
            QVERIFY2(w.findBar()->isVisible(), qPrintable(where));
            QVERIFY2(w.findBar()->edit()->hasFocus(), qPrintable(where));
            QTest::keyClick(w.findBar()->edit(), Qt::Key_Escape);
            QVERIFY2(!w.findBar()->isVisible(), qPrintable(where));
        }
        QVERIFY2(docks >= 10, qPrintable(QString::number(docks)));
    }

    void aTextFieldInADockKeepsItsTyping() {
        MainWindow w(testOptions());
        w.resize(1600, 1000);
        QVERIFY(w.openSync(OpenRequest::trace(kSample)));
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        auto* tree = w.panel<CallTreePanel>();
        auto* dock = qobject_cast<QDockWidget*>(tree->parentWidget());
        dock->show();
        dock->raise();
        QApplication::processEvents();
        auto* search = tree->findChild<QLineEdit*>();
        QVERIFY(search && search->isVisible());
        QTest::mouseClick(search, Qt::LeftButton);
        QVERIFY(search->hasFocus());
        QTest::keyClick(w.timeline(), Qt::Key_W); // zoomed in from elsewhere first
        search->setFocus();
        const TimeRange before = w.timeline()->visibleRange();
        QTest::keyClicks(search, QStringLiteral("wasdf"));
        QCOMPARE(search->text(), QStringLiteral("wasdf"));
        QTest::keyClick(search, Qt::Key_Home);
        QCOMPARE(search->cursorPosition(), 0);
        QTest::keyClick(search, Qt::Key_S);
        QCOMPARE(search->text(), QStringLiteral("swasdf"));
        QCOMPARE(w.timeline()->visibleRange(), before); // the timeline heard none of it
        QVERIFY(!w.findBar()->isVisible());
    }
};

STRATA_TEST_MAIN(TestWindowKeys)
#include "tst_window_keys.moc"

// The Console dock's memory is bounded whatever a program prints (issue 34): 200 MB without a
// newline took 2.0 GB (the whole line held, then laid out); now a line is shown cut at
// ConsolePanel::kMaxLineBytes with a note of what was left out, the saved log keeps every byte,
// and a character split by the cut is not shown half.
#include "panels/console_panel.h"
#include "support/test_main.h"

#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <string>

using namespace strata;

namespace {

// This process's resident memory now, in MiB (/proc/self/statm: pages).
double residentMiB() {
    std::ifstream f("/proc/self/statm");
    long pages = 0, resident = 0;
    f >> pages >> resident;
    return double(resident) * 4096.0 / (1024.0 * 1024.0);
}

} // namespace

class TestConsolePanel : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void lineWithoutNewlineIsBounded() {
        ConsolePanel console;
        console.begin(QStringLiteral("./flood"));
        const double before = residentMiB();
        const QByteArray chunk(1 << 20, 'x'); // 200 MiB in 1 MiB pieces, no newline
        for (int i = 0; i < 200; ++i) {
            console.append(chunk, false);
            if (i % 20 == 0) QCoreApplication::processEvents();
        }
        const double during = residentMiB();
        console.end(QStringLiteral("exited with code 0"));
        QCoreApplication::processEvents();
        const double after = residentMiB();
        qInfo("resident memory: %.0f MiB before, %.0f MiB after 200 MiB in, %.0f MiB shown", before,
              during, after);
        QVERIFY2(during - before < 64 && after - before < 64,
                 qPrintable(QString("%1 -> %2 -> %3 MiB").arg(before).arg(during).arg(after)));
        // One line: 16 KiB of it, then the note: 200 MiB - 16 KiB = 209,698,816 bytes left out.
        QCOMPARE(console.linesReceived(), qint64(1));
        QCOMPARE(console.linesCut(), qint64(1));
        const QString shown = console.shownText();
        QCOMPARE(shown.left(ConsolePanel::kMaxLineBytes), QString(16 * 1024, QLatin1Char('x')));
        QCOMPARE(shown.mid(ConsolePanel::kMaxLineBytes),
                 QString::fromUtf8(" \u2026 [line cut: 209,698,816 more bytes, in the saved log]"));
        QVERIFY(console.findChild<QLabel*>(QStringLiteral("consoleDropped"))
                    ->text()
                    .contains(QStringLiteral("1 lines longer than 16 KiB cut")));
        // The log keeps every byte.
        const QString log = dir_.filePath(QStringLiteral("flood.txt"));
        QString error;
        QVERIFY(console.saveLog(log, &error));
        QCOMPARE(QFileInfo(log).size(), qint64(200) << 20);
    }

    void cutKeepsWholeCharactersAndLinesAfter() {
        // 16,383 'a' then "é" (2 bytes: the 16,384th and 16,385th): the cut at 16 KiB would split
        // it, so the line shows the 'a's and counts the é's 2 bytes and "tail" (4) as left out;
        // the next line is whole.
        ConsolePanel console;
        console.begin(QStringLiteral("./utf8"));
        const QByteArray line = QByteArray(16383, 'a') + "\xC3\xA9tail\nnext\n";
        console.append(line.left(10000), true);
        console.append(line.mid(10000), true);
        console.end(QStringLiteral("done"));
        const QStringList lines = console.shownText().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0], QString(16383, QLatin1Char('a')) +
                               QString::fromUtf8(" \u2026 [line cut: 6 more bytes, in the saved "
                                                 "log]"));
        QCOMPARE(lines[1], QStringLiteral("next"));
        QCOMPARE(console.linesCut(), qint64(1));
    }
};

STRATA_TEST_MAIN(TestConsolePanel)
#include "tst_console_panel.moc"

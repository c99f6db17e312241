// File > Import Timer Sections… asks for the section names and the clock rate (both optional),
// remembers them per file, refuses a clock rate that is not a positive number, and hands them to
// the readers as LoadOptions (issue 28).
#include "open/sections_import_dialog.h"
#include "support/test_main.h"

#include <QDialogButtonBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

using namespace strata;

class TestSectionsImportDialog : public QObject {
    Q_OBJECT
    QTemporaryDir settings_;

private slots:
    void initTestCase() {
        // The test's own settings, never the user's.
        QVERIFY(settings_.isValid());
        QCoreApplication::setOrganizationName("strata-test");
        QCoreApplication::setApplicationName("tst_sections_import_dialog");
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings_.path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings_.path());
    }

    void emptyAsksNothing() {
        SectionsImportDialog d("/data/a.npy");
        QVERIFY(d.valid());
        const LoadOptions o = d.options();
        QVERIFY(o.sectionNames.empty());
        QCOMPARE(o.clockHz, 0.0);
    }

    void answersBecomeOptionsAndAreRemembered() {
        {
            SectionsImportDialog d("/data/a.npy");
            d.namesEdit()->setText(" load , compute,store ");
            d.clockEdit()->setText("1.98e9");
            QVERIFY(d.valid());
            const LoadOptions o = d.options();
            QCOMPARE(o.sectionNames, (std::vector<std::string>{"load", "compute", "store"}));
            QCOMPARE(o.clockHz, 1.98e9);
            d.accept();
            QCOMPARE(d.result(), int(QDialog::Accepted));
        }
        // The same file again: its answers are there. Another file: nothing.
        SectionsImportDialog again("/data/a.npy");
        QCOMPARE(again.namesEdit()->text(), QString("load , compute,store"));
        QCOMPARE(again.clockEdit()->text(), QString("1.98e9"));
        QCOMPARE(again.options().clockHz, 1.98e9);
        SectionsImportDialog other("/data/b.npy");
        QCOMPARE(other.namesEdit()->text(), QString());
        QCOMPARE(other.clockEdit()->text(), QString());
        // Not remembering (MainWindow::Options::restoreSettings off): nothing read or written.
        SectionsImportDialog quiet("/data/a.npy", nullptr, false);
        QCOMPARE(quiet.namesEdit()->text(), QString());
    }

    void badClockRateIsRefused() {
        SectionsImportDialog d("/data/c.npy", nullptr, false);
        auto* ok = d.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        for (const char* bad : {"fast", "-2e9", "0", "1e20"}) {
            d.clockEdit()->setText(bad);
            QVERIFY2(!d.valid(), bad);
            QVERIFY2(!ok->isEnabled(), bad);
        }
        d.clockEdit()->setText("1980000000");
        QVERIFY(d.valid());
        QVERIFY(ok->isEnabled());
        QCOMPARE(d.options().clockHz, 1.98e9);
    }
};

STRATA_TEST_MAIN(TestSectionsImportDialog)
#include "tst_sections_import_dialog.moc"

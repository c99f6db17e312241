// Every input a fuzzer ever broke a reader with, and the seed corpora, load or fail with an
// error, without crashing: the JSON reader's (tests/data/json/fuzz_regressions/, fuzz_corpus/)
// and the .strata reader's (tests/data/record/fuzz_regressions/ and the .strata fixtures there,
// its seeds). docs/fuzzing.md says how inputs get here.
#include "io/json/chrome_json_reader.h"
#include "io/strata/strata_trace_reader.h"

#include <QDir>
#include <QFile>
#include <QtTest>

using namespace strata;

class TestFuzzRegressions : public QObject {
    Q_OBJECT

private slots:
    void inputs_data();
    void inputs();
};

void TestFuzzRegressions::inputs_data() {
    QTest::addColumn<QString>("path");
    for (const char* sub :
         {"json/fuzz_regressions", "json/fuzz_corpus", "record/fuzz_regressions", "record"}) {
        const QDir dir(QString(STRATA_TEST_DATA) + "/" + sub);
        for (const QString& f : dir.entryList(QDir::Files)) {
            if (QString(sub).startsWith("record") && f.endsWith(".py")) continue;
            QTest::newRow(qPrintable(QString(sub) + "/" + f)) << dir.filePath(f);
        }
    }
}

void TestFuzzRegressions::inputs() {
    QFETCH(QString, path);
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    const std::string_view input(bytes.constData(), size_t(bytes.size()));
    const LoadResult r = path.contains("/record/") ? readStrataBuffer(input, "fuzz")
                                                   : readChromeJsonBuffer(input, "fuzz");
    QVERIFY(r.ok() || (r.error && !r.error->message.empty()));
}

QTEST_GUILESS_MAIN(TestFuzzRegressions)
#include "tst_fuzz_regressions.moc"

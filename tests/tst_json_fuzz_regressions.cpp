// Every input the fuzzer ever broke the reader with (tests/data/json/fuzz_regressions/) and the
// seed corpus load or fail with an error, without crashing.
#include "io/chrome_json_reader.h"

#include <QDir>
#include <QFile>
#include <QtTest>

using namespace strata;

class TestJsonFuzzRegressions : public QObject {
    Q_OBJECT

private slots:
    void inputs_data();
    void inputs();
};

void TestJsonFuzzRegressions::inputs_data() {
    QTest::addColumn<QString>("path");
    for (const char* sub : {"fuzz_regressions", "fuzz_corpus"}) {
        const QDir dir(QString(STRATA_TEST_DATA) + "/json/" + sub);
        for (const QString& f : dir.entryList(QDir::Files))
            QTest::newRow(qPrintable(QString(sub) + "/" + f)) << dir.filePath(f);
    }
}

void TestJsonFuzzRegressions::inputs() {
    QFETCH(QString, path);
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    const LoadResult r =
        readChromeJsonBuffer(std::string_view(bytes.constData(), size_t(bytes.size())), "fuzz");
    QVERIFY(r.ok() || (r.error && !r.error->message.empty()));
}

QTEST_GUILESS_MAIN(TestJsonFuzzRegressions)
#include "tst_json_fuzz_regressions.moc"

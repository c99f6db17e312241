// Time text: adaptive display units and parsing of "1.5ms", "250us", plain numbers (= us).
#include "model/names/time_text.h"
#include "support/test_main.h"

#include <QtTest>

using namespace strata;

class TestTimeText : public QObject {
    Q_OBJECT
private slots:
    void format_data();
    void format();
    void parse_data();
    void parse();
    void parseRange();
};

void TestTimeText::format_data() {
    QTest::addColumn<qint64>("ns");
    QTest::addColumn<QString>("text");
    QTest::newRow("zero") << qint64(0) << "0 ns";
    QTest::newRow("ns") << qint64(850) << "850 ns";
    QTest::newRow("us") << qint64(12'300) << "12.3 \u00b5s";
    QTest::newRow("us exact") << qint64(84'503) << "84.503 \u00b5s";
    QTest::newRow("us rounds to 3 decimals") << qint64(1'234) << "1.234 \u00b5s";
    // Exact to the ns at every size (issue 21: "1.17 s" hid the µs a trace had).
    QTest::newRow("ms") << qint64(1'234'567) << "1.234\u2009567 ms";
    QTest::newRow("ms at us precision") << qint64(48'616'000) << "48.616 ms";
    QTest::newRow("10 digits") << qint64(1'234'567'891) << "1.234\u2009567\u2009891 s";
    QTest::newRow("s at us precision") << qint64(1'170'123'000) << "1.170\u2009123 s";
    QTest::newRow("ms whole") << qint64(6'000'000) << "6 ms";
    QTest::newRow("s") << qint64(2'500'000'000) << "2.5 s";
    QTest::newRow("negative") << qint64(-1'500) << "-1.5 \u00b5s";
}

void TestTimeText::format() {
    QFETCH(qint64, ns);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(formatPreciseDuration(ns)), text);
}

void TestTimeText::parse_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<qint64>("ns");
    QTest::newRow("plain number is us") << "1200" << true << qint64(1'200'000);
    QTest::newRow("fraction us") << "0.5" << true << qint64(500);
    QTest::newRow("ms") << "1.5ms" << true << qint64(1'500'000);
    QTest::newRow("ms spaced") << " 3 ms " << true << qint64(3'000'000);
    QTest::newRow("us") << "250us" << true << qint64(250'000);
    QTest::newRow("micro sign") << "250\u00b5s" << true << qint64(250'000);
    QTest::newRow("ns") << "42ns" << true << qint64(42);
    QTest::newRow("s") << "0.25s" << true << qint64(250'000'000);
    QTest::newRow("unknown unit") << "3min" << false << qint64(0);
    QTest::newRow("no number") << "ms" << false << qint64(0);
    QTest::newRow("empty") << "" << false << qint64(0);
}

void TestTimeText::parse() {
    QFETCH(QString, text);
    QFETCH(bool, ok);
    QFETCH(qint64, ns);
    std::string error;
    const auto t = parseTime(text.toStdString(), &error);
    QCOMPARE(t.has_value(), ok);
    if (ok)
        QCOMPARE(*t, TimeNs(ns));
    else
        QVERIFY(!error.empty());
}

void TestTimeText::parseRange() {
    std::string error;
    auto r = parseTimeRange("1.5ms:3ms", &error);
    QVERIFY(r);
    QCOMPARE(r->start, TimeNs(1'500'000));
    QCOMPARE(r->end, TimeNs(3'000'000));
    r = parseTimeRange("200:450", &error);
    QVERIFY(r);
    QCOMPARE(r->duration(), TimeNs(250'000));
    QVERIFY(!parseTimeRange("3ms:1ms", &error));
    QVERIFY(error.find("after") != std::string::npos);
    QVERIFY(!parseTimeRange("3ms", &error));
    QVERIFY(error.find("START:END") != std::string::npos);
}

STRATA_TEST_GUILESS_MAIN(TestTimeText)
#include "tst_time_text.moc"

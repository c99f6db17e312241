// Exact decimal microseconds -> integer nanoseconds (ties to even), by hand.
#include "io/json/json_decimal.h"
#include "support/test_main.h"

#include <QtTest>

using namespace strata;

class TestJsonDecimal : public QObject {
    Q_OBJECT

private slots:
    void micros_data();
    void micros();
    void ints();
    void hex();
};

void TestJsonDecimal::micros_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<qlonglong>("ns");
    QTest::newRow("int") << "12" << true << 12000ll;
    QTest::newRow("3 decimals") << "1234.567" << true << 1234567ll;
    QTest::newRow("tie down to even") << "1.5005" << true << 1500ll; // 1500.5 -> 1500
    QTest::newRow("tie up to even") << "1.5015" << true << 1502ll;   // 1501.5 -> 1502
    QTest::newRow("above tie") << "1.50050001" << true << 1501ll;
    QTest::newRow("below tie") << "1.5004999" << true << 1500ll;
    QTest::newRow("epoch us") << "1712345678901234.567" << true << 1712345678901234567ll;
    QTest::newRow("epoch us 4 decimals")
        << "1712345678901234.5675" << true << 1712345678901234568ll; // .5 ns tie, 7 odd -> 8
    QTest::newRow("negative") << "-3.25" << true << -3250ll;
    QTest::newRow("negative tie") << "-0.0005" << true << 0ll;
    QTest::newRow("negative tie odd") << "-0.0015" << true << -2ll;
    QTest::newRow("exponent") << "1.5e3" << true << 1500000ll;
    QTest::newRow("negative exponent") << "25e-4" << true << 2ll; // 2.5 ns -> 2
    QTest::newRow("tiny") << "1e-9" << true << 0ll;
    QTest::newRow("spaces") << " 7 " << true << 7000ll;
    QTest::newRow("leading zeros") << "0001.000" << true << 1000ll;
    QTest::newRow("max") << "9223372036854775.807" << true << 9223372036854775807ll;
    QTest::newRow("overflow") << "9223372036854775.808" << false << 0ll;
    QTest::newRow("huge exponent") << "1e300" << false << 0ll;
    QTest::newRow("empty") << "" << false << 0ll;
    QTest::newRow("word") << "abc" << false << 0ll;
    QTest::newRow("two dots") << "1.2.3" << false << 0ll;
    QTest::newRow("bare exponent") << "1e" << false << 0ll;
}

void TestJsonDecimal::micros() {
    QFETCH(QString, text);
    QFETCH(bool, ok);
    QFETCH(qlonglong, ns);
    TimeNs out = -1;
    const std::string s = text.toStdString();
    QCOMPARE(parseMicrosToNs(s, &out), ok);
    if (ok) QCOMPARE(qlonglong(out), ns);
}

void TestJsonDecimal::ints() {
    int64_t v = 0;
    QVERIFY(parseInt64("-9223372036854775808", &v));
    QCOMPARE(v, INT64_MIN);
    QVERIFY(!parseInt64("9223372036854775808", &v));
    QVERIFY(parseInt64(" 42", &v));
    QCOMPARE(v, int64_t(42));
    QVERIFY(!parseInt64("stream 7", &v));
    QVERIFY(!parseInt64("", &v));
}

void TestJsonDecimal::hex() {
    uint64_t v = 0;
    QVERIFY(parseHexU64("0x1f", &v));
    QCOMPARE(v, uint64_t(31));
    QVERIFY(parseHexU64("ff", &v));
    QCOMPARE(v, uint64_t(255));
    QVERIFY(!parseHexU64("xyz", &v));
    QVERIFY(!parseHexU64("0x", &v));
}

STRATA_TEST_GUILESS_MAIN(TestJsonDecimal)
#include "tst_json_decimal.moc"

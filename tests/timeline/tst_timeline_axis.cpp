// Time axis arithmetic (time <-> pixel, zoom at the cursor, clamping) and the ruler's tick
// choice and labels. Expected values are worked out by hand in the comments.
#include "model/names/time_text.h"
#include "support/test_main.h"
#include "timeline/time_axis.h"

#include <QTest>

using namespace strata;

class TstTimelineAxis : public QObject {
    Q_OBJECT
private slots:
    void timeToPixel();
    void zoomKeepsCursorTime_data();
    void zoomKeepsCursorTime();
    void clamping();
    void tickStep_data();
    void tickStep();
    void tickLabel_data();
    void tickLabel();
    void durationLabel_data();
    void durationLabel();
};

void TstTimelineAxis::timeToPixel() {
    TimeAxis a;
    a.setBounds({0, 1'000'000});
    a.setWidth(1000); // 1000 ns per pixel
    QCOMPARE(a.nsPerPixel(), 1000.0);
    QCOMPARE(a.xForTime(500'000), 500.0);
    QCOMPARE(a.timeForX(250), TimeNs(250'000));
    QVERIFY(a.setVisible({200'000, 300'000})); // 100 ns per pixel
    QCOMPARE(a.xForTime(250'000), 500.0);
    QCOMPARE(a.timeForX(10), TimeNs(201'000));
}

void TstTimelineAxis::zoomKeepsCursorTime_data() {
    QTest::addColumn<double>("factor");
    QTest::addColumn<double>("x");
    QTest::addRow("in at quarter") << 0.5 << 250.0;
    QTest::addRow("in at tenth") << 0.1 << 100.0;
    QTest::addRow("in at 900") << 0.8 << 900.0;
    QTest::addRow("out at 600") << 1.25 << 600.0;
}

void TstTimelineAxis::zoomKeepsCursorTime() {
    QFETCH(double, factor);
    QFETCH(double, x);
    TimeAxis a;
    a.setBounds({0, 1'000'000});
    a.setWidth(1000);
    a.setVisible({200'000, 600'000});
    const TimeNs before = a.timeForX(x);
    a.zoomAt(factor, x);
    QVERIFY(std::llabs(a.timeForX(x) - before) <= 1);
    QCOMPARE(a.visible().duration(), static_cast<TimeNs>(400'000 * factor + 0.5));
}

void TstTimelineAxis::clamping() {
    TimeAxis a;
    a.setBounds({0, 1'000'000});
    a.setWidth(1000);
    // Whole trace, zoom in at x=250: time 250000 stays; [125000, 625000).
    a.zoomAt(0.5, 250);
    QCOMPARE(a.visible(), (TimeRange{125'000, 625'000}));
    // Past the start: shifted back inside.
    a.setVisible({-100, 900});
    QCOMPARE(a.visible(), (TimeRange{0, 1000}));
    // Narrower than the minimum: grown around its centre to 100 ns, then shifted inside.
    a.setVisible({0, 10});
    QCOMPARE(a.visible(), (TimeRange{0, 100}));
    a.setVisible({5000, 5010});
    QCOMPARE(a.visible(), (TimeRange{4955, 5055})); // 5000 - (100-10)/2
    // Wider than the trace: the whole trace.
    a.setVisible({990'000, 2'000'000});
    QCOMPARE(a.visible(), (TimeRange{0, 1'000'000}));
    // Zoom out past everything: still the whole trace; pan past the end: clamped.
    a.zoomAt(4.0, 500);
    QCOMPARE(a.visible(), (TimeRange{0, 1'000'000}));
    a.setVisible({0, 100'000});
    a.panBy(2'000'000);
    QCOMPARE(a.visible(), (TimeRange{900'000, 1'000'000}));
    // Repeated zoom in stops at the minimum duration.
    for (int i = 0; i < 50; ++i) a.zoomAt(0.1, 500);
    QCOMPARE(a.visible().duration(), TimeAxis::kMinDuration);
}

void TstTimelineAxis::tickStep_data() {
    QTest::addColumn<double>("nsPerPixel");
    QTest::addColumn<double>("minPixels");
    QTest::addColumn<qint64>("step");
    QTest::addRow("1 ns/px") << 1.0 << 90.0 << qint64(100);    // >= 90 -> 100
    QTest::addRow("0.5 ns/px") << 0.5 << 90.0 << qint64(50);   // >= 45 -> 50
    QTest::addRow("0.01 ns/px") << 0.01 << 90.0 << qint64(1);  // >= 0.9 -> 1
    QTest::addRow("13 ns/px") << 13.0 << 90.0 << qint64(2000); // >= 1170 -> 2000
    QTest::addRow("1 us/px") << 1000.0 << 90.0 << qint64(100'000);
    QTest::addRow("3 ms/px") << 3e6 << 90.0 << qint64(500'000'000); // >= 2.7e8 -> 5e8
    QTest::addRow("10 ms/px") << 1e7 << 90.0 << qint64(1'000'000'000);
}

void TstTimelineAxis::tickStep() {
    QFETCH(double, nsPerPixel);
    QFETCH(double, minPixels);
    QFETCH(qint64, step);
    QCOMPARE(qint64(chooseTickStep(nsPerPixel, minPixels)), step);
}

void TstTimelineAxis::tickLabel_data() {
    QTest::addColumn<qint64>("t");
    QTest::addColumn<qint64>("step");
    QTest::addColumn<qint64>("unitOf");
    QTest::addColumn<QString>("label");
    QTest::addRow("ns") << qint64(200) << qint64(100) << qint64(900) << "200 ns";
    QTest::addRow("us half") << qint64(1500) << qint64(500) << qint64(2000)
                             << QString::fromUtf8("1.5 µs");
    QTest::addRow("us whole") << qint64(4000) << qint64(2000) << qint64(9000)
                              << QString::fromUtf8("4 µs");
    QTest::addRow("ms") << qint64(3'000'000) << qint64(1'000'000) << qint64(5'000'000) << "3 ms";
    QTest::addRow("ms tenths") << qint64(3'200'000) << qint64(200'000) << qint64(5'000'000)
                               << "3.2 ms";
    QTest::addRow("s fine") << qint64(5'300'001'000) << qint64(1000) << qint64(6'000'000'000)
                            << "5.300001 s";
    QTest::addRow("s zero") << qint64(0) << qint64(500'000'000) << qint64(6'000'000'000) << "0.0 s";
    QTest::addRow("us leading zeros")
        << qint64(1'005'000) << qint64(5000) << qint64(2'000'000) << "1.005 ms";
}

void TstTimelineAxis::tickLabel() {
    QFETCH(qint64, t);
    QFETCH(qint64, step);
    QFETCH(qint64, unitOf);
    QFETCH(QString, label);
    QCOMPARE(QString::fromStdString(formatTick(t, step, unitOf)), label);
}

void TstTimelineAxis::durationLabel_data() {
    QTest::addColumn<qint64>("ns");
    QTest::addColumn<QString>("label");
    // Four significant digits (issue 28), rounded half up in integers before the unit is
    // chosen.
    QTest::addRow("850 ns") << qint64(850) << "850 ns";
    QTest::addRow("999 ns") << qint64(999) << "999 ns";
    QTest::addRow("1 us") << qint64(1000) << QString::fromUtf8("1.000 µs");
    QTest::addRow("12.35 us") << qint64(12'345) << QString::fromUtf8("12.35 µs");
    QTest::addRow("20 us") << qint64(20'000) << QString::fromUtf8("20.00 µs");
    QTest::addRow("456 us") << qint64(456'000) << QString::fromUtf8("456.0 µs");
    QTest::addRow("999.9 us") << qint64(999'949) << QString::fromUtf8("999.9 µs");
    QTest::addRow("rounds up into ms") << qint64(999'960) << "1.000 ms";
    QTest::addRow("rounds up to 100 us") << qint64(99'996) << QString::fromUtf8("100.0 µs");
    QTest::addRow("4.56 ms") << qint64(4'560'000) << "4.560 ms";
    QTest::addRow("459.1 ms") << qint64(459'138'912) << "459.1 ms";
    QTest::addRow("1.172 s") << qint64(1'171'628'656) << "1.172 s";
    QTest::addRow("12350 s") << qint64(12'345'678'901'234) << "12350 s";
    QTest::addRow("negative") << qint64(-1'500) << QString::fromUtf8("-1.500 µs");
}

void TstTimelineAxis::durationLabel() {
    QFETCH(qint64, ns);
    QFETCH(QString, label);
    QCOMPARE(QString::fromStdString(formatDuration(ns)), label);
}

STRATA_TEST_GUILESS_MAIN(TstTimelineAxis)
#include "tst_timeline_axis.moc"

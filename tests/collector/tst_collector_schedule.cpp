// CaptureSchedule: the collector's CUPTI-free decision of which records to keep (steps counted
// by NVTX ranges/marks, a capture range by NVTX name, a maximum duration). Expected windows were
// worked out by hand from torch.profiler.schedule's definition (wait, warmup, active, repeat).
#include "capture_schedule.h"
#include "support/test_main.h"

#include <QtTest>

using strata::CaptureSchedule;
using strata::CaptureScheduleConfig;
using strata::CaptureWindow;

namespace {

// "b:name:t" range begin, "e:name:t" range end, "m:name:t" mark.
void play(CaptureSchedule& s, const QString& script) {
    for (const QString& ev : script.split(' ', Qt::SkipEmptyParts)) {
        const QStringList p = ev.split(':');
        QVERIFY2(p.size() == 3, qPrintable(ev));
        const std::string name = p[1].toStdString();
        const int64_t t = p[2].toLongLong();
        if (p[0] == "b")
            s.onRangeBegin(name, t);
        else if (p[0] == "e")
            s.onRangeEnd(name, t);
        else
            s.onMark(name, t);
    }
}

QString windowsText(const std::vector<CaptureWindow>& w) {
    QStringList out;
    for (const auto& x : w)
        out << QString("[%1,%2)").arg(x.start).arg(x.end == INT64_MAX ? QString("inf")
                                                                      : QString::number(x.end));
    return out.join(' ');
}

CaptureScheduleConfig cfg(int wait, int warmup, int active, int repeat, const char* range = "") {
    CaptureScheduleConfig c;
    c.wait = wait;
    c.warmup = warmup;
    c.active = active;
    c.repeat = repeat;
    c.stepName = "step";
    c.rangeName = range;
    return c;
}

} // namespace

class TestCollectorSchedule : public QObject {
    Q_OBJECT
private slots:
    void windows_data();
    void windows();
    void duration();
    void finishedAfterRepeat();
    void noStepName();
    void profilerApi();
    void stepMarkerBeforeItsWindow();
    void attachWindows();
};

void TestCollectorSchedule::windows_data() {
    QTest::addColumn<int>("wait");
    QTest::addColumn<int>("warmup");
    QTest::addColumn<int>("active");
    QTest::addColumn<int>("repeat");
    QTest::addColumn<QString>("range");
    QTest::addColumn<QString>("script");
    QTest::addColumn<QString>("schedule"); // expected schedule windows
    QTest::addColumn<QString>("ranges");   // expected capture-range windows
    QTest::addColumn<QString>("probes");   // "t=1" kept, "t=0" dropped
    QTest::addColumn<int>("steps");

    QTest::newRow("disabled keeps everything") << 0 << 0 << 0 << 0 << ""
                                               << "m:step:10 m:step:20"
                                               << ""
                                               << ""
                                               << "0=1 10=1 15=1 1000000=1" << 2;
    // Steps 0 wait, 1 warmup, 2-3 active, 4 done: window from mark 3 (t=30) to mark 5 (t=50).
    QTest::newRow("marks wait1 warmup1 active2 repeat1")
        << 1 << 1 << 2 << 1 << ""
        << "m:step:10 m:step:20 m:step:30 m:step:40 m:step:50 m:step:60"
        << "[30,50)"
        << ""
        << "9=0 10=0 29=0 30=1 45=1 49=1 50=0 60=0" << 6;
    // The same with ranges: the window ends where the last active step's range ends (45).
    QTest::newRow("ranges wait1 warmup1 active2 repeat1")
        << 1 << 1 << 2 << 1 << ""
        << "b:step:10 e:step:15 b:step:20 e:step:25 b:step:30 e:step:35 b:step:40 e:step:45 "
           "b:step:50 e:step:55"
        << "[30,45)"
        << ""
        << "29=0 30=1 37=1 44=1 45=0 52=0" << 5;
    // repeat 0 = endless: steps alternate wait/active.
    QTest::newRow("endless wait1 active1") << 1 << 0 << 1 << 0 << ""
                                           << "m:step:0 m:step:10 m:step:20 m:step:30 m:step:40"
                                           << "[10,20) [30,40)"
                                           << ""
                                           << "5=0 10=1 19=1 20=0 25=0 30=1 39=1 40=0 45=0" << 5;
    // The last active step (a mark) never ended: its window stays open.
    QTest::newRow("open last step") << 1 << 0 << 1 << 0 << ""
                                    << "m:step:0 m:step:10"
                                    << "[10,inf)"
                                    << ""
                                    << "9=0 10=1 999999=1" << 2;
    // active 1 repeat 2, ranges: one window across both steps (the gap between them included).
    QTest::newRow("two active cycles back to back")
        << 0 << 0 << 1 << 2 << ""
        << "b:step:0 e:step:5 b:step:10 e:step:15 b:step:20 e:step:25"
        << "[0,15)"
        << ""
        << "0=1 7=1 14=1 15=0 22=0" << 3;
    // A step range inside a step range is one step.
    QTest::newRow("nested step ranges")
        << 0 << 0 << 1 << 1 << ""
        << "b:step:0 b:step:5 e:step:8 e:step:10 b:step:20 e:step:30"
        << "[0,10)"
        << ""
        << "0=1 9=1 10=0 25=0" << 2;
    // Other names do not count as steps.
    QTest::newRow("other names ignored")
        << 0 << 0 << 1 << 1 << ""
        << "m:other:0 b:stepx:1 e:stepx:2 m:step:10 m:Step:15 m:step:20"
        << "[10,20)"
        << ""
        << "0=0 10=1 15=1 20=0" << 2;
    // Capture range by name, nested occurrences merged, an unmatched end ignored.
    QTest::newRow("capture range")
        << 0 << 0 << 0 << 0 << "capture"
        << "e:capture:50 b:capture:100 e:capture:200 b:capture:300 b:capture:310 e:capture:320 "
           "e:capture:400"
        << ""
        << "[100,200) [300,400)"
        << "50=0 99=0 100=1 199=1 200=0 250=0 315=1 350=1 400=0" << 0;
    // Schedule and range together: a record must be inside both.
    QTest::newRow("schedule and range intersect")
        << 1 << 0 << 1 << 1 << "capture"
        << "m:step:0 b:capture:5 m:step:10 e:capture:15 m:step:20 b:capture:25 e:capture:30"
        << "[10,20)"
        << "[5,15) [25,30)"
        << "4=0 7=0 10=1 14=1 15=0 19=0 26=0" << 3;
    // An empty window (step begins and the next begins at the same time) keeps nothing.
    QTest::newRow("zero-length window dropped") << 0 << 0 << 1 << 1 << ""
                                                << "m:step:10 m:step:10"
                                                << ""
                                                << ""
                                                << "9=0 10=0 11=0" << 2;
}

void TestCollectorSchedule::windows() {
    QFETCH(int, wait);
    QFETCH(int, warmup);
    QFETCH(int, active);
    QFETCH(int, repeat);
    QFETCH(QString, range);
    QFETCH(QString, script);
    QFETCH(QString, schedule);
    QFETCH(QString, ranges);
    QFETCH(QString, probes);
    QFETCH(int, steps);
    const std::string rangeName = range.toStdString();
    CaptureSchedule s(cfg(wait, warmup, active, repeat, rangeName.c_str()), 0);
    play(s, script);
    QCOMPARE(windowsText(s.scheduleWindows()), schedule);
    QCOMPARE(windowsText(s.rangeWindows()), ranges);
    QCOMPARE(s.stepsSeen(), int64_t(steps));
    for (const QString& p : probes.split(' ', Qt::SkipEmptyParts)) {
        const QStringList kv = p.split('=');
        const int64_t t = kv[0].toLongLong();
        const bool expected = kv[1] == "1";
        QVERIFY2(s.captures(t) == expected,
                 qPrintable(QString("t=%1 expected %2").arg(t).arg(kv[1])));
    }
}

void TestCollectorSchedule::duration() {
    CaptureScheduleConfig c;
    c.maxDurationNs = 1000;
    CaptureSchedule s(c, 500);
    QVERIFY(s.captures(0)); // before the origin: CUDA work before injection finished
    QVERIFY(s.captures(1499));
    QVERIFY(!s.captures(1500));
    QVERIFY(!s.finished(1499));
    QVERIFY(s.finished(1500));
}

void TestCollectorSchedule::finishedAfterRepeat() {
    CaptureSchedule s(cfg(0, 0, 1, 1), 0);
    QVERIFY(!s.finished(0));
    s.onRangeBegin("step", 10);
    QVERIFY(!s.finished(11)); // step 0 active and open
    s.onRangeEnd("step", 20);
    QVERIFY(s.finished(21)); // the only cycle is over
    CaptureSchedule endless(cfg(0, 0, 1, 0), 0);
    endless.onMark("step", 10);
    endless.onMark("step", 20);
    QVERIFY(!endless.finished(1000000));
}

void TestCollectorSchedule::noStepName() {
    CaptureScheduleConfig c = cfg(0, 0, 1, 1);
    c.stepName.clear();
    CaptureSchedule s(c, 0);
    s.onMark("step", 10);
    s.onMark("", 20);
    QCOMPARE(s.stepsSeen(), int64_t(0));
    QVERIFY(!s.captures(15)); // a schedule with no steps never opens
}

// cudaProfilerStart/Stop as the capture range: windows from each start to the next stop; a
// start while started and a stop while stopped change nothing; NVTX ranges of that name do not
// count.
void TestCollectorSchedule::profilerApi() {
    CaptureSchedule s(cfg(0, 0, 0, 0, "cudaProfilerApi"), 0);
    s.onProfilerStop(5); // stopped already
    s.onRangeBegin("cudaProfilerApi", 8);
    s.onProfilerStart(10);
    s.onProfilerStart(20);
    s.onProfilerStop(30);
    s.onRangeEnd("cudaProfilerApi", 35);
    s.onProfilerStart(40);
    QCOMPARE(windowsText(s.rangeWindows()), QString("[10,30) [40,inf)"));
    QVERIFY(!s.captures(9));
    QVERIFY(s.captures(10));
    QVERIFY(s.captures(29));
    QVERIFY(!s.captures(30));
    QVERIFY(s.captures(1000));
    // With an NVTX capture range, profiler calls change nothing.
    CaptureSchedule nvtx(cfg(0, 0, 0, 0, "capture"), 0);
    nvtx.onProfilerStart(10);
    QVERIFY(nvtx.rangeWindows().empty());
    QVERIFY(!nvtx.captures(20));
}

// CUPTI stamps a step's own NVTX record before its callback opens the window (wait 1, active 1,
// repeat 1; callbacks at 1000, 2000, 2100 (window [2100, 3000)), 3000; records 50 ns earlier).
void TestCollectorSchedule::stepMarkerBeforeItsWindow() {
    CaptureSchedule s(cfg(1, 0, 1, 1), 0);
    play(s, "b:step:1000 e:step:2000 b:step:2100 e:step:3000 b:step:3100 e:step:4000");
    QCOMPARE(windowsText(s.scheduleWindows()), QString("[2100,3000)"));
    QVERIFY(!s.captures(2050));
    QVERIFY(s.capturesMarker("step", 2050, 2950));   // the active step's range
    QVERIFY(!s.capturesMarker("other", 2050, 2950)); // not a step: the lead is the step's alone
    QVERIFY(s.capturesMarker("step", 2050, 2050));   // a mark
    QVERIFY(!s.capturesMarker("step", 950, 1950));   // the waited step (no window after it)
    QVERIFY(!s.capturesMarker("step", 3050, 3950));  // after the schedule
    // A waited step shorter than the lead, just before: its end is outside, so not kept.
    QVERIFY(!s.capturesMarker("step", 2060, 2070));
    const int64_t lead = CaptureSchedule::kMarkerLeadNs;
    QVERIFY(s.capturesMarker("step", 2100 - lead, 2950));
    QVERIFY(!s.capturesMarker("step", 2100 - lead - 1, 2950));
}

// --wait-for-attach: nothing before the first start; kept in [start, stop) of each session;
// repeated starts and stops change nothing; an attach window narrows a capture range further.
void TestCollectorSchedule::attachWindows() {
    CaptureScheduleConfig c;
    c.attach = true;
    CaptureSchedule s(c, 0);
    QVERIFY(!s.captures(5)); // waiting: nothing kept
    s.onAttachStop(8);       // a stop before any start: nothing
    s.onAttachStart(10);
    s.onAttachStart(12); // already capturing
    QVERIFY(!s.captures(9));
    QVERIFY(s.captures(10));
    QVERIFY(s.captures(1000)); // open until stopped
    s.onAttachStop(20);
    s.onAttachStop(25);
    QVERIFY(s.captures(19));
    QVERIFY(!s.captures(20));
    s.onAttachStart(30);
    s.onAttachStop(40);
    QVERIFY(!s.captures(29));
    QVERIFY(s.captures(35));
    QVERIFY(!s.captures(40));
    QCOMPARE(s.attachWindows(),
             (std::vector<CaptureWindow>{CaptureWindow{10, 20}, CaptureWindow{30, 40}}));
    QVERIFY(!s.finished(1000)); // another session may come

    c.rangeName = std::string(strata::kProfilerApiRange);
    CaptureSchedule both(c, 0);
    both.onProfilerStart(10);
    both.onAttachStart(15);
    both.onProfilerStop(30);
    both.onAttachStop(40);
    QVERIFY(!both.captures(12));
    QVERIFY(both.captures(20));
    QVERIFY(!both.captures(35));

    CaptureSchedule off(CaptureScheduleConfig{}, 0); // without the mode: starts are ignored
    off.onAttachStart(10);
    QVERIFY(off.captures(5));
    QVERIFY(off.attachWindows().empty());
}

STRATA_TEST_GUILESS_MAIN(TestCollectorSchedule)
#include "tst_collector_schedule.moc"

// The clock checks (core/analysis/clock_checks, issue 27) both ways: a 150 ms offset where every
// kernel starts 150 ms after a launch made while its device was idle (estimated, warned, and gone
// once the suggested shift is applied: Trace::withGpuTimeShifted and strata-cli --gpu-shift-us),
// the same trace without the offset (no warning), and kernels that start before their launch.
// Times in ns, worked out by hand.
#include "analysis/gaps/gap_causes.h"
#include "support/analysis_trace_fixture.h"
#include "support/test_main.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <nlohmann/json.hpp>

using namespace strata;
using strata::test::GpuTraceFixture;

namespace {

// Five launches of 5'000 at i ms; kernel i (100'000 long) starts `offset` + 10'000 * i after its
// launch returned. The device is idle when each call starts (before its first op, or in the
// 900 µs gaps between them), so each is an idle launch with delay offset + 10'000 i.
std::shared_ptr<const Trace> offsetTrace(TimeNs offset) {
    GpuTraceFixture f;
    for (int i = 0; i < 5; ++i) {
        const TimeNs call = 1'000'000 * TimeNs(i);
        f.launch(call, 5'000, 1 + i);
        f.kernel(0, 7, call + 5'000 + offset + 10'000 * i, 100'000, "k", 1 + i);
    }
    return f.build();
}

} // namespace

class TestClockChecks : public QObject {
    Q_OBJECT
private slots:
    void offsetOf150msIsFoundAndUndone() {
        const auto t = offsetTrace(150'000'000);
        const GapCauses g = explainGpuGaps(*t, 10'000);
        QVERIFY(g.clock.offset());
        QCOMPARE(g.clock.idleLaunches, uint64_t(5));
        QCOMPARE(g.clock.leastIdleDelay, TimeNs(150'000'000));
        QCOMPARE(g.clock.mostIdleDelay, TimeNs(150'040'000));
        QCOMPARE(g.clock.startBeforeLaunch, uint64_t(0));
        QCOMPARE(g.clock.suggestedShift, TimeNs(-150'000'000));
        QCOMPARE(g.warnings.size(), size_t(1));
        QVERIFY2(
            g.warnings[0].find("the GPU clock looks 150.0 ms ahead of the CPU's: each of the 5 "
                               "ops launched while their device was idle started 150.0 ms to "
                               "150.0 ms after") == 0,
            g.warnings[0].c_str());
        QVERIFY(g.warnings[0].find("--gpu-shift-us -150000") != std::string::npos);
        // Shifted by the suggestion, kernel i starts 10'000 i after its call returned.
        const GapCauses s = explainGpuGaps(*t->withGpuTimeShifted(g.clock.suggestedShift), 10'000);
        QVERIFY(!s.clock.offset());
        QCOMPARE(s.clock.leastIdleDelay, TimeNs(0));
        QCOMPARE(s.clock.mostIdleDelay, TimeNs(40'000));
        QVERIFY(s.warnings.empty());
    }

    void noOffsetNoWarning() {
        const GapCauses g = explainGpuGaps(*offsetTrace(0), 10'000);
        QVERIFY(!g.clock.offset());
        QCOMPARE(g.clock.idleLaunches, uint64_t(5));
        QCOMPARE(g.clock.suggestedShift, TimeNs(0));
        QVERIFY(g.warnings.empty());
    }

    void oneLateStartIsNoOffset() {
        // Four prompt starts and one 5 ms late (a dependency the trace does not show): the least
        // delay is 0, so no offset.
        GpuTraceFixture f;
        for (int i = 0; i < 5; ++i) {
            const TimeNs call = 10'000'000 * TimeNs(i);
            f.launch(call, 5'000, 1 + i);
            f.kernel(0, 7, call + 5'000 + (i == 2 ? 5'000'000 : 0), 100'000, "k", 1 + i);
        }
        const GapCauses g = explainGpuGaps(*f.build(), 10'000);
        QCOMPARE(g.clock.idleLaunches, uint64_t(5));
        QCOMPARE(g.clock.leastIdleDelay, TimeNs(0));
        QCOMPARE(g.clock.mostIdleDelay, TimeNs(5'000'000));
        QVERIFY(!g.clock.offset());
        QVERIFY(g.warnings.empty());
    }

    void kernelsBeforeTheirLaunch() {
        // Kernel 2 starts 30'000 before its call: shifting the GPU by +30'000 fixes it.
        GpuTraceFixture f;
        f.launch(0, 5'000, 1);
        f.kernel(0, 7, 6'000, 1'000, "k", 1);
        f.launch(100'000, 5'000, 2);
        f.kernel(0, 7, 70'000, 1'000, "k", 2);
        const GapCauses g = explainGpuGaps(*f.build(), 10'000);
        QCOMPARE(g.clock.kernelsLaunched, uint64_t(2));
        QCOMPARE(g.clock.startBeforeLaunch, uint64_t(1));
        QCOMPARE(g.clock.mostBefore, TimeNs(30'000));
        QCOMPARE(g.clock.suggestedShift, TimeNs(30'000));
        QCOMPARE(g.warnings.size(), size_t(1));
        QVERIFY2(g.warnings[0].find("1 of 2 kernel(s) start before their launch call (by up to "
                                    "30.00 µs)") == 0,
                 g.warnings[0].c_str());
    }

    void cliOffsetAndShift() {
        // offsetTrace(150 ms) as Kineto JSON (µs): strata-cli gaps reports the offset and, with
        // --gpu-shift-us -150000, no longer does.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("offset.json"));
        {
            std::ofstream out(path.toStdString());
            out << R"({"traceEvents": [)";
            for (int i = 0; i < 5; ++i)
                out << (i ? "," : "")
                    << R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,)"
                    << R"("tid":1,"ts":)" << 1000 * i << R"(,"dur":5,"args":{"correlation":)"
                    << i + 1 << "}},"
                    << R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":)"
                    << 1000 * i + 5 + 150000 + 10 * i
                    << R"(,"dur":100,"args":{"device":0,"stream":7,"correlation":)" << i + 1
                    << "}}";
            out << "]}";
        }
        auto run = [&](QStringList extra) {
            QProcess p;
            p.start(QStringLiteral(STRATA_BINARY_DIR "/app/strata-cli"),
                    QStringList{QStringLiteral("gaps"), QStringLiteral("--json")} + extra +
                        QStringList{path});
            if (!p.waitForFinished(30000) || p.exitCode() != 0) return nlohmann::json();
            return nlohmann::json::parse(p.readAllStandardOutput().toStdString());
        };
        const nlohmann::json j = run({});
        QVERIFY(j.is_object());
        QCOMPARE(j["clock"]["offset"].get<bool>(), true);
        QCOMPARE(j["clock"]["least_idle_delay_us"].get<double>(), 150000.0);
        QCOMPARE(j["clock"]["suggested_gpu_shift_us"].get<double>(), -150000.0);
        QCOMPARE(j["warnings"].size(), size_t(1));
        const nlohmann::json s = run({QStringLiteral("--gpu-shift-us"), QStringLiteral("-150000")});
        QVERIFY(s.is_object());
        QCOMPARE(s["clock"]["offset"].get<bool>(), false);
        QCOMPARE(s["clock"]["least_idle_delay_us"].get<double>(), 0.0);
        QVERIFY(s["warnings"].empty());
    }
};

STRATA_TEST_GUILESS_MAIN(TestClockChecks)
#include "tst_clock_checks.moc"

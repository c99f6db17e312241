// What the host waited in while the GPU idled (issue 44), on small Kineto traces written here:
// an asynchronous copy to or from pageable memory blocks like cudaMemcpy (blocked time, a
// pinned-memory finding saving it, never launch overhead); a wait on nothing recorded claims no
// saving; the other threads of the process blocked during a gap are named (the reason, the
// advisor, `gaps --json` other_threads); late_us follows its definition (negative when the launch
// call was running when the gap began); strata-cli advise prints readable times. Times in µs in
// the traces, ns in the model; every expectation worked out by hand in the comments.
#include "analysis/advice/advisor.h"
#include "analysis/gaps/gap_causes.h"
#include "analysis/gaps/gap_text.h"
#include "analysis/json/gap_causes_json.h"
#include "support/kineto_json_fixture.h"
#include "support/test_main.h"

#include <QProcess>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace strata;
using strata::test::KinetoJson;

namespace {

const Finding* findingOf(const Advice& a, const std::string& rule) {
    for (const Finding& f : a.findings)
        if (f.rule == rule) return &f;
    return nullptr;
}

// K1 [1000, 1100) launched at [900, 910); cudaMemcpyAsync [1050, 1900) whose copy, Device ->
// `memory`, runs [1100, 1110); K2 [1920, 2000) launched at [1910, 1915). The device gap
// [1110, 1920), 810 µs: the thread sat in the copy call 790 (to 1900), untraced 10, the launch 5,
// queued 5.
KinetoJson copyTrace(const std::string& memory) {
    KinetoJson j;
    j.call("cudaLaunchKernel", 1, 900, 10, 1).kernel("K1", 1000, 100, 1);
    j.call("cudaMemcpyAsync", 1, 1050, 850, 2)
        .copy("Memcpy DtoH (Device -> " + memory + ")", 1100, 10, 2, 4000);
    j.call("cudaLaunchKernel", 1, 1910, 5, 3).kernel("K2", 1920, 80, 3);
    return j;
}

QString runCli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(STRATA_BINARY_DIR "/app/strata-cli"), args);
    if (!p.waitForFinished(30000) || p.exitCode() != 0) return {};
    return QString::fromUtf8(p.readAllStandardOutput());
}

} // namespace

class TestGapWaits : public QObject {
    Q_OBJECT
private slots:
    void pageableCopyBlocks() {
        const KinetoJson j = copyTrace("Pageable");
        const auto t = j.load();
        QVERIFY(t);
        const GapCauses g = explainGpuGaps(*t, 10'000);
        QCOMPARE(g.deviceGaps.size(), size_t(1));
        const ExplainedGap& e = g.deviceGaps[0];
        QCOMPARE(e.gap.start, TimeNs(1'110'000));
        QCOMPARE(e.gap.end, TimeNs(1'920'000));
        // 790 blocked in the copy (1580 > 810: synchronization), not launch overhead.
        QCOMPARE(e.breakdown.of(GapPartKind::Blocked), TimeNs(790'000));
        QCOMPARE(e.breakdown.of(GapPartKind::Untraced), TimeNs(10'000));
        QCOMPARE(e.breakdown.of(GapPartKind::Launch), TimeNs(5'000));
        QCOMPARE(e.breakdown.of(GapPartKind::Queued), TimeNs(5'000));
        QCOMPARE(int(e.cause), int(GapCause::Synchronization));
        QCOMPARE(t->name(e.blockingCall), std::string_view("cudaMemcpyAsync"));
        QVERIFY(!e.unseenWait); // K1 ran while the call began
        QCOMPARE(gapReason(*t, e),
                 std::string("blocked in cudaMemcpyAsync (a copy to or from pageable memory) "
                             "790.0 µs"));
        // The advisor: a pinned-memory finding saving the 790 blocked (more than the copy's 10
        // on the GPU), 790 of the span's 1000 (K1's start to K2's end); no synchronization or
        // launch-overhead finding for it.
        const Advice a = adviseTrace(*t);
        QCOMPARE(a.basis, TimeNs(1'000'000));
        const Finding* f = findingOf(a, "pageable");
        QVERIFY(f);
        QCOMPARE(f->saving, TimeNs(790'000));
        QCOMPARE(f->savingShare, 0.79);
        QCOMPARE(int(f->severity), int(FindingSeverity::Warning));
        QVERIFY2(f->detail.find("pin_memory=True") != std::string::npos, f->detail.c_str());
        QVERIFY2(f->detail.find("non_blocking=True") != std::string::npos, f->detail.c_str());
        QCOMPARE(a.findings.front().rule, std::string("pageable"));
        QVERIFY(!findingOf(a, "launch_overhead"));
        QVERIFY(!findingOf(a, "synchronization"));
    }

    void pinnedCopyDoesNotBlock() {
        // The same copy into pinned memory returns when queued: its call is a launch call (790 +
        // the launch 5 + queued 5 over half the gap: launch overhead), nothing blocked.
        const auto t = copyTrace("Pinned").load();
        QVERIFY(t);
        const GapCauses g = explainGpuGaps(*t, 10'000);
        QCOMPARE(g.deviceGaps.size(), size_t(1));
        QCOMPARE(g.deviceGaps[0].breakdown.of(GapPartKind::Blocked), TimeNs(0));
        QCOMPARE(g.deviceGaps[0].breakdown.of(GapPartKind::Launch), TimeNs(795'000));
        QCOMPARE(int(g.deviceGaps[0].cause), int(GapCause::LaunchOverhead));
        QVERIFY(!findingOf(adviseTrace(*t), "pageable"));
    }

    void pageableTailIsNoGraphCandidate() {
        // Twenty 10 µs kernels [1020 + 100 i, +10), each launched at [1010 + 100 i, +5); before
        // each (i >= 1) a pageable copy call [935 + 100 i, 1005 + 100 i) whose copy runs
        // [936 + 100 i, +2). Each gap [938 + 100 i, 1020 + 100 i) is blocked 67 of 82 in the
        // copy call: synchronization, not late launching. The kernels form a run of short ones,
        // but a CUDA graph would not remove a pageable copy's tail: no graph finding (it used to
        // claim 19 x 80 = 1520 µs), the pinned-memory finding instead (19 x 67 = 1273 µs).
        KinetoJson j;
        for (int i = 0; i < 20; ++i) {
            if (i > 0)
                j.call("cudaMemcpyAsync", 1, 935 + 100 * i, 70, 100 + i)
                    .copy("Memcpy DtoH (Device -> Pageable)", 936 + 100 * i, 2, 100 + i, 4);
            j.call("cudaLaunchKernel", 1, 1010 + 100 * i, 5, i + 1);
            j.kernel("short_k", 1020 + 100 * i, 10, i + 1);
        }
        const auto t = j.load();
        QVERIFY(t);
        const Advice a = adviseTrace(*t);
        QVERIFY(!findingOf(a, "graphs"));
        QVERIFY(!findingOf(a, "launch_overhead"));
        QCOMPARE(findingOf(a, "pageable")->saving, TimeNs(1'273'000));
    }

    void waitOnNothingRecordedSavesNothing() {
        // K1 [1000, 1010) launched at [990, 995); a pageable copy call [1100, 101100) whose copy
        // runs [101000, 101010): the gap [1010, 101000) is untraced 90 then blocked 99'900 in the
        // call, while no GPU op ran anywhere (K1 ended at 1010, before the call began): the trace
        // does not show what it waited for.
        KinetoJson j;
        j.call("cudaLaunchKernel", 1, 990, 5, 1).kernel("K1", 1000, 10, 1);
        j.call("cudaMemcpyAsync", 1, 1100, 100'000, 2)
            .copy("Memcpy DtoH (Device -> Pageable)", 101'000, 10, 2, 4);
        const auto t = j.load();
        QVERIFY(t);
        const GapCauses g = explainGpuGaps(*t, 10'000);
        QCOMPARE(g.deviceGaps.size(), size_t(1));
        const ExplainedGap& e = g.deviceGaps[0];
        QCOMPARE(e.breakdown.of(GapPartKind::Blocked), TimeNs(99'900'000));
        QCOMPARE(int(e.cause), int(GapCause::Synchronization));
        QVERIFY(e.unseenWait);
        QVERIFY(e.causeNotVisible());
        QVERIFY2(gapReason(*t, e).find("no GPU op recorded anywhere meanwhile: the GPU may be "
                                       "running work outside the capture") != std::string::npos,
                 gapReason(*t, e).c_str());
        // No finding claims that time: the most any saves is the copy's own 10 µs (pinned, it
        // would be faster); a not_visible finding says what the time is, ranked below it.
        const Advice a = adviseTrace(*t);
        const Finding* unseen = findingOf(a, "not_visible");
        QVERIFY(unseen);
        QCOMPARE(unseen->saving, TimeNs(0));
        QVERIFY2(unseen->title.find("99.99 ms of GPU idle time has no cause the trace shows") == 0,
                 unseen->title.c_str());
        for (const Finding& f : a.findings) QVERIFY(f.saving <= 10'000);
        QCOMPARE(findingOf(a, "pageable")->saving, TimeNs(10'000));
        QVERIFY(findingOf(a, "pageable") < unseen);
        QVERIFY(!findingOf(a, "synchronization"));
    }

    void otherThreadsBlocked() {
        // Thread 1 launches K1 [1000, 1100) and, at [950, 960), K2, which starts at 1500: the gap
        // [1100, 1500) is a dependency on nothing visible (one stream). Meanwhile thread 2
        // ("worker") sat in cudaStreamSynchronize [1050, 1550): 400, the whole gap; thread 3 in
        // c10d::wait [1200, 1300): 100; thread 1 itself, after its launch, in
        // cudaDeviceSynchronize [1400, 1450): 50.
        KinetoJson j;
        j.threadName(2, "worker");
        j.call("cudaLaunchKernel", 1, 900, 5, 1).kernel("K1", 1000, 100, 1);
        j.call("cudaLaunchKernel", 1, 950, 10, 2).kernel("K2", 1500, 100, 2);
        j.call("cudaDeviceSynchronize", 1, 1400, 50);
        j.call("cudaStreamSynchronize", 2, 1050, 500);
        j.cpuOp("c10d::wait", 3, 1200, 100);
        const auto t = j.load();
        QVERIFY(t);
        const GapCauses g = explainGpuGaps(*t, 10'000);
        QCOMPARE(g.deviceGaps.size(), size_t(1));
        const ExplainedGap& e = g.deviceGaps[0];
        QCOMPARE(int(e.cause), int(GapCause::Dependency));
        QVERIFY(e.causeNotVisible());
        QCOMPARE(e.otherThreads.size(), size_t(3));
        QCOMPARE(e.otherThreads[0].tid, int64_t(2));
        QCOMPARE(t->name(e.otherThreads[0].call), std::string_view("cudaStreamSynchronize"));
        QCOMPARE(e.otherThreads[0].overlap, TimeNs(400'000));
        QCOMPARE(e.otherThreads[1].tid, int64_t(3));
        QCOMPARE(t->name(e.otherThreads[1].call), std::string_view("c10d::wait"));
        QCOMPARE(e.otherThreads[1].overlap, TimeNs(100'000));
        QCOMPARE(e.otherThreads[2].tid, int64_t(1));
        QVERIFY(e.otherThreads[2].launching);
        QCOMPARE(e.otherThreads[2].overlap, TimeNs(50'000));
        const std::string worker =
            "thread 2 (worker) was blocked in cudaStreamSynchronize 400.0 µs (the whole gap)";
        QVERIFY2(gapReason(*t, e).find("not visible in the trace") != std::string::npos &&
                     gapReason(*t, e).find("; meanwhile " + worker) != std::string::npos,
                 gapReason(*t, e).c_str());
        // The advisor claims nothing for it and says who waited.
        const Advice a = adviseTrace(*t);
        QVERIFY(!findingOf(a, "dependency"));
        const Finding* unseen = findingOf(a, "not_visible");
        QVERIFY(unseen);
        QCOMPARE(unseen->saving, TimeNs(0));
        QVERIFY2(unseen->detail.find("Meanwhile " + worker) != std::string::npos,
                 unseen->detail.c_str());
        // strata-cli gaps --json: the device gap first, its other_threads longest first.
        const auto out =
            nlohmann::json::parse(runCli({QStringLiteral("gaps"), QStringLiteral("--json"),
                                          QString::fromStdString(j.write())})
                                      .toStdString());
        const auto& w = out["gaps"][0]["other_threads"];
        QCOMPARE(w.size(), size_t(3));
        QCOMPARE(w[0]["pid"].get<int>(), 1);
        QCOMPARE(w[0]["tid"].get<int>(), 2);
        QCOMPARE(w[0]["thread"].get<std::string>(), std::string("worker"));
        QCOMPARE(w[0]["call"].get<std::string>(), std::string("cudaStreamSynchronize"));
        QCOMPARE(w[0]["overlap_us"].get<double>(), 400.0);
        QCOMPARE(w[0]["whole_gap"].get<bool>(), true);
        QCOMPARE(w[0]["launching_thread"].get<bool>(), false);
        QCOMPARE(w[1]["call"].get<std::string>(), std::string("c10d::wait"));
        QCOMPARE(w[1]["whole_gap"].get<bool>(), false);
        QCOMPARE(w[2]["tid"].get<int>(), 1);
        QCOMPARE(w[2]["launching_thread"].get<bool>(), true);
        QCOMPARE(w[2]["overlap_us"].get<double>(), 50.0);
        QCOMPARE(out["gaps"][0]["no_recorded_cause"].get<bool>(), true);
    }

    void lateFollowsItsDefinition() {
        // K1 [1000, 1100); K2's launch call [1090, 1150) was running when the gap [1100, 1200)
        // began and returned inside it: a late launch, late_us = 1090 - 1100 = -10 (it used to
        // be clamped to 0); the call 50 then queued 50.
        KinetoJson j;
        j.call("cudaLaunchKernel", 1, 900, 5, 1).kernel("K1", 1000, 100, 1);
        j.call("cudaLaunchKernel", 1, 1090, 60, 2).kernel("K2", 1200, 100, 2);
        const auto t = j.load();
        QVERIFY(t);
        const GapCauses g = explainGpuGaps(*t, 10'000);
        QCOMPARE(g.deviceGaps.size(), size_t(1));
        const ExplainedGap& e = g.deviceGaps[0];
        QVERIFY(e.launchedLate);
        QCOMPARE(e.late, TimeNs(-10'000));
        QCOMPARE(e.breakdown.of(GapPartKind::Launch), TimeNs(50'000));
        QCOMPARE(gapCausesToJson(*t, g)["gaps"][0]["late_us"].get<double>(), -10.0);
    }

    void adviseTimesAreReadable() {
        // The pageable copy [1100, 1110), 200 µs after the trace's start (the first call, 900):
        // "at 200.0 µs (10.00 µs)", 4 significant digits, not the exact-ns form.
        const KinetoJson j = copyTrace("Pageable");
        const QString out = runCli({QStringLiteral("advise"), QString::fromStdString(j.write())});
        QVERIFY2(out.contains(QStringLiteral("  at 200.0 µs (10.00 µs)")), qPrintable(out));
    }
};

STRATA_TEST_GUILESS_MAIN(TestGapWaits)
#include "tst_gap_waits.moc"

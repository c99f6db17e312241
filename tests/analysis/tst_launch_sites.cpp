// Where each launch came from in the program's Python (issue 45; core/analysis/ops/launch_sites.h,
// call_site_stats.h) and `strata-cli stats --by call-site`, on a hand-made Kineto trace whose call
// sites are worked out by hand beside each check.
#include "analysis/gaps/gap_causes.h"
#include "analysis/ops/call_site_stats.h"
#include "analysis/ops/launch_sites.h"
#include "analysis/trace_analysis.h"
#include "io/trace_loader.h"
#include "model/build/trace_builder.h"
#include "support/kineto_json_fixture.h"
#include "support/process_run.h"
#include "support/slice_lookup.h"
#include "support/test_main.h"

#include <QtTest>

#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

using namespace strata;
using strata::test::KinetoJson;

namespace {

// Times in µs. Thread 1:
//   train.py(10): main                               [0, 1000)     user
//     model.py(20): forward                          [10, 500)     user
//       nn.Module: Linear_0                          [15, 250)     not a source frame
//         torch/nn/functional.py(2000): linear       [20, 200)     library
//           <built-in function linear>               [30, 150)     library
//             aten::linear (cpu_op)                  [40, 140)
//               cudaLaunchKernel corr 1              [50, 60)  -> gemm_a [100, 130)
//       cudaLaunchKernel corr 2                      [300, 310) -> relu_k [320, 340)
//       cudaLaunchKernel corr 6                      [400, 410) -> gemm_a [420, 450)
//       cudaStreamSynchronize                        [460, 470)    no GPU op
//     torch/optim/adam.py(100): step                 [600, 900)    library
//       cudaLaunchKernel corr 3                      [610, 620) -> adam_k [630, 680)
// Thread 2 (library frames only):
//   threading.py(1000): run                          [2000, 2500)
//     <built-in method to of Tensor object at 0x7f00ab>  [2010, 2100)
//       cudaLaunchKernel corr 4                      [2020, 2030) -> copy_k [2040, 2050)
// Thread 3: cudaLaunchKernel corr 5 [3000, 3010), no Python around it -> lonely_k [3020, 3060)
// Thread 4: app.py(5): a [5000, 5100) and app.py(7): b [5050, 5200) overlap without nesting
//   (b goes to an extra lane); cudaLaunchKernel corr 7 [5060, 5070) -> lane_k [5080, 5090)
KinetoJson handMade() {
    KinetoJson j;
    auto py = [&](const std::string& name, int64_t tid, double ts, double dur) {
        j.x("python_function", name, 1, tid, ts, dur);
    };
    py("train.py(10): main", 1, 0, 1000);
    py("model.py(20): forward", 1, 10, 490);
    py("nn.Module: Linear_0", 1, 15, 235);
    py("torch/nn/functional.py(2000): linear", 1, 20, 180);
    py("<built-in function linear>", 1, 30, 120);
    j.cpuOp("aten::linear", 1, 40, 100);
    j.call("cudaLaunchKernel", 1, 50, 10, 1).kernel("gemm_a", 100, 30, 1);
    j.call("cudaLaunchKernel", 1, 300, 10, 2).kernel("relu_k", 320, 20, 2);
    j.call("cudaLaunchKernel", 1, 400, 10, 6).kernel("gemm_a", 420, 30, 6);
    j.call("cudaStreamSynchronize", 1, 460, 10);
    py("torch/optim/adam.py(100): step", 1, 600, 300);
    j.call("cudaLaunchKernel", 1, 610, 10, 3).kernel("adam_k", 630, 50, 3);
    py("threading.py(1000): run", 2, 2000, 500);
    py("<built-in method to of Tensor object at 0x7f00ab>", 2, 2010, 90);
    j.call("cudaLaunchKernel", 2, 2020, 10, 4).kernel("copy_k", 2040, 10, 4);
    j.call("cudaLaunchKernel", 3, 3000, 10, 5).kernel("lonely_k", 3020, 40, 5);
    py("app.py(5): a", 4, 5000, 100);
    py("app.py(7): b", 4, 5050, 150);
    j.call("cudaLaunchKernel", 4, 5060, 10, 7).kernel("lane_k", 5080, 10, 7);
    return j;
}

// The API call carrying correlation id `c`.
SliceRef callOf(const Trace& t, int64_t c) {
    for (SliceRef r : t.byCorrelation(c))
        if (isLaunchApiKind(t.kind(r))) return r;
    return {};
}

std::string siteOfText(const Trace& t, const LaunchSites& s, SliceRef r) {
    const uint32_t site = s.siteOfOp(t, r);
    return site == LaunchSites::kNone ? "(none)" : s.text(site);
}

} // namespace

class TestLaunchSites : public QObject {
    Q_OBJECT
private slots:
    void siteText_data() {
        QTest::addColumn<QString>("frame");
        QTest::addColumn<QString>("site");
        QTest::addColumn<bool>("user");
        QTest::newRow("user frame") << "model.py(20): forward"
                                    << "model.py:20 forward" << true;
        QTest::newRow("folders") << "a/b/c.py(7): <lambda>"
                                 << "a/b/c.py:7 <lambda>" << true;
        QTest::newRow("library") << "torch/nn/modules/module.py(1743): _call_impl"
                                 << "torch/nn/modules/module.py:1743 _call_impl" << false;
        QTest::newRow("site-packages") << "/venv/lib/site-packages/x/y.py(3): f"
                                       << "/venv/lib/site-packages/x/y.py:3 f" << false;
        QTest::newRow("built-in at an address")
            << "<built-in method to of Tensor object at 0x7d67180cc190>"
            << "<built-in method to of Tensor object>" << false;
        QTest::newRow("built-in function") << "<built-in function linear>"
                                           << "<built-in function linear>" << false;
        QTest::newRow("nn.Module") << "nn.Module: Linear_0"
                                   << "nn.Module: Linear_0" << false;
        QTest::newRow("no line") << "main.py(): f"
                                 << "main.py(): f" << false;
        QTest::newRow("not digits") << "main.py(x1): f"
                                    << "main.py(x1): f" << false;
    }
    void siteText() {
        QFETCH(QString, frame);
        QFETCH(QString, site);
        QFETCH(bool, user);
        QCOMPARE(QString::fromStdString(callSiteText(frame.toStdString())), site);
        QCOMPARE(isUserPythonFrame(frame.toStdString()), user);
    }

    void sitesByHand() {
        const KinetoJson j = handMade();
        const auto trace = j.load();
        QVERIFY(trace);
        const Trace& t = *trace;
        const LaunchSites s = findLaunchSites(t);
        // Under a library frame, a built-in and an nn.Module inside model.py: model.py's frame.
        QCOMPARE(siteOfText(t, s, callOf(t, 1)), std::string("model.py:20 forward"));
        QCOMPARE(siteOfText(t, s, test::sliceNamed(t, "gemm_a")),
                 std::string("model.py:20 forward"));
        QCOMPARE(siteOfText(t, s, callOf(t, 2)), std::string("model.py:20 forward"));
        QCOMPARE(siteOfText(t, s, callOf(t, 6)), std::string("model.py:20 forward"));
        // A sync call is an API call too.
        QCOMPARE(siteOfText(t, s, test::sliceNamed(t, "cudaStreamSynchronize")),
                 std::string("model.py:20 forward"));
        // Inside the library's optimizer step: the user frame around it.
        QCOMPARE(siteOfText(t, s, test::sliceNamed(t, "adam_k")), std::string("train.py:10 main"));
        // Only library frames: the innermost at all, without the object's address.
        QCOMPARE(siteOfText(t, s, test::sliceNamed(t, "copy_k")),
                 std::string("<built-in method to of Tensor object>"));
        // No Python around the launch.
        QCOMPARE(siteOfText(t, s, test::sliceNamed(t, "lonely_k")), std::string("(none)"));
        // Frames on two lanes (b was moved to an extra one): the one that started last, b.
        QVERIFY(test::sliceNamed(t, "app.py(7): b").track !=
                test::sliceNamed(t, "app.py(5): a").track);
        QCOMPARE(siteOfText(t, s, test::sliceNamed(t, "lane_k")), std::string("app.py:7 b"));
        // 8 API calls have a site (corr 1, 2, 3, 4, 6, 7 and the sync), corr 5 has none.
        QCOMPARE(s.callsWithSite(), size_t(7));
        QCOMPARE(s.callsWithoutSite(), size_t(1));
        // The one-call lookup (the Details dock's) agrees.
        const SliceRef f = pythonCallSiteOf(t, test::sliceNamed(t, "gemm_a"));
        QVERIFY(f.valid());
        QCOMPARE(t.name(f), std::string_view("model.py(20): forward"));
        QVERIFY(!pythonCallSiteOf(t, test::sliceNamed(t, "lonely_k")).valid());
        QCOMPARE(t.name(pythonCallSiteOf(t, test::sliceNamed(t, "lane_k"))),
                 std::string_view("app.py(7): b"));
    }

    void statsByCallSite() {
        const KinetoJson j = handMade();
        const TraceAnalysis a(j.load());
        const CallSiteStats cs = callSiteStats(a.opStatsByCallSite());
        // Kernel time 30 + 20 + 30 + 50 + 10 + 40 + 10 = 190 µs. By total: model.py 80 (gemm_a
        // 2 x 30, relu_k 20), train.py 50, none 40, app.py b 10 and the built-in 10 (by text).
        QCOMPARE(cs.kernelTime, TimeNs(190'000));
        QCOMPARE(cs.sites.size(), size_t(5));
        QCOMPARE(cs.sites[0].site, std::string("model.py:20 forward"));
        QCOMPARE(cs.sites[0].count, uint64_t(3));
        QCOMPARE(cs.sites[0].total, TimeNs(80'000));
        QCOMPARE(cs.sites[0].mean, 80'000.0 / 3);
        QCOMPARE(cs.sites[0].share, 80.0 / 190);
        QCOMPARE(cs.sites[0].kernels.size(), size_t(2));
        QCOMPARE(cs.sites[0].kernels[0].name, std::string("gemm_a"));
        QCOMPARE(cs.sites[0].kernels[0].count, uint64_t(2));
        QCOMPARE(cs.sites[0].kernels[0].total, TimeNs(60'000));
        QCOMPARE(cs.sites[0].kernels[1].name, std::string("relu_k"));
        QCOMPARE(cs.sites[1].site, std::string("train.py:10 main"));
        QCOMPARE(cs.sites[1].total, TimeNs(50'000));
        QCOMPARE(cs.sites[2].site, std::string());
        QCOMPARE(cs.sites[2].total, TimeNs(40'000));
        // The kernel table grouped by site says the same per (kernel, site).
        for (const KernelRow& k : a.opStatsByCallSite().kernels)
            if (k.name == "adam_k") QCOMPARE(k.launchedBy, std::string("train.py:10 main"));
    }

    // The gap breakdown (core/analysis/gaps/) names the user's frame as the context of time
    // spent in library frames and built-ins under it (frame_roles.h), as the call sites do.
    void gapContextIsTheUserFrame() {
        // K1 [100, 200) launched at [10, 15); train.py(5): step [300, 1000) holds
        // torch/nn/functional.py(10): linear [400, 900), which holds <built-in function linear>
        // [500, 800); the launch of K2 [950, 955), K2 at 960. The gap [200, 960): untraced 100,
        // step 100 + 50, linear 100 + 100, the built-in 300, launch 5, queued 5.
        KinetoJson j;
        j.call("cudaLaunchKernel", 1, 10, 5, 1).kernel("K1", 100, 100, 1);
        j.x("python_function", "train.py(5): step", 1, 1, 300, 700);
        j.x("python_function", "torch/nn/functional.py(10): linear", 1, 1, 400, 500);
        j.x("python_function", "<built-in function linear>", 1, 1, 500, 300);
        j.call("cudaLaunchKernel", 1, 950, 5, 2).kernel("K2", 960, 40, 2);
        const auto t = j.load();
        QVERIFY(t);
        const GapCauses g = explainGpuGaps(*t, 10'000);
        QCOMPARE(g.deviceGaps.size(), size_t(1));
        const GapBreakdown& b = g.deviceGaps[0].breakdown;
        QCOMPARE(b.of(GapPartKind::Cpu), TimeNs(650'000));
        QCOMPARE(b.of(GapPartKind::Untraced), TimeNs(100'000));
        const GapPart* d = b.dominantCpu();
        QVERIFY(d);
        QCOMPARE(t->str(d->name), std::string_view("<built-in function linear>"));
        QCOMPARE(d->time, TimeNs(300'000));
        QCOMPARE(t->str(d->context), std::string_view("train.py(5): step"));
        for (const GapPart& p : b.parts)
            if (p.name != kNoName && t->str(p.name) == "torch/nn/functional.py(10): linear") {
                QCOMPARE(p.time, TimeNs(200'000));
                QCOMPARE(t->str(p.context), std::string_view("train.py(5): step"));
            }
    }

    // Sampled stacks (--python sample): a launch no python_function slice encloses takes the
    // Python sample of its thread nearest its start, within a sampling period (here 1 ms: the
    // samples are 1 ms apart), at its innermost user frame.
    void sitesFromSamples() {
        // Thread 1 sampled at 0, 1000, 2000, 3000 us: main > step > <built-in...> until 2000,
        // then main > other. Launch A at 1100 (nearest sample 1000: step), launch B at 2990
        // (nearest 3000: other), launch C at 9000 (no sample within 1 ms: none).
        const std::string json = R"({"traceEvents": [
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1100, "dur": 10, "args": {"correlation": 1}},
  {"ph": "X", "cat": "kernel", "name": "k_a", "pid": 0, "tid": 7, "ts": 1200, "dur": 10, "args": {"correlation": 1, "device": 0, "stream": 7}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 2990, "dur": 5, "args": {"correlation": 2}},
  {"ph": "X", "cat": "kernel", "name": "k_b", "pid": 0, "tid": 7, "ts": 3000, "dur": 10, "args": {"correlation": 2, "device": 0, "stream": 7}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 9000, "dur": 5, "args": {"correlation": 3}},
  {"ph": "X", "cat": "kernel", "name": "k_c", "pid": 0, "tid": 7, "ts": 9010, "dur": 10, "args": {"correlation": 3, "device": 0, "stream": 7}}],
 "stackFrames": {"1": {"name": "train.py(1): main"}, "2": {"name": "train.py(5): step", "parent": "1"},
                 "3": {"name": "<built-in method add of Tensor object>", "parent": "2"},
                 "4": {"name": "train.py(9): other", "parent": "1"}},
 "samples": [{"ts": 0, "pid": 1, "tid": 1, "sf": "3"}, {"ts": 1000, "pid": 1, "tid": 1, "sf": "3"},
             {"ts": 2000, "pid": 1, "tid": 1, "sf": "4"}, {"ts": 3000, "pid": 1, "tid": 1, "sf": "4"}]})";
        const std::string path = QDir::temp().filePath("strata-sampled-sites.json").toStdString();
        { std::ofstream(path) << json; }
        const LoadResult loaded = loadTrace(path);
        QVERIFY(loaded.ok());
        const auto& trace = loaded.trace;
        QCOMPARE(trace->stackSamples().size(), size_t(4));
        const LaunchSites sites = findLaunchSites(*trace);
        QCOMPARE(siteOfText(*trace, sites, test::sliceNamed(*trace, "k_a")),
                 std::string("train.py:5 step"));
        QCOMPARE(siteOfText(*trace, sites, test::sliceNamed(*trace, "k_b")),
                 std::string("train.py:9 other"));
        QCOMPARE(siteOfText(*trace, sites, test::sliceNamed(*trace, "k_c")), std::string("(none)"));
        std::remove(path.c_str());
    }

    // The stack the collector took at a call's enter callback (StackKind::ApiCall) is the call's
    // however long the thread was held before the call's own start (here 300 us: the writer's
    // lock, a busy machine), but never an earlier call's. Times in ns, thread (10, 11):
    //   ApiCall stack: 1'000 at train.py(5) step
    //   Python samples: 1'290'000 at train.py(1) main (the nearest to call A's start)
    //   call A [1'300'000, +20'000): its stack taken 1'299'000 ns before -> step
    //   call B [1'400'000, +20'000): the last ApiCall stack before it (1'000) was taken before
    //     call A ended, so it is not B's; B takes the Python sample nearest its start within a
    //     period (the median gap between samples: 209'000 of 5'000, 209'000, 1'289'000),
    //     1'290'000 -> main
    //   call C [1'500'000, +20'000) holds call D [1'505'000, +5'000): C's stack at 1'499'000
    //     (eval), D's at 1'504'000 (step): C takes the last one before its end (D's, taken
    //     inside it: the same thread's stack at the same call) -> step; D -> step
    void apiCallStacks() {
        TraceBuilder b;
        const CallsiteId main = b.addCallsite(kNoCallsite, b.intern("train.py(1): main"));
        const CallsiteId step = b.addCallsite(main, b.intern("train.py(5): step"));
        const CallsiteId eval = b.addCallsite(main, b.intern("train.py(7): eval"));
        constexpr auto kApi = uint8_t(StackKind::ApiCall), kPy = uint8_t(StackKind::Python);
        b.addStackSample(10, 11, 1'000, step, kApi);
        b.addStackSample(10, 11, 1'290'000, main, kPy);
        b.addStackSample(10, 11, 1'499'000, eval, kApi);
        b.addStackSample(10, 11, 1'504'000, step, kApi);
        const TrackId thread = b.threadTrack(10, 11);
        const StringId launch = b.intern("cudaLaunchKernel");
        for (const auto& [start, dur] : std::vector<std::pair<TimeNs, TimeNs>>{
                 {1'300'000, 20'000}, {1'400'000, 20'000}, {1'500'000, 20'000}, {1'505'000, 5'000}})
            b.addSlice(thread, SliceInput{.start = start,
                                          .dur = dur,
                                          .name = launch,
                                          .kind = SliceKind::CudaRuntime});
        const auto trace = b.build();
        const LaunchSites sites = findLaunchSites(*trace);
        TrackId tr = 0;
        while (trace->track(tr).kind != TrackKind::Thread) ++tr;
        const auto siteAt = [&](SliceIndex i) {
            const uint32_t s = sites.siteOf({tr, i});
            return s == LaunchSites::kNone ? std::string("(none)") : sites.text(s);
        };
        QCOMPARE(trace->track(tr).slices.size(), size_t(4));
        QCOMPARE(siteAt(0), std::string("train.py:5 step"));
        QCOMPARE(siteAt(1), std::string("train.py:1 main"));
        QCOMPARE(siteAt(2), std::string("train.py:5 step"));
        QCOMPARE(siteAt(3), std::string("train.py:5 step"));
    }

    void cliByCallSite() {
        const KinetoJson j = handMade();
        const std::string path = j.write();
        const auto run = test::runStrataCli(
            {"stats", "--by", "call-site", "--json", QString::fromStdString(path)});
        QCOMPARE(run.exitCode, 0);
        const auto out = nlohmann::json::parse(run.out.toStdString());
        const auto& sites = out.at("call_sites");
        QCOMPARE(sites.size(), size_t(5));
        QCOMPARE(sites[0].at("site").get<std::string>(), std::string("model.py:20 forward"));
        QCOMPARE(sites[0].at("count").get<int>(), 3);
        QCOMPARE(sites[0].at("total_us").get<double>(), 80.0);
        QCOMPARE(sites[0].at("kernels")[0].at("name").get<std::string>(), std::string("gemm_a"));
        QVERIFY(sites[2].at("site").is_null());
        QCOMPARE(sites[2].at("kernels")[0].at("name").get<std::string>(), std::string("lonely_k"));
        // The text table lists the sites.
        const auto text =
            test::runStrataCli({"stats", "--by", "call-site", QString::fromStdString(path)});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("model.py:20 forward"));
        QVERIFY(text.out.contains("(no Python call site)"));
        // A grouping it does not know, and two at once.
        const auto bad = test::runCli({"stats", "--by", "file", QString::fromStdString(path)});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("--by expects name, op or call-site, got 'file'"),
                 qPrintable(bad.err));
        const auto both = test::runCli(
            {"stats", "--group-by-op", "--by", "call-site", QString::fromStdString(path)});
        QCOMPARE(both.exitCode, 2);
    }
};

STRATA_TEST_GUILESS_MAIN(TestLaunchSites)
#include "tst_launch_sites.moc"

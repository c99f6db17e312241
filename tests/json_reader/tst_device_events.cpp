// Device work of an accelerator Strata does not know by category (issue 46): recognised by what
// its events carry (a stream or queue, a correlation to a runtime call, a device lane), MTIA's
// categories by name, runtime calls of any "*_runtime" category with a correlation, and a
// warning naming the category of events that look like device work but are kept as CPU slices.
// Every expected value is worked out by hand from tests/data/json/unknown_accelerator.json
// (times: microseconds x 1000).
#include "analysis/trace_info.h"
#include "io/json/json_device_events.h"
#include "io/trace_loader.h"
#include "json_reader_fixture.h"
#include "support/test_main.h"

#include <QtTest>

#include <string>

using namespace strata;
using namespace strata::test;

Q_DECLARE_METATYPE(strata::SliceKind)

class TestDeviceEvents : public QObject {
    Q_OBJECT

private slots:
    void rule_data();
    void rule();
    void unknownAcceleratorOnDeviceLanes();
    void launchCorrelation();
    void lookalikesAreReported();
};

void TestDeviceEvents::rule_data() {
    QTest::addColumn<QString>("category");
    QTest::addColumn<char>("ph");
    QTest::addColumn<qint64>("pid");
    QTest::addColumn<bool>("queue");
    QTest::addColumn<bool>("correlation");
    QTest::addColumn<qint64>("device"); // -1: no "device" arg
    QTest::addColumn<SliceKind>("kind");
    QTest::addColumn<QString>("why"); // a part of notTakenWhy; empty: none
    QTest::newRow("named by category")
        << "kernel" << 'X' << qint64(0) << false << false << qint64(-1) << SliceKind::Kernel << "";
    QTest::newRow("mtia_ccp_events") << "mtia_ccp_events" << 'X' << qint64(9) << false << false
                                     << qint64(-1) << SliceKind::Kernel << "";
    QTest::newRow("mtia_runtime") << "mtia_runtime" << 'X' << qint64(5000) << false << false
                                  << qint64(-1) << SliceKind::CudaRuntime << "";
    QTest::newRow("*_runtime + correlation") << "npu_runtime" << 'B' << qint64(5000) << false
                                             << true << qint64(-1) << SliceKind::CudaRuntime << "";
    QTest::newRow("*_driver + correlation") << "npu_driver" << 'X' << qint64(5000) << false << true
                                            << qint64(-1) << SliceKind::CudaDriver << "";
    QTest::newRow("*_runtime, no correlation") << "npu_runtime" << 'X' << qint64(5000) << false
                                               << false << qint64(-1) << SliceKind::Generic << "";
    QTest::newRow("queue + correlation, device index")
        << "npu_device" << 'X' << qint64(3) << true << true << qint64(-1) << SliceKind::Kernel
        << "";
    QTest::newRow("queue + correlation, device = pid")
        << "npu_device" << 'X' << qint64(4000) << true << true << qint64(4000) << SliceKind::Kernel
        << "";
    QTest::newRow("no category") << "" << 'X' << qint64(2) << true << true << qint64(-1)
                                 << SliceKind::Kernel << "";
    QTest::newRow("no correlation")
        << "npu_device" << 'X' << qint64(3) << true << false << qint64(-1) << SliceKind::Generic
        << "category 'npu_device' looks like device work (its args "
           "name a stream or queue) but carries no \"correlation\"";
    QTest::newRow("device is not the pid")
        << "npu_device" << 'X' << qint64(3) << true << true << qint64(1) << SliceKind::Generic
        << "is not on a device lane";
    QTest::newRow("OS pid") << "npu_device" << 'X' << qint64(4000) << true << true << qint64(-1)
                            << SliceKind::Generic << "is not on a device lane";
    QTest::newRow("B event") << "npu_device" << 'B' << qint64(3) << true << true << qint64(-1)
                             << SliceKind::Generic << "is not an 'X' event";
    QTest::newRow("device = pid, no queue")
        << "npu_device" << 'X' << qint64(3) << false << true << qint64(3) << SliceKind::Generic
        << "(its \"device\" is its pid) but names no stream or queue";
    QTest::newRow("nothing device-like") << "npu_device" << 'X' << qint64(3) << false << true
                                         << qint64(-1) << SliceKind::Generic << "";
}

void TestDeviceEvents::rule() {
    QFETCH(QString, category);
    QFETCH(char, ph);
    QFETCH(qint64, pid);
    QFETCH(bool, queue);
    QFETCH(bool, correlation);
    QFETCH(qint64, device);
    QFETCH(SliceKind, kind);
    QFETCH(QString, why);
    DeviceArgs a;
    a.queue = queue;
    a.correlation = correlation;
    if (device >= 0) a.device = device;
    const std::string cat = category.toStdString();
    const DeviceKind k = deviceKindOf(sliceKindFromCategory(cat), cat, ph, pid, a);
    QCOMPARE(int(k.kind), int(kind));
    if (why.isEmpty())
        QVERIFY2(k.notTakenWhy.empty(), k.notTakenWhy.c_str());
    else
        QVERIFY2(k.notTakenWhy.find(why.toStdString()) != std::string::npos, k.notTakenWhy.c_str());
}

namespace {

LoadResult loadFixture() {
    return loadTrace(dataPath("unknown_accelerator.json"));
}

// The only slice of a GPU stream track, checked by name, kind and time.
void checkOnlyOp(const Trace& t, int32_t device, int64_t stream, const char* name, TimeNs start,
                 TimeNs dur) {
    const TrackId id = findTrack(t, TrackKind::GpuStream, device, stream);
    QVERIFY2(id != UINT32_MAX, name);
    const SliceColumns& s = t.track(id).slices;
    QCOMPARE(s.size(), size_t(1));
    QCOMPARE(t.str(s.name[0]), std::string_view(name));
    QCOMPARE(int(s.kind[0]), int(SliceKind::Kernel));
    QCOMPARE(s.start[0], start);
    QCOMPARE(s.dur[0], dur);
}

} // namespace

void TestDeviceEvents::unknownAcceleratorOnDeviceLanes() {
    const LoadResult r = loadFixture();
    QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
    const Trace& t = *r.trace;
    // Five GPU ops, each alone on its (device, stream): the "stream" arg, else the tid.
    checkOnlyOp(t, 3, 5, "add_kernel", 40000, 8000);
    checkOnlyOp(t, 9, 1, "fc-dtype_Float", 90000, 6000);
    checkOnlyOp(t, 9, 801, "dma_request", 97000, 1000);
    checkOnlyOp(t, 7, 2, "queued_by_device", 110000, 2000);
    checkOnlyOp(t, 0, 1, "k2", 126000, 3000);
    size_t gpuTracks = 0;
    for (const Track& tr : t.tracks()) gpuTracks += tr.kind == TrackKind::GpuStream;
    QCOMPARE(gpuTracks, size_t(5));
    QVERIFY(traceInfo(t, "unknown_accelerator.json", r.format).noGpuReason.empty());
    // The look-alikes stay on their threads, Generic.
    const SliceRef idle = findSlice(t, "idle_marker");
    QVERIFY(idle.valid());
    QCOMPARE(idle.track, findTrack(t, TrackKind::Thread, 3, 30));
    QCOMPARE(int(t.kind(idle)), int(SliceKind::Generic));
    const SliceRef host = findSlice(t, "host_side");
    QVERIFY(host.valid());
    QCOMPARE(host.track, findTrack(t, TrackKind::Thread, 100, 101));
    QCOMPARE(int(t.kind(host)), int(SliceKind::Generic));
    // A "*_runtime" category without a correlation is no runtime call.
    const SliceRef plain = findSlice(t, "noCorrelation");
    QVERIFY(plain.valid());
    QCOMPARE(int(t.kind(plain)), int(SliceKind::Generic));
}

void TestDeviceEvents::launchCorrelation() {
    const LoadResult r = loadFixture();
    QVERIFY(r.ok());
    const Trace& t = *r.trace;
    struct Link {
        const char* op;
        const char* launch; // nullptr: none
        TimeNs launchStart;
    };
    const Link links[] = {
        {"add_kernel", "npuLaunchKernel", 12000},
        {"fc-dtype_Float", "runFunction - job_prep_and_submit_for_execution", 80000},
        {"k2", "xpuLaunch", 120000},
        {"dma_request", nullptr, 0},
        {"queued_by_device", nullptr, 0}};
    for (const Link& l : links) {
        const SliceRef op = findSlice(t, l.op);
        QVERIFY2(op.valid(), l.op);
        const SliceRef launch = t.launchOf(op);
        if (!l.launch) {
            QVERIFY2(!launch.valid(), l.op);
            continue;
        }
        QVERIFY2(launch.valid(), l.op);
        QCOMPARE(t.name(launch), std::string_view(l.launch));
        QCOMPARE(int(t.kind(launch)), int(SliceKind::CudaRuntime));
        QCOMPARE(t.start(launch), l.launchStart);
        QCOMPARE(t.gpuOpsOf(launch).size(), size_t(1));
    }
    // The B/E runtime call: [120, 125] us.
    const SliceRef b = findSlice(t, "xpuLaunch");
    QCOMPARE(t.track(b.track).slices.dur[b.index], TimeNs(5000));
}

void TestDeviceEvents::lookalikesAreReported() {
    const LoadResult r = loadFixture();
    QVERIFY(r.ok());
    const Trace& t = *r.trace;
    std::string all;
    for (const auto& w : t.warnings()) all += w + "\n";
    // idle_marker (line 5 of the file) and host_side (line 6), one warning per reason.
    QVERIFY2(hasWarning(t, "1 event: category 'npu_device' looks like device work (its args name "
                           "a stream or queue) but carries no \"correlation\" to a runtime call; "
                           "kept as a CPU slice (first at byte"),
             all.c_str());
    QVERIFY2(hasWarning(t, ", line 5)"), all.c_str());
    QVERIFY2(hasWarning(t, "1 event: category 'npu_device' looks like device work (its args name "
                           "a stream or queue) but is not on a device lane"),
             all.c_str());
    QVERIFY2(hasWarning(t, ", line 6)"), all.c_str());
    QCOMPARE(t.warnings().size(), size_t(2));
}

STRATA_TEST_GUILESS_MAIN(TestDeviceEvents)
#include "tst_device_events.moc"

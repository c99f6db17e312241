// JAX/XLA XSpace files (io/formats/xplane): hand-made .xplane.pb bytes written here with a small
// protobuf wire writer (field numbers of xplane.proto), every expected value worked out below.
// The real file of ../shared/formats is checked against an independent decoder
// (tests/data/formats/expected_xplane.py).
//
// Plane 1 "/host:CPU": line 7 "worker" at timestamp_ns 1000: event "hipLaunchKernel" at offset
//   2,000,500 ps for 3,000,000 ps (ns 1000 + 2000 = 3000, 3000 long), stat correlation_id = 5;
//   event "step" at offset 0 for 10,000,000 ps.
// Plane 2 "/device:GPU:0": stats core_count = 104; line 2 "Stream #2" at 1000: event "k" at
//   offset 6,000,000 ps for 1,500,999 ps (ns 7000, 1500 long), stats correlation_id = 5 and
//   kernel_details " grid:11,16,2 block:256,1,1".
#include "io/trace_loader.h"
#include "support/strata_format_fixture.h"
#include "support/test_files.h"
#include "support/test_main.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace strata;

namespace {

SliceRef find(const Trace& t, std::string_view name) {
    return ::findSlice(t, name).ref;
}

std::string varint(uint64_t v) {
    std::string out;
    while (v >= 0x80) {
        out += char((v & 0x7F) | 0x80);
        v >>= 7;
    }
    return out + char(v);
}
std::string num(int field, uint64_t v) {
    return varint(uint64_t(field) << 3) + varint(v);
}
std::string len(int field, const std::string& bytes) {
    return varint(uint64_t(field) << 3 | 2) + varint(bytes.size()) + bytes;
}
// A map<int64, M> entry.
std::string entry(int field, int64_t key, const std::string& value) {
    return len(field, num(1, uint64_t(key)) + len(2, value));
}
std::string statMeta(int64_t id, const std::string& name) {
    return entry(5, id, num(1, uint64_t(id)) + len(2, name));
}
std::string eventMeta(int64_t id, const std::string& name) {
    return entry(4, id, num(1, uint64_t(id)) + len(2, name));
}

std::string hostPlane() {
    const std::string launch =
        num(1, 1) + num(2, 2000500) + num(3, 3000000) + len(4, num(1, 1) + num(3, 5));
    const std::string step = num(1, 2) + num(2, 0) + num(3, 10000000);
    const std::string line =
        num(1, 7) + len(2, "worker") + num(3, 1000) + len(4, step) + len(4, launch);
    return len(1, len(2, "/host:CPU") + len(3, line) + eventMeta(1, "hipLaunchKernel") +
                      eventMeta(2, "step") + statMeta(1, "correlation_id"));
}

std::string gpuPlane() {
    const std::string kernel = num(1, 1) + num(2, 6000000) + num(3, 1500999) +
                               len(4, num(1, 1) + num(3, 5)) + len(4, num(1, 2) + num(7, 3));
    const std::string line = num(1, 2) + len(2, "Stream #2") + num(3, 1000) + len(4, kernel);
    return len(1, num(1, 2) + len(2, "/device:GPU:0") + len(3, line) + eventMeta(1, "k") +
                      statMeta(1, "correlation_id") + statMeta(2, "kernel_details") +
                      statMeta(3, " grid:11,16,2 block:256,1,1") + statMeta(4, "core_count") +
                      len(6, num(1, 4) + num(4, 104)));
}

} // namespace

class TestXplane : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string write(const QString& name, const std::string& bytes) {
        return strata::test::writeIn(dir_.path().toStdString(), name.toStdString(), bytes);
    }

private slots:
    void readsHostAndDevice() {
        const LoadResult r =
            loadTrace(write(QStringLiteral("space.bin"), hostPlane() + gpuPlane()));
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        QCOMPARE(r.format, std::string("xplane"));
        const Trace& t = *r.trace;
        const SliceRef launch = find(t, "hipLaunchKernel");
        QVERIFY(launch.valid());
        QCOMPARE(t.kind(launch), SliceKind::CudaRuntime);
        QCOMPARE(t.start(launch), TimeNs(3000));
        QCOMPARE(t.duration(launch), TimeNs(3000));
        QCOMPARE(t.track(launch.track).tid, int64_t(7));
        const SliceRef k = find(t, "k");
        QVERIFY(k.valid());
        QCOMPARE(t.kind(k), SliceKind::Kernel);
        QCOMPARE(t.start(k), TimeNs(7000));
        QCOMPARE(t.duration(k), TimeNs(1500));
        QCOMPARE(t.launchOf(k), launch);
        QCOMPARE(t.gpu(k)->grid[0], 11);
        QCOMPARE(t.gpu(k)->grid[1], 16);
        QCOMPARE(t.gpu(k)->block[0], 256);
        QCOMPARE(t.gpu(k)->stream, int64_t(2));
        QCOMPARE(t.devices().size(), size_t(1));
        QCOMPARE(t.devices()[0].smCount, 104);
        QCOMPARE(t.sliceCount(), size_t(3));
    }

    void tornLastPlaneKeepsTheFirst() {
        const std::string gpu = gpuPlane();
        const LoadResult r = loadTrace(
            write(QStringLiteral("torn.xplane.pb"), hostPlane() + gpu.substr(0, gpu.size() / 2)));
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        QCOMPARE(r.trace->sliceCount(), size_t(2)); // the host plane's two events
        bool said = false;
        for (const std::string& w : r.trace->warnings())
            said |= w.find("torn") != std::string::npos;
        QVERIFY(said);
    }

    void notAnXSpaceSaysWhere() {
        const LoadResult r = loadTrace(write(QStringLiteral("junk.xplane.pb"), "\x0a\xff\xff\x0f"));
        QVERIFY(!r.ok());
        QVERIFY2(r.error->toString().find("byte 0") != std::string::npos,
                 r.error->toString().c_str());
    }
};

STRATA_TEST_GUILESS_MAIN(TestXplane)
#include "tst_xplane.moc"

// Perfetto protobuf traces (io/formats/perfetto): hand-built packets (Perfetto's field numbers,
// written with io/export/proto_out.h), every expected value worked out below; Strata's own
// exports read back are checked on every real file by pftrace_export_real.
//
// Sequence 7: packet A clears the incremental state and interns name 1 "step" and category 1
// "cpu_op"; a thread track (uuid 10, pid 5, tid 6, "main") and a counter track (uuid 11 "mem",
// under process uuid 12: pid 5 "app"). Events (ns):
//   100 begin "step" (name_iid 1, category_iids 1) on 10, flow 99 out, annotation "k" = 3
//   150 begin inline name "inner", category "cuda_runtime" on 10, flow 99 ends here
//   180 end on 10; 300 end on 10  ->  inner [150, 180), step [100, 300)
//   200 instant inline "mark" on 10;  250 counter 4.5 on 11
//   a packet of another kind (field 2, a "chrome event" placeholder) is counted, not shown;
//   the last packet is torn (its length runs past the file's end).
#include "io/export/proto_out.h"
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

std::string packet(const ProtoOut& p) {
    ProtoOut t;
    t.message(1, p);
    return std::string(t.bytes());
}

ProtoOut eventPacket(uint64_t ts, const ProtoOut& ev) {
    ProtoOut p;
    p.uint(8, ts);
    p.uint(10, 7);
    p.uint(13, 2);
    p.message(11, ev);
    return p;
}

std::string trace(bool torn) {
    std::string out;
    ProtoOut interned, name, cat, a;
    name.uint(1, 1);
    name.text(2, "step");
    cat.uint(1, 1);
    cat.text(2, "cpu_op");
    interned.message(2, name);
    interned.message(1, cat);
    a.uint(10, 7);
    a.uint(13, 1);
    a.message(12, interned);
    out += packet(a);
    ProtoOut thread, td, p1, proc, td2, p2, td3, p3, counter;
    thread.uint(1, 5);
    thread.uint(2, 6);
    thread.text(5, "main");
    td.uint(1, 10);
    td.message(4, thread);
    p1.message(60, td);
    out += packet(p1);
    proc.uint(1, 5);
    proc.text(6, "app");
    td2.uint(1, 12);
    td2.message(3, proc);
    p2.message(60, td2);
    out += packet(p2);
    td3.uint(1, 11);
    td3.uint(5, 12);
    td3.text(2, "mem");
    td3.message(8, counter);
    p3.message(60, td3);
    out += packet(p3);

    ProtoOut step, ann, inner, end, mark, value;
    step.uint(9, 1);
    step.uint(11, 10);
    step.uint(10, 1);
    step.uint(3, 1);
    step.fixed64(47, 99);
    ann.text(10, "k");
    ann.uint(4, 3);
    step.message(4, ann);
    out += packet(eventPacket(100, step));
    inner.uint(9, 1);
    inner.uint(11, 10);
    inner.text(23, "inner");
    inner.text(22, "cuda_runtime");
    inner.fixed64(48, 99);
    out += packet(eventPacket(150, inner));
    end.uint(9, 2);
    end.uint(11, 10);
    out += packet(eventPacket(180, end));
    mark.uint(9, 3);
    mark.uint(11, 10);
    mark.text(23, "mark");
    out += packet(eventPacket(200, mark));
    value.uint(9, 4);
    value.uint(11, 11);
    value.real(44, 4.5);
    out += packet(eventPacket(250, value));
    out += packet(eventPacket(300, end));
    ProtoOut other;
    other.uint(10, 7);
    other.text(2, "something else");
    out += packet(other);
    if (torn) out += packet(eventPacket(400, end)).substr(0, 6);
    return out;
}

} // namespace

class TestPftrace : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string write(const QString& name, const std::string& bytes) {
        return strata::test::writeIn(dir_.path().toStdString(), name.toStdString(), bytes);
    }

private slots:
    void readsTrackEvents() {
        const LoadResult r = loadTrace(write(QStringLiteral("trace.bin"), trace(true)));
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        QCOMPARE(QString::fromStdString(r.format), QStringLiteral("pftrace"));
        const Trace& t = *r.trace;
        const SliceRef step = find(t, "step");
        const SliceRef inner = find(t, "inner");
        QVERIFY(step.valid() && inner.valid());
        QCOMPARE(t.start(step), TimeNs(100));
        QCOMPARE(t.duration(step), TimeNs(200));
        QCOMPARE(t.kind(step), SliceKind::CpuOp);
        QCOMPARE(t.start(inner), TimeNs(150));
        QCOMPARE(t.duration(inner), TimeNs(30));
        QCOMPARE(t.kind(inner), SliceKind::CudaRuntime);
        QCOMPARE(t.track(step.track).pid, int64_t(5));
        QCOMPARE(t.track(step.track).tid, int64_t(6));
        QCOMPARE(t.str(t.thread(5, 6)->name), "main");
        QCOMPARE(t.str(t.process(5)->name), "app");
        QCOMPARE(t.flows().size(), size_t(1));
        QCOMPARE(t.flows()[0].from, step);
        QCOMPARE(t.flows()[0].to, inner);
        QCOMPARE(t.instantCount(), size_t(1));
        QCOMPARE(t.counterSampleCount(), size_t(1));
        const auto args = t.args(t.track(step.track).slices.args[step.index]);
        QCOMPARE(args.size(), size_t(1));
        QCOMPARE(t.str(args[0].key), "k");
        QCOMPARE(args[0].value.i, int64_t(3));
        QVERIFY(::hasWarning(t, "torn"));
        QVERIFY(::hasWarning(t, "1 packets of kinds Strata does not show"));
    }

    void notAPerfettoTraceSaysWhere() {
        const LoadResult r = loadTrace(write(QStringLiteral("junk.pftrace"), "\x0a\x7f\x01\x02"));
        QVERIFY(!r.ok());
        QVERIFY2(r.error->toString().find("byte 0") != std::string::npos,
                 r.error->toString().c_str());
    }
};

STRATA_TEST_GUILESS_MAIN(TestPftrace)
#include "tst_pftrace.moc"

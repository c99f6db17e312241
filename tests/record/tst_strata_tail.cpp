// A live run's file followed as it grows (io/strata/read/strata_tail.h): each readNew() delivers
// the records of the chunks that are whole, never a chunk still being written, and nothing twice;
// a file not created yet is no error; a damaged chunk stops it with the chunk and byte named. And
// what `strata-cli record --live` says of them (record/live_status.h), figured here by hand. And
// a long run's live picture: the newest rows only, the whole file's definitions
// (LoadOptions::growingRowsFrom).
#include "io/strata/read/strata_tail.h"
#include "io/strata/read/strata_trace_reader.h"
#include "io/strata/strata_trace_writer.h"
#include "record/live_status.h"
#include "support/test_files.h"
#include "support/test_main.h"
#include "support/trace_counts.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace strata;
namespace fmt = strata::format;

namespace {

struct Seen {
    int kernels = 0, strings = 0, ends = 0;
    StrataTail::RecordFn fn() {
        return [this](fmt::RecordType t, const uint8_t* body, uint32_t) {
            if (t == fmt::RecordType::String) ++strings;
            if (t == fmt::RecordType::EndOfFile) ++ends;
            if (t == fmt::RecordType::GpuOpBlock) {
                uint32_t rows;
                std::memcpy(&rows, body, 4); // a block's head is its row count
                kernels += int(rows);
            }
            if (t == fmt::RecordType::GpuOp) ++kernels;
        };
    }
};

GpuActivity onDevice(int32_t device) {
    GpuActivity g;
    g.device = device;
    g.stream = 7;
    return g;
}

} // namespace

class TestStrataTail : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void followsWholeChunksOnly() {
        const std::string path = dir_.filePath(QStringLiteral("grow.strata")).toStdString();
        const std::string copy = dir_.filePath(QStringLiteral("copy.strata")).toStdString();
        StrataTail tail(copy);
        Seen seen;
        QVERIFY(tail.readNew(seen.fn())); // not created yet: nothing, no error
        QVERIFY(!tail.exists());

        StrataTraceWriter w;
        std::string error;
        QVERIFY2(w.open(path, &error), error.c_str());
        const uint32_t k = w.string("k");
        w.gpuOp(100, 200, k, SliceKind::Kernel, onDevice(0), 1);
        w.gpuOp(300, 400, k, SliceKind::Kernel, onDevice(0), 2);
        w.flush();
        const std::string first = test::readAll(path);
        w.gpuOp(500, 600, k, SliceKind::Kernel, onDevice(0), 3);
        w.close();
        const std::string whole = test::readAll(path);
        QVERIFY(whole.size() > first.size());

        // The copy grows as the writer's file did: the first chunk, then the next one in halves.
        QVERIFY(test::writeAll(copy, first));
        QVERIFY(tail.readNew(seen.fn()));
        QCOMPARE(seen.kernels, 2);
        QCOMPARE(seen.strings, 1);
        QCOMPARE(tail.bytesDelivered(), uint64_t(first.size()));
        const size_t half = first.size() + (whole.size() - first.size()) / 2;
        QVERIFY(test::writeAll(copy, whole.substr(0, half)));
        QVERIFY(tail.readNew(seen.fn()));
        QCOMPARE(seen.kernels, 2); // the chunk being written is left for later
        QCOMPARE(tail.bytesDelivered(), uint64_t(first.size()));
        QVERIFY(!tail.ended());
        QVERIFY(test::writeAll(copy, whole));
        QVERIFY(tail.readNew(seen.fn()));
        QCOMPARE(seen.kernels, 3);
        QCOMPARE(seen.strings, 1); // nothing twice
        QCOMPARE(seen.ends, 1);
        QVERIFY(tail.ended());
        QCOMPARE(tail.bytesDelivered(), uint64_t(whole.size()));
    }

    void damageIsNamed() {
        const std::string path = dir_.filePath(QStringLiteral("bad.strata")).toStdString();
        StrataTraceWriter w;
        std::string error;
        QVERIFY2(w.open(path, &error), error.c_str());
        w.metadata("a", "b");
        w.flush();
        const size_t firstEnd = test::readAll(path).size();
        w.metadata("c", "d");
        w.close();
        std::string bytes = test::readAll(path);
        bytes[firstEnd + 24] ^= 0x5a; // in the second chunk's payload: its CRC no longer holds
        QVERIFY(test::writeAll(path, bytes));
        StrataTail tail(path);
        int records = 0;
        QVERIFY(!tail.readNew([&](fmt::RecordType, const uint8_t*, uint32_t) { ++records; }));
        QVERIFY2(tail.error().find("chunk 1 at byte " + std::to_string(firstEnd)) !=
                     std::string::npos,
                 tail.error().c_str());
        QVERIFY2(tail.error().find("CRC") != std::string::npos, tail.error().c_str());
        QVERIFY(records > 0); // the first chunk's were delivered
    }

    // Device 0: kernels [0.2 s, 0.5 s) and [0.4 s, 0.9 s), a memcpy [1.0 s, 1.2 s); device 1: a
    // kernel [1.1 s, 1.3 s). The last second of GPU time seen is [0.3 s, 1.3 s): device 0 busy
    // 0.6 + 0.2 = 0.8 s of it, device 1 0.2 s: 50 % on average. Three kernels; 7 dropped.
    void statusByHand() {
        const std::string path = dir_.filePath(QStringLiteral("status.strata")).toStdString();
        StrataTraceWriter w;
        std::string error;
        QVERIFY2(w.open(path, &error), error.c_str());
        const uint32_t k = w.string("k"), m = w.string("copy");
        constexpr int64_t ms = 1'000'000;
        w.gpuOp(200 * ms, 500 * ms, k, SliceKind::Kernel, onDevice(0), 1);
        w.gpuOp(400 * ms, 900 * ms, k, SliceKind::Kernel, onDevice(0), 2);
        w.gpuOp(1000 * ms, 1200 * ms, m, SliceKind::Memcpy, onDevice(0), 3);
        w.gpuOp(1100 * ms, 1300 * ms, k, SliceKind::Kernel, onDevice(1), 4);
        w.metadata("cupti_dropped_records", "7");
        w.close();
        StrataTail tail(path);
        LiveStatus status;
        QVERIFY(tail.readNew(
            [&](fmt::RecordType t, const uint8_t* b, uint32_t n) { status.record(t, b, n); }));
        const LiveStatus::Second s = status.take();
        QCOMPARE(s.kernels, uint64_t(3));
        QCOMPARE(s.dropped, uint64_t(7));
        QCOMPARE(s.busyPercent, 50.0);
        QCOMPARE(QString::fromStdString(LiveStatus::line(s, 0.5, 1234567)),
                 QString::fromUtf8("6 kernels/s · GPU busy 50% · 7 dropped · 1.2 MB"));
        QCOMPARE(status.take().kernels, uint64_t(0)); // a new second
    }

    // Chunk 0: the thread's name, an NVTX range begun at 50, a launch [110, 120], a kernel
    // [100, 200], a counter sample; chunk 1: a kernel [300, 400], the range's end at 450; chunk 2
    // (being written on, no end-of-file record): a launch [510, 520], a kernel [500, 600]. Rows
    // from chunk 1 on: the kernels of chunks 1 and 2, the range [50, 450] whole, the second launch,
    // no counter sample; the thread keeps its name; nothing to warn of. Read through both loads:
    // the sequential one and (a file this small is not split otherwise) the two-thread one.
    void newestRowsOnly() {
        const std::string path = dir_.filePath(QStringLiteral("long.strata")).toStdString();
        StrataTraceWriter w;
        std::string error;
        QVERIFY2(w.open(path, &error), error.c_str());
        const uint32_t k = w.string("k"), launch = w.string("cudaLaunchKernel"),
                       range = w.string("range"), c = w.string("c");
        w.thread(1, 2, "main");
        w.cpuBegin(1, 2, 50, range, SliceKind::UserAnnotation);
        w.cpuSlice(1, 2, 110, 120, launch, SliceKind::CudaRuntime, 1, 0);
        w.gpuOp(100, 200, k, SliceKind::Kernel, onDevice(0), 1);
        w.counter(1, c, 100, 1.0);
        QVERIFY(w.flush());
        const auto rowsFrom = uint64_t(test::readAll(path).size());
        w.gpuOp(300, 400, k, SliceKind::Kernel, onDevice(0), 2);
        w.cpuEnd(1, 2, 450);
        QVERIFY(w.flush());
        w.cpuSlice(1, 2, 510, 520, launch, SliceKind::CudaRuntime, 3, 0);
        w.gpuOp(500, 600, k, SliceKind::Kernel, onDevice(0), 3);
        QVERIFY(w.flush());

        const std::string bytes = test::readAll(path);
        for (const StrataLoadPath how : {StrataLoadPath::Sequential, StrataLoadPath::Parallel}) {
            auto load = [&](const LoadOptions& o) { return readStrataBuffer(bytes, path, o, how); };
            LoadOptions o;
            o.growing = true;
            const LoadResult whole = load(o);
            QVERIFY(whole.ok());
            QVERIFY(!whole.rowsLeftOut);
            QCOMPARE(test::kernelsIn(*whole.trace), size_t(3));
            QCOMPARE(test::slicesOfKind(*whole.trace, SliceKind::CudaRuntime), size_t(2));
            QCOMPARE(whole.trace->counterSampleCount(), size_t(1));

            o.growingRowsFrom = rowsFrom;
            const LoadResult newest = load(o);
            QVERIFY(newest.ok());
            QVERIFY(newest.rowsLeftOut);
            const Trace& t = *newest.trace;
            QCOMPARE(t.warnings(), std::vector<std::string>{});
            QCOMPARE(test::kernelsIn(t), size_t(2));
            QCOMPARE(t.counterSampleCount(), size_t(0));
            std::vector<std::pair<TimeNs, TimeNs>> cpu;
            for (const Track& track : t.tracks())
                for (SliceIndex i = 0; i < track.slices.size(); ++i)
                    if (!isGpuKind(track.slices.kind[i]))
                        cpu.emplace_back(track.slices.start[i],
                                         track.slices.start[i] + track.slices.dur[i]);
            std::sort(cpu.begin(), cpu.end());
            QCOMPARE(cpu, (std::vector<std::pair<TimeNs, TimeNs>>{{50, 450}, {510, 520}}));
            QVERIFY(t.thread(1, 2));
            QCOMPARE(t.str(t.thread(1, 2)->name), std::string_view("main"));
            QCOMPARE(t.contentBounds().start, TimeNs(50));
            QCOMPARE(t.contentBounds().end, TimeNs(600));

            // Where the run's earlier pictures started: the picture's bounds (its times' origin)
            // reach it when rows are left out, and only then.
            o.growingStart = TimeNs(10);
            const LoadResult fromRunStart = load(o);
            QVERIFY(fromRunStart.ok());
            QCOMPARE(fromRunStart.trace->bounds().start, TimeNs(10));
            QCOMPARE(fromRunStart.trace->contentBounds().start, TimeNs(50));
            o.growingRowsFrom = 0;
            QCOMPARE(load(o).trace->bounds().start, TimeNs(50));
        }
    }
};

STRATA_TEST_GUILESS_MAIN(TestStrataTail)
#include "tst_strata_tail.moc"

// The sampled-stack records (Callsite, StackSampleBlock): written through StrataTraceWriter, read
// by the sequential and the two-thread load and through a model file (strata-cli convert, the
// trace cache), each giving exactly the samples written (counted by hand from
// tests/support/stack_samples_fixture.h); bad callsites and samples skipped and counted with
// warnings naming the record's byte offset; docs/strata-format.md's rows against the records.
#include "io/strata/model_file/trace_snapshot.h"
#include "io/strata/read/strata_trace_reader.h"
#include "io/strata/strata_crc32c.h"
#include "io/strata/strata_format.h"
#include "io/strata/strata_records.h"
#include "io/trace_loader.h"
#include "support/stack_samples_fixture.h"
#include "support/test_files.h"
#include "support/test_main.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <fstream>
#include <tuple>

using namespace strata;
using strata::test::StackFixture;

namespace {

// One sample as the model holds it: thread, time, its stack's frame names, kind.
using Row = std::tuple<int64_t, int64_t, TimeNs, std::string, uint8_t>;

std::vector<Row> rowsOf(const Trace& t) {
    std::vector<Row> out;
    const StackSamples& k = t.stackSamples();
    for (const SampleThread& th : k.threads)
        for (uint64_t i = 0; i < th.count; ++i) {
            std::string stack;
            for (const StringId f : k.stackAt(th, i)) stack += std::string(t.str(f)) + ";";
            out.emplace_back(th.pid, th.tid, k.ts[th.first + i], stack, k.kind[th.first + i]);
        }
    return out;
}

// The fixture's samples, by thread and time, stacks written out by hand.
std::vector<Row> expectedRows() {
    const std::string m = std::string(StackFixture::kMain) + ";",
                      a = std::string(StackFixture::kA) + ";",
                      b = std::string(StackFixture::kB) + ";",
                      s = std::string(StackFixture::kSleep) + ";";
    return {{10, 11, 1000, m + a, 0},
            {10, 11, 2000, m + a + b + a, 0},
            {10, 11, 3000, m + a + b + a, 0},
            {10, 11, 4000, m + s, 0},
            {10, 12, 1500, m + a + b, 0},
            {10, 12, 2500, "", 0},
            {10, 12, 3500, m, 0},
            {20, 21, 1000, a, 0},
            {20, 21, 2000, a, 0}};
}

bool hasWarning(const Trace& t, const std::string& needle) {
    for (const std::string& w : t.warnings())
        if (w.find(needle) != std::string::npos) return true;
    return false;
}

std::string allWarnings(const Trace& t) {
    std::string s;
    for (const std::string& w : t.warnings()) s += w + "\n";
    return s;
}

} // namespace

class TestSampleRecords : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) { return dir_.filePath(name).toStdString(); }

    // The fixture written to `name`, a chunk after every `flushAfter` samples (0: one chunk).
    std::string writeFixture(const char* name, size_t flushAfter) {
        const std::string p = path(name);
        StrataTraceWriter w;
        std::string error;
        if (!w.open(p, &error)) return {};
        StackFixture::write(w, flushAfter);
        w.close();
        return p;
    }

private slots:
    void bothReadersGiveTheSamplesWritten_data() {
        QTest::addColumn<int>("flushAfter");
        QTest::newRow("one chunk") << 0;
        QTest::newRow("a chunk every 2 samples") << 2;
    }
    void bothReadersGiveTheSamplesWritten() {
        QFETCH(int, flushAfter);
        const std::string p = writeFixture("fixture.strata", size_t(flushAfter));
        QVERIFY(!p.empty());
        const std::string bytes = test::readAll(p);
        QCOMPARE(uint8_t(bytes[7]), uint8_t(7)); // version 1.7
        for (const StrataLoadPath how : {StrataLoadPath::Sequential, StrataLoadPath::Parallel}) {
            const LoadResult r = readStrataBuffer(bytes, "fixture.strata", {}, how);
            QVERIFY(r.ok());
            const Trace& t = *r.trace;
            QVERIFY2(t.warnings().empty(), allWarnings(t).c_str());
            QCOMPARE(rowsOf(t), expectedRows());
            const StackSamples& k = t.stackSamples();
            QCOMPARE(k.size(), size_t(9));
            QCOMPARE(k.callsiteCount(), size_t(6));
            QCOMPARE(k.threads.size(), size_t(3));
            QVERIFY(k.thread(10, 12) && k.thread(10, 12)->count == 3);
            QVERIFY(!k.thread(10, 21));
            // A trace of samples only: its bounds are theirs; its threads are listed.
            QCOMPARE(t.bounds().start, TimeNs(1000));
            QCOMPARE(t.bounds().end, TimeNs(4000));
            QVERIFY(t.thread(20, 21) != nullptr);
            QCOMPARE(t.metadata().at("python_sample_hz"), std::string("1000"));
        }
    }

    void samplesBesideSlicesKeepTheTracksBounds() {
        const std::string p = path("slices.strata");
        StrataTraceWriter w;
        std::string error;
        QVERIFY(w.open(p, &error));
        w.cpuSlice(10, 11, 500, 5000, w.string("step"), SliceKind::UserAnnotation, -1, 0);
        StackFixture::write(w);
        w.close();
        const LoadResult r = loadTrace(p);
        QVERIFY(r.ok());
        QCOMPARE(r.trace->bounds().start, TimeNs(500));
        QCOMPARE(r.trace->bounds().end, TimeNs(5000));
        QCOMPARE(rowsOf(*r.trace), expectedRows());
        // The thread's track reaches its samples by (pid, tid).
        const Track& track = r.trace->track(0);
        QCOMPARE(track.kind, TrackKind::Thread);
        const SampleThread* th = r.trace->stackSamples().thread(track.pid, track.tid);
        QVERIFY(th && th->count == 4);
    }

    void modelFileKeepsTheSamples() {
        const std::string p = writeFixture("source.strata", 3);
        const LoadResult a = loadTrace(p);
        QVERIFY(a.ok());
        const std::string model = path("model.strata");
        QCOMPARE(TraceSnapshot::write(*a.trace, model, {}), std::string());
        const LoadResult b = loadTrace(model);
        QVERIFY2(b.ok(), b.error ? b.error->toString().c_str() : "");
        QCOMPARE(rowsOf(*b.trace), expectedRows());
        const StackSamples &x = a.trace->stackSamples(), &y = b.trace->stackSamples();
        QCOMPARE(y.callsiteParent, x.callsiteParent);
        QCOMPARE(y.callsiteFrame, x.callsiteFrame);
        QCOMPARE(y.callsite, x.callsite);
        QCOMPARE(b.trace->bounds(), a.trace->bounds());
        // A trace without samples still writes and reads (no stack arrays at all).
        TraceBuilder none;
        none.addSlice(none.threadTrack(1, 1), SliceInput{0, 10, none.intern("x")});
        const auto plain = none.build();
        QCOMPARE(TraceSnapshot::write(*plain, path("plain.strata"), {}), std::string());
        const LoadResult c = loadTrace(path("plain.strata"));
        QVERIFY(c.ok());
        QVERIFY(c.trace->stackSamples().empty());
        QCOMPARE(c.trace->stackSamples().callsiteCount(), size_t(0));
    }

    void modelFileRefusesACallsiteCycle() {
        // A model file whose callsite 2 names itself as parent: refused at load, naming the array.
        TraceBuilder b;
        StackFixture::build(b);
        const auto trace = b.build();
        const std::string model = path("cycle.strata");
        QCOMPARE(TraceSnapshot::write(*trace, model, {}), std::string());
        std::string bytes = test::readAll(model);
        // The parents array is u32 {0, 0, 1, 2, 3, 1, 0}: find it and make callsite 2's parent 2.
        const uint32_t parents[7] = {0, 0, 1, 2, 3, 1, 0};
        const size_t at = bytes.find(std::string(reinterpret_cast<const char*>(parents), 28));
        QVERIFY(at != std::string::npos);
        const uint32_t two = 2;
        std::memcpy(bytes.data() + at + 8, &two, 4);
        // The chunk's CRC recomputed as a writer would have: only the parent check can object.
        size_t chunk = format::kFileHeaderBytes;
        while (true) {
            uint32_t payload;
            std::memcpy(&payload, bytes.data() + chunk + 8, 4);
            const size_t end = chunk + format::kChunkHeaderBytes + payload;
            if (at < end) {
                uint32_t crc = crc32c(0, bytes.data() + chunk, 16);
                crc = crc32c(crc, bytes.data() + chunk + format::kChunkHeaderBytes, payload);
                std::memcpy(bytes.data() + chunk + 16, &crc, 4);
                break;
            }
            chunk = end;
        }
        test::writeAll(path("cycle-bad.strata"), bytes);
        const LoadResult r = loadTrace(path("cycle-bad.strata"));
        QVERIFY(!r.ok());
        QVERIFY2(r.error->message.find("callsite parents") != std::string::npos &&
                     r.error->message.find("callsite 2: parent 2") != std::string::npos,
                 r.error->message.c_str());
    }

    void badCallsitesAndSamplesAreSkippedAndCounted() {
        const std::string p = path("bad.strata");
        StrataTraceWriter w;
        std::string error;
        QVERIFY(w.open(p, &error));
        StackFixture::write(w);
        const uint32_t f = w.string("x.py(1): x");
        w.flush();
        const uint64_t firstBad = w.bytesWritten() + 20; // the next chunk's first record
        w.callsite(7, 9, f);                             // parent 9 not defined (yet)
        w.callsite(8, 8, f);                             // its own parent: a cycle
        w.callsite(2, 1, f);                             // callsite 2 defined a second time
        w.callsite(9, 7, f);                             // its parent was skipped
        w.callsite(0, 0, f);                             // id 0 is the empty stack
        w.callsite(10, 1, 999);                          // a frame string never defined
        w.callsite(11, 1, f);                            // good
        w.stackSample(10, 11, 5000, 42, 0);              // no such callsite
        w.stackSample(10, 11, 5001, 7, 0);               // a skipped callsite
        w.stackSample(10, 11, 5002, 11, 5);              // an unknown kind
        w.stackSample(10, 11, 5003, 11, 1);              // good: a native stack
        w.close();
        const std::string bytes = test::readAll(p);
        for (const StrataLoadPath how : {StrataLoadPath::Sequential, StrataLoadPath::Parallel}) {
            const LoadResult r = readStrataBuffer(bytes, "bad.strata", {}, how);
            QVERIFY(r.ok());
            const Trace& t = *r.trace;
            const StackSamples& k = t.stackSamples();
            QCOMPARE(k.callsiteCount(), size_t(7)); // the fixture's 6 and callsite 11
            QCOMPARE(k.size(), size_t(10));
            const SampleThread* th = k.thread(10, 11);
            QVERIFY(th && th->count == 5);
            QCOMPARE(k.ts[th->end() - 1], TimeNs(5003));
            QCOMPARE(k.kind[th->end() - 1], uint8_t(StackKind::Native));
            QCOMPARE(t.str(k.callsiteFrame[k.callsite[th->end() - 1]]),
                     std::string_view("x.py(1): x"));
            QVERIFY2(hasWarning(t, "skipped 6 callsite(s) and 3 stack sample(s)"),
                     allWarnings(t).c_str());
            // The first problem names the first bad record's byte offset: a Callsite record
            // (type 22) of id 7 lies there.
            const std::string first =
                "bad.strata: record at byte " + std::to_string(firstBad) + ": Callsite 7: parent 9";
            QVERIFY2(hasWarning(t, first), (first + "\n" + allWarnings(t)).c_str());
            QCOMPARE(uint8_t(bytes[firstBad]), uint8_t(22));
            uint32_t id;
            std::memcpy(&id, bytes.data() + firstBad + 5, 4);
            QCOMPARE(id, 7u);
            QVERIFY(hasWarning(t, "Callsite 8: its own parent (a cycle)"));
            QVERIFY(hasWarning(t, "Callsite 2: defined a second time"));
            QVERIFY(hasWarning(t, "Callsite 9: parent 7 is not defined before it"));
        }
    }

    void documentedSizesMatchTheRecords() {
        // docs/strata-format.md's "Sampled stacks" table against strata_records.h.
        std::ifstream f(STRATA_TEST_DATA "/../../docs/strata-format.md");
        QVERIFY(f.good());
        const std::string doc((std::istreambuf_iterator<char>(f)), {});
        const auto row = [&](const std::string& name) {
            const size_t at = doc.find("| " + name + " ");
            if (at == std::string::npos) return std::string();
            return doc.substr(at, doc.find('\n', at) - at);
        };
        const std::string callsite = row("22   | Callsite"), block = row("23   | StackSampleBlock");
        QVERIFY2(!callsite.empty() && !block.empty(), "the rows of types 22 and 23");
        QVERIFY(callsite.find("| " +
                              std::to_string(format::fixedBodyBytes(format::RecordType::Callsite)) +
                              " ") != std::string::npos);
        QVERIFY(block.find("| " + std::to_string(format::kStackSampleBlockHead) + "+" +
                           std::to_string(format::kStackSampleRow) + "·rows |") !=
                std::string::npos);
        QVERIFY(doc.find("(version 1." + std::to_string(format::kVersionMinor) + ")") !=
                std::string::npos);
    }
};

STRATA_TEST_GUILESS_MAIN(TestSampleRecords)
#include "tst_sample_records.moc"

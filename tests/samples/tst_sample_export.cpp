// The Perfetto JSON export keeps the stack samples as Chrome's "stackFrames" and "samples", which
// the JSON reader reads back into the same samples (the fixture of
// tests/support/stack_samples_fixture.h, less its one sample with no frame: Chrome's format
// names a frame for each); a range keeps the samples in it.
#include "io/export/perfetto_json_export.h"
#include "io/trace_loader.h"
#include "support/stack_samples_fixture.h"
#include "support/test_files.h"
#include "support/test_main.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace strata;
using strata::test::StackFixture;

namespace {

// (pid, tid, ts, stack) of every sample with a frame.
using Row = std::tuple<int64_t, int64_t, TimeNs, std::string>;
std::vector<Row> rowsOf(const Trace& t) {
    std::vector<Row> out;
    const StackSamples& k = t.stackSamples();
    for (const SampleThread& th : k.threads)
        for (uint64_t i = 0; i < th.count; ++i) {
            std::string stack;
            for (const StringId f : k.stackAt(th, i)) stack += std::string(t.str(f)) + ";";
            if (!stack.empty()) out.emplace_back(th.pid, th.tid, k.ts[th.first + i], stack);
        }
    return out;
}

} // namespace

class TestSampleExport : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void exportedAndReadBack() {
        TraceBuilder b;
        StackFixture::build(b);
        b.addSlice(b.threadTrack(10, 11), SliceInput{0, 100, b.intern("step")});
        const auto trace = b.build();
        const std::string path = dir_.filePath("samples.json").toStdString();
        QVERIFY(exportPerfettoJson(*trace, path, {}).ok);
        const LoadResult r = loadTrace(path);
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        QCOMPARE(rowsOf(*r.trace), rowsOf(*trace));
        QCOMPARE(rowsOf(*r.trace).size(), size_t(8)); // 9 less the empty stack
        QCOMPARE(r.trace->stackSamples().callsiteCount(), size_t(6));
        // A range [1000, 2500) keeps t 1000, 1500, 2000: 5 samples.
        PerfettoExportOptions o;
        o.range = TimeRange{1000, 2500};
        const std::string part = dir_.filePath("part.json").toStdString();
        QVERIFY(exportPerfettoJson(*trace, part, o).ok);
        const LoadResult p = loadTrace(part);
        QVERIFY(p.ok());
        QCOMPARE(p.trace->stackSamples().size(), size_t(5));
        // A trace without samples exports no such keys.
        TraceBuilder none;
        none.addSlice(none.threadTrack(1, 1), SliceInput{0, 10, none.intern("x")});
        const std::string plain = dir_.filePath("plain.json").toStdString();
        QVERIFY(exportPerfettoJson(*none.build(), plain, {}).ok);
        QVERIFY(test::readAll(plain).find("stackFrames") == std::string::npos);
    }
};

STRATA_TEST_GUILESS_MAIN(TestSampleExport)
#include "tst_sample_export.moc"

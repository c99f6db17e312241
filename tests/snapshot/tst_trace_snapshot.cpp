// Model files (issue 33: io/snapshot/trace_snapshot.h, strata-cli convert): every trace Strata
// reads written whole and read back equal, member by member (strings, tracks and every column,
// args decoded, flows and their indices, extras, GPU activities, External ids, the id indices,
// processes, threads, devices, metadata, warnings, the run, colours, in-kernel sections); the
// outputs of strata-cli summary, gaps, stats and export the same for the converted file as for
// the original; damage (cut short, a flipped byte, an index out of range re-checksummed, sizes
// past the file) refused with the chunk and byte offset, never a partial trace.
#include "io/strata/model_file/trace_snapshot.h"
#include "io/strata/strata_crc32c.h"
#include "io/strata/strata_format.h"
#include "io/trace_loader.h"
#include "model/trace.h"
#include "support/test_files.h"
#include "support/test_main.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace strata;

namespace {

using strata::test::readAll;
using strata::test::writeAll;

// Every difference between two models, as text (empty: equal). Compares through the public API,
// so the check does not share the snapshot's code.
QStringList differences(const Trace& a, const Trace& b) {
    QStringList d;
    auto check = [&](bool same, const QString& what) {
        if (!same && d.size() < 20) d << what;
    };
    check(a.strings().size() == b.strings().size(), "string count");
    for (StringId i = 0; i < a.strings().size() && i < b.strings().size(); ++i)
        check(a.str(i) == b.str(i), QString("string %1").arg(i));
    check(a.tracks().size() == b.tracks().size(), "track count");
    for (size_t k = 0; k < std::min(a.tracks().size(), b.tracks().size()); ++k) {
        const Track &x = a.track(TrackId(k)), &y = b.track(TrackId(k));
        const QString t = QString("track %1: ").arg(k);
        check(x.kind == y.kind && x.pid == y.pid && x.tid == y.tid && x.device == y.device &&
                  x.lane == y.lane && x.name == y.name && x.cookie == y.cookie &&
                  x.maxDepth == y.maxDepth && x.maxDuration == y.maxDuration,
              t + "fields");
        const SliceColumns &s = x.slices, &r = y.slices;
        check(s.start == r.start && s.dur == r.dur && s.name == r.name &&
                  s.category == r.category && s.parent == r.parent && s.extra == r.extra &&
                  s.depth == r.depth && s.kind == r.kind && s.flags == r.flags,
              t + "slice columns");
        check(s.size() == r.size(), t + "slice count");
        for (size_t i = 0; i < std::min(s.size(), r.size()); ++i) {
            const auto argsA = a.args(s.args[i]), argsB = b.args(r.args[i]);
            bool same = argsA.size() == argsB.size();
            for (size_t j = 0; same && j < argsA.size(); ++j)
                same = argsA[j].key == argsB[j].key &&
                       argsA[j].value.toString() == argsB[j].value.toString() &&
                       argsA[j].value.type == argsB[j].value.type;
            check(same, t + QString("args of slice %1").arg(i));
            const SliceRef ra{TrackId(k), SliceIndex(i)};
            check(a.externalId(ra) == b.externalId(ra), t + QString("External id of %1").arg(i));
            const SliceExtra *ea = a.extra(ra), *eb = b.extra(ra);
            check(!ea == !eb && (!ea || ea->correlation == eb->correlation),
                  t + QString("extra of %1").arg(i));
            const GpuActivity *ga = a.gpu(ra), *gb = b.gpu(ra);
            check(!ga == !gb && (!ga || *ga == *gb), t + QString("GPU activity of %1").arg(i));
            if (ea && ea->correlation >= 0) {
                const auto ca = a.byCorrelation(ea->correlation),
                           cb = b.byCorrelation(ea->correlation);
                check(std::equal(ca.begin(), ca.end(), cb.begin(), cb.end()),
                      t + QString("correlation index at %1").arg(i));
            }
            const auto fa = a.flowsFrom(ra), fb = b.flowsFrom(ra);
            const auto ta = a.flowsTo(ra), tb = b.flowsTo(ra);
            check(std::equal(fa.begin(), fa.end(), fb.begin(), fb.end()) &&
                      std::equal(ta.begin(), ta.end(), tb.begin(), tb.end()),
                  t + QString("flows of %1").arg(i));
        }
        check(x.counter.ts == y.counter.ts && x.counter.value == y.counter.value, t + "counter");
        check(x.instants.ts == y.instants.ts && x.instants.name == y.instants.name &&
                  x.instants.category == y.instants.category,
              t + "instants");
        for (size_t i = 0; i < std::min(x.instants.size(), y.instants.size()); ++i)
            check(a.args(x.instants.args[i]).size() == b.args(y.instants.args[i]).size(),
                  t + QString("args of instant %1").arg(i));
    }
    check(a.flows().size() == b.flows().size(), "flow count");
    for (size_t i = 0; i < std::min(a.flows().size(), b.flows().size()); ++i) {
        const Flow &f = a.flows()[i], &g = b.flows()[i];
        check(f.from == g.from && f.to == g.to && f.category == g.category && f.name == g.name &&
                  f.id == g.id,
              QString("flow %1").arg(i));
    }
    check(a.processes().size() == b.processes().size(), "process count");
    for (size_t i = 0; i < std::min(a.processes().size(), b.processes().size()); ++i) {
        const Process &p = a.processes()[i], &q = b.processes()[i];
        check(p.pid == q.pid && p.name == q.name && p.sortIndex == q.sortIndex &&
                  p.hasSortIndex == q.hasSortIndex && p.labels == q.labels &&
                  p.originalPid == q.originalPid,
              QString("process %1").arg(i));
    }
    check(a.threads().size() == b.threads().size(), "thread count");
    for (size_t i = 0; i < std::min(a.threads().size(), b.threads().size()); ++i) {
        const Thread &p = a.threads()[i], &q = b.threads()[i];
        check(p.pid == q.pid && p.tid == q.tid && p.name == q.name && p.sortIndex == q.sortIndex &&
                  p.hasSortIndex == q.hasSortIndex && p.originalTid == q.originalTid,
              QString("thread %1").arg(i));
    }
    check(a.devices().size() == b.devices().size(), "device count");
    for (size_t i = 0; i < std::min(a.devices().size(), b.devices().size()); ++i) {
        const DeviceInfo &p = a.devices()[i], &q = b.devices()[i];
        check(p.id == q.id && p.name == q.name && p.smCount == q.smCount &&
                  p.totalMemoryBytes == q.totalMemoryBytes && p.computeMajor == q.computeMajor &&
                  p.computeMinor == q.computeMinor && p.clockRateKHz == q.clockRateKHz &&
                  p.memoryClockRateKHz == q.memoryClockRateKHz,
              QString("device %1").arg(i));
    }
    check(a.metadata() == b.metadata(), "metadata");
    check(a.warnings() == b.warnings(), "warnings");
    check(a.run() == b.run(), "run");
    check(a.nameColors() == b.nameColors(), "name colours");
    check(a.sections().size() == b.sections().size(), "section set count");
    for (size_t i = 0; i < std::min(a.sections().size(), b.sections().size()); ++i) {
        const SectionSet &p = a.sections()[i], &q = b.sections()[i];
        bool same = p.kernel == q.kernel && p.correlation == q.correlation &&
                    p.device == q.device && p.clockHz == q.clockHz && p.hasTimes == q.hasTimes &&
                    p.perWarp == q.perWarp && p.lost == q.lost && p.source == q.source &&
                    p.names == q.names && p.samples.size() == q.samples.size();
        same = same && std::memcmp(p.samples.data(), q.samples.data(),
                                   p.samples.size() * sizeof(SectionSample)) == 0;
        check(same, QString("section set %1").arg(i));
    }
    check(a.bounds() == b.bounds(), "bounds");
    check(a.sliceCount() == b.sliceCount() && a.counterSampleCount() == b.counterSampleCount() &&
              a.instantCount() == b.instantCount(),
          "counts");
    check(a.extras().size() == b.extras().size() &&
              a.gpuActivities().size() == b.gpuActivities().size() &&
              a.externalIds().size() == b.externalIds().size(),
          "extras, GPU activities, External ids");
    check(a.argStore().setCount() == b.argStore().setCount(), "arg set count");
    return d;
}

// Chunk `index` of a .strata file: its header offset and payload size.
std::pair<size_t, uint32_t> chunkAt(const std::string& f, int index) {
    size_t at = format::kFileHeaderBytes;
    for (int i = 0; at + format::kChunkHeaderBytes <= f.size(); ++i) {
        uint32_t payload;
        std::memcpy(&payload, f.data() + at + 8, 4);
        if (i == index) return {at, payload};
        at += format::kChunkHeaderBytes + payload;
    }
    qFatal("no chunk %d", index);
}

// The CRC of the chunk at `at` recomputed after an edit.
void reseal(std::string& f, size_t at) {
    uint32_t payload;
    std::memcpy(&payload, f.data() + at + 8, 4);
    const uint32_t crc =
        crc32c(crc32c(0, f.data() + at, 16), f.data() + at + format::kChunkHeaderBytes, payload);
    std::memcpy(f.data() + at + 16, &crc, 4);
}

QStringList traceFiles() {
    QStringList files;
    const QDir shared(STRATA_SHARED_TRACES);
    for (const QString& f : shared.entryList(QDir::Files))
        if (f.contains(".json")) files << shared.filePath(f);
    files << shared.filePath("multirank/param-dlrm/worker3_step_12.1694128201557.pt.trace.json");
    for (const char* f : {"record/python_written.strata", "record/python_blocks.strata"})
        files << QStringLiteral(STRATA_TEST_DATA "/") + f;
    files << QStringLiteral(STRATA_SOURCE_DIR "/resources/sample_trace.json");
    return files;
}

} // namespace

class TestTraceSnapshot : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) { return dir_.filePath(name).toStdString(); }

    // `in` written as a model file and read back: the two models, the reload's result.
    LoadResult roundTrip(const std::string& in, std::shared_ptr<const Trace>* original) {
        const LoadResult a = loadTrace(in);
        if (!a.ok()) return a;
        *original = a.trace;
        const std::string out = path("round.strata");
        const std::string error = TraceSnapshot::write(*a.trace, out, {in, 1, 2, a.format});
        if (!error.empty()) qWarning("%s", error.c_str());
        return loadTrace(out);
    }

    QString cli(const QStringList& args) {
        QProcess p;
        p.start(STRATA_CLI, args);
        p.waitForFinished(120000);
        if (p.exitCode() != 0) qWarning("%s", p.readAllStandardError().constData());
        return QString::fromUtf8(p.readAllStandardOutput());
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void everyTraceRoundTrips_data() {
        QTest::addColumn<QString>("file");
        for (const QString& f : traceFiles())
            QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
    }
    void everyTraceRoundTrips() {
        QFETCH(QString, file);
        if (!QFileInfo::exists(file)) QSKIP("not here");
        std::shared_ptr<const Trace> original;
        const LoadResult back = roundTrip(file.toStdString(), &original);
        QVERIFY2(back.ok(), back.error ? back.error->toString().c_str() : "no trace");
        QVERIFY(original->sliceCount() > 0);
        const QStringList d = differences(*original, *back.trace);
        QVERIFY2(d.isEmpty(), qPrintable(d.join("; ")));
    }

    // A recording with in-kernel sections and a Run record (strata-cli synth-sections).
    void sectionsAndRunRoundTrip() {
        const QString rec = dir_.filePath("sections.strata");
        cli({"synth-sections", "--launches", "3", "--blocks", "40", "--tiles", "4", "-o", rec});
        std::shared_ptr<const Trace> original;
        const LoadResult back = roundTrip(rec.toStdString(), &original);
        QVERIFY(back.ok());
        QVERIFY(!original->sections().empty());
        const QStringList d = differences(*original, *back.trace);
        QVERIFY2(d.isEmpty(), qPrintable(d.join("; ")));
    }

    // strata-cli convert, then summary, gaps, stats and export of both: the same output (but
    // for the file's name and the times taken).
    void cliOutputsAgree_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("hta rank 0") << QStringLiteral(
            STRATA_SHARED_TRACES "/hta__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz");
        QTest::newRow("qwen") << QStringLiteral(
            STRATA_SHARED_TRACES "/tracelens-h100__Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz");
        QTest::newRow("dlrm") << QStringLiteral(
            STRATA_SHARED_TRACES "/param-dlrm__worker0_step_12.1694128201545.pt.trace.json");
    }
    void cliOutputsAgree() {
        QFETCH(QString, file);
        if (!QFileInfo::exists(file)) QSKIP("not here");
        const QString model = dir_.filePath("converted.strata");
        QFile::remove(model);
        QProcess p;
        p.start(STRATA_CLI, {"convert", file, model});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains(" -> "));
        const QRegularExpression noise(R"re("(file|load_ms|analysis_ms)": [^,\n}]*)re");
        for (const QStringList& cmd : {QStringList{"summary", "--json"},
                                       {"gaps", "--json"},
                                       {"stats", "--json"},
                                       {"advise", "--json"}}) {
            QString a = cli(cmd + QStringList{file}), b = cli(cmd + QStringList{model});
            a.replace(noise, ""), b.replace(noise, "");
            QVERIFY2(!a.isEmpty(), qPrintable(cmd.join(' ')));
            QVERIFY2(a == b, qPrintable(cmd.join(' ') + " differs"));
        }
        const QString ea = dir_.filePath("a.json"), eb = dir_.filePath("b.json");
        cli({"export", "--format", "perfetto-json", file, ea});
        cli({"export", "--format", "perfetto-json", model, eb});
        QFile fa(ea), fb(eb);
        QVERIFY(fa.open(QIODevice::ReadOnly) && fb.open(QIODevice::ReadOnly));
        QByteArray xa = fa.readAll(), xb = fb.readAll();
        // The export names its source file.
        xa.replace(QFileInfo(file).absoluteFilePath().toUtf8(), "SOURCE");
        xa.replace(file.toUtf8(), "SOURCE");
        xb.replace(QFileInfo(model).absoluteFilePath().toUtf8(), "SOURCE");
        xb.replace(model.toUtf8(), "SOURCE");
        QVERIFY(xa.size() > 1000);
        QVERIFY2(xa == xb, "the exports differ");
    }

    // strata-cli --cache: the first run writes the entry, the second reads it; the same report.
    void cliCache() {
        const QString cache = dir_.filePath("xdg");
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_CACHE_HOME", cache);
        env.insert("STRATA_CACHE_MIN_BYTES", "1");
        const QString trace = QStringLiteral(
            STRATA_SHARED_TRACES "/param-dlrm__worker0_step_12.1694128201545.pt.trace.json");
        QStringList outs;
        for (const QStringList& args : {QStringList{"--cache", "summary", "--json", trace},
                                        QStringList{"summary", "--json", "--cache", trace}}) {
            QProcess p;
            p.setProcessEnvironment(env);
            p.start(STRATA_CLI, args);
            QVERIFY(p.waitForFinished(60000));
            QCOMPARE(p.exitCode(), 0);
            outs << QString::fromUtf8(p.readAllStandardOutput())
                        .replace(QRegularExpression(R"re("(load_ms|analysis_ms)": [^,\n}]*)re"),
                                 "");
            QCOMPARE(QDir(cache + "/strata").entryList({"*.strata"}).size(), 1);
        }
        QCOMPARE(outs[0], outs[1]);
        QVERIFY(outs[0].contains("\"slices\""));
    }

    void damageIsRefused() {
        const std::string in =
            STRATA_SHARED_TRACES "/param-dlrm__worker0_step_12.1694128201545.pt.trace.json";
        const LoadResult a = loadTrace(in);
        QVERIFY(a.ok());
        const std::string good = path("good.strata");
        QCOMPARE(TraceSnapshot::write(*a.trace, good, {}), std::string());
        const std::string bytes = readAll(good);
        QVERIFY(TraceSnapshot::isSnapshot(reinterpret_cast<const uint8_t*>(bytes.data()),
                                          bytes.size()));
        auto expectError = [&](const std::string& damaged, const char* words, uint64_t offset) {
            const std::string p = path("bad.strata");
            writeAll(p, damaged);
            const LoadResult r = loadTrace(p);
            QVERIFY(!r.ok());
            QVERIFY(r.error);
            const std::string text = r.error->toString();
            QVERIFY2(text.find(words) != std::string::npos, text.c_str());
            QVERIFY2(text.find("model file") != std::string::npos, text.c_str());
            if (offset != UINT64_MAX) QCOMPARE(r.error->byteOffset, offset);
        };
        // Cut short inside its last chunk.
        expectError(bytes.substr(0, bytes.size() - 100), "chunk", UINT64_MAX);
        // A byte flipped in chunk 1's payload (the parts): its CRC says so, at its header's offset.
        {
            std::string d = bytes;
            const auto [at, payload] = chunkAt(d, 1);
            d[at + format::kChunkHeaderBytes + payload / 2] ^= 0x40;
            expectError(d, "CRC mismatch", at);
        }
        // A slice name id past the strings, checksummed again: the index check refuses it.
        {
            std::string d = bytes;
            // The first part of array 3 (SliceName) of a track: u8 type 21 | u32 bytes | u16 3 |
            // u32 owner 0 | u64 offset 0.
            std::string head(1, char(21));
            const size_t found = [&] {
                for (size_t i = d.find(head); i != std::string::npos; i = d.find(head, i + 1)) {
                    uint16_t id;
                    uint32_t owner;
                    uint64_t off;
                    std::memcpy(&id, d.data() + i + 5, 2);
                    std::memcpy(&owner, d.data() + i + 7, 4);
                    std::memcpy(&off, d.data() + i + 11, 8);
                    if (id == 3 && owner < 100000 && off == 0) return i;
                }
                return std::string::npos;
            }();
            QVERIFY(found != std::string::npos);
            const uint32_t huge = 0x7fffffff;
            std::memcpy(d.data() + found + 19, &huge, 4);
            for (int c = 1;; ++c) {
                const auto [at, payload] = chunkAt(d, c);
                if (found > at && found < at + format::kChunkHeaderBytes + payload) {
                    reseal(d, at);
                    break;
                }
            }
            expectError(d, "index out of range", UINT64_MAX);
        }
        // A Model record claiming more than the file holds: refused before anything is sized.
        {
            const auto [at, payload] = chunkAt(bytes, 0);
            std::string json = bytes.substr(at + format::kChunkHeaderBytes + 9, payload - 9);
            const size_t k = json.find("\"extras\":");
            QVERIFY(k != std::string::npos);
            const size_t end = json.find_first_of(",}", k);
            json.replace(k, end - k, "\"extras\":999999999999");
            std::string chunk0 = bytes.substr(at + format::kChunkHeaderBytes, 9) + json;
            const uint32_t n = uint32_t(chunk0.size());
            std::memcpy(chunk0.data() + 1, std::array<uint32_t, 1>{n - 5}.data(), 4);
            std::string d = bytes.substr(0, at + format::kChunkHeaderBytes) + chunk0 +
                            bytes.substr(at + format::kChunkHeaderBytes + payload);
            std::memcpy(d.data() + at + 8, &n, 4);
            reseal(d, at);
            expectError(d, "more than the file", UINT64_MAX);
        }
        // The good file still loads.
        QVERIFY(loadTrace(good).ok());
    }

    // The source a model file names, read from its first chunk alone.
    void sourceIsKept() {
        const LoadResult a = loadTrace(STRATA_SOURCE_DIR "/resources/sample_trace.json");
        QVERIFY(a.ok());
        const SnapshotSource s{"/some/where/trace.json", 12345, 1700000000123456789, "chrome-json"};
        QCOMPARE(TraceSnapshot::write(*a.trace, path("src.strata"), s), std::string());
        std::string error;
        const auto back = TraceSnapshot::sourceOf(path("src.strata"), &error);
        QVERIFY2(back.has_value(), error.c_str());
        QVERIFY(*back == s);
        QVERIFY(!TraceSnapshot::sourceOf(STRATA_SOURCE_DIR "/resources/sample_trace.json", &error));
        // No temporary left beside it.
        int files = 0;
        for (const auto& e : std::filesystem::directory_iterator(dir_.path().toStdString()))
            files += e.path().filename().string().find(".partial-") != std::string::npos;
        QCOMPARE(files, 0);
    }
};

STRATA_TEST_GUILESS_MAIN(TestTraceSnapshot)
#include "tst_trace_snapshot.moc"

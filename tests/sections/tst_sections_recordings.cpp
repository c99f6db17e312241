// In-kernel timer sections as a recording carries them: the .strata record round trip, the
// helper finding the injected collector and handing its file over, a damaged .sections file, a
// synthesized recording and strata-cli sections --json. Every expected number is computed by hand
// in the comments beside it.
#include "analysis/sections/section_stats.h"
#include "io/sections/sections_import.h"
#include "io/strata/strata_trace_writer.h"
#include "io/trace_loader.h"
#include "sections_fixture.h"
#include "support/test_main.h"

#ifdef STRATA_HAVE_CUDA_HEADERS
#include <strata/sections_host.h>
#endif

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>

using namespace strata;
using namespace strata::test;

class TestSectionsRecordings : public SectionsTestBase {
    Q_OBJECT

    // Records as the device writes them (sections.cuh's layout, built here byte by byte: an
    // encoding independent of model/kernel_sections.cpp's, which the tests check).
    static std::string record(uint64_t c0, uint64_t c1, uint64_t t0, uint64_t t1, uint32_t block,
                              uint16_t section, uint16_t sm) {
        std::string r(48, '\0');
        std::memcpy(&r[0], &c0, 8);
        std::memcpy(&r[8], &c1, 8);
        std::memcpy(&r[16], &t0, 8);
        std::memcpy(&r[24], &t1, 8);
        std::memcpy(&r[32], &block, 4);
        std::memcpy(&r[40], &section, 2);
        std::memcpy(&r[42], &sm, 2);
        return r;
    }

private slots:
    void strataRecordRoundTrip() {
        // 40,000 records (three Sections records of at most 16,384) of one launch, 2 sections,
        // block b = i / 2 on SM b % 132; the device attempted 40,010: 10 lost.
        std::string recs;
        for (uint32_t i = 0; i < 40000; ++i)
            recs += record(100 * i, 100 * i + 10 + i % 2, 1000 + 100 * i, 1000 + 100 * i + 5, i / 2,
                           uint16_t(i % 2), uint16_t((i / 2) % 132));
        const std::string path = dir_.filePath("s.strata").toStdString();
        {
            StrataTraceWriter w;
            std::string error;
            QVERIFY(w.open(path, &error));
            StrataTraceWriter::SectionsLaunch l;
            l.correlation = 42;
            l.kernel = "k";
            l.names = {"first", "second"};
            l.device = 0;
            l.clockHz = 1e9;
            l.attempted = 40010;
            l.records = reinterpret_cast<const uint8_t*>(recs.data());
            l.count = 40000;
            w.sections(l);
            w.gpuOp(1000, 5000000, w.string("k"), SliceKind::Kernel, GpuActivity{}, 42);
            QVERIFY(w.close());
        }
        const LoadResult loaded = loadTrace(path);
        QVERIFY(loaded.ok());
        const Trace& t = *loaded.trace;
        QCOMPARE(t.sections().size(), size_t(1));
        const SectionSet& s = t.sections()[0];
        QCOMPARE(s.samples.size(), size_t(40000));
        QCOMPARE(s.lost, uint64_t(10));
        QCOMPARE(s.blockCount(), 20000u);
        QCOMPARE(s.names, (std::vector<std::string>{"first", "second"}));
        // Section "first": 20,000 samples of 10 cycles; "second": of 11.
        const std::vector<const SectionSet*> sets{&s};
        const SectionStats st = sectionStats(sets);
        QCOMPARE(find(st, "first")->samples.total, 200000.0);
        QCOMPARE(find(st, "second")->samples.max, 11.0);
        QCOMPARE(st.lost, uint64_t(10));
        QVERIFY(!st.warnings.empty() && st.warnings[0].find("10 section records were lost") == 0);
    }

    void helperFindsTheInjectedCollector() {
#if !defined(STRATA_HAVE_CUDA_HEADERS) || !defined(STRATA_COLLECTOR_FAKE_SO)
        QSKIP("the CUDA headers or the collector are not built here");
#else
        // The CUDA driver loads CUDA_INJECTION64_PATH with dlopen (RTLD_LOCAL): the collector's
        // entry points are then not in the global scope. Found on an H100, where every record
        // went to the fallback file. The helper must look the library up by that path.
        void* library = dlopen(STRATA_COLLECTOR_FAKE_SO, RTLD_LAZY | RTLD_LOCAL);
        QVERIFY2(library, dlerror());
        QVERIFY(!dlsym(RTLD_DEFAULT, "strata_collector_state"));
        qunsetenv("CUDA_INJECTION64_PATH");
        QVERIFY(!sections_detail::collectorSymbol<int (*)()>("strata_collector_state"));
        qputenv("CUDA_INJECTION64_PATH", STRATA_COLLECTOR_FAKE_SO);
        auto state = sections_detail::collectorSymbol<int (*)()>("strata_collector_state");
        QVERIFY(state);
        QCOMPARE(state(), 0); // loaded, not started (InitializeInjection was not called)
        QCOMPARE(sections_detail::collectorLastLaunch(), int64_t(-1)); // not armed
        qunsetenv("CUDA_INJECTION64_PATH");
        dlclose(library);
#endif
    }

    void helperFileHandOver() {
#ifndef STRATA_HAVE_CUDA_HEADERS
        QSKIP("the CUDA headers are not here: the host helper is not compiled");
#else
        // No collector in this process: the helper writes its .sections file. Two launches:
        // the first with block 0 entering section 0 twice (iterations 0 and 1).
        const std::string path = dir_.filePath("helper.sections").toStdString();
        qputenv("STRATA_SECTIONS_FILE", QByteArray::fromStdString(path));
        std::string a = record(0, 50, 0, 25, 0, 0, 3) + record(60, 160, 30, 80, 0, 0, 3) +
                        record(0, 70, 0, 35, 1, 1, 4);
        const char* names[] = {"load", "store"};
        StrataSectionsSubmission s{};
        s.version = STRATA_SECTIONS_ABI_VERSION;
        s.device = 1;
        s.name_count = 2;
        s.names = names;
        s.kernel = "matmul";
        s.clock_hz = 2e9;
        s.records = a.data();
        s.record_count = 3;
        s.attempted = 5;
        s.correlation = -1;
        std::string file, error;
        QCOMPARE(int(sections_detail::deliver(s, &file, &error)), int(SectionsDelivery::File));
        QCOMPARE(file, path);
        s.kernel = "reduce";
        s.record_count = 1;
        s.attempted = 1;
        QCOMPARE(int(sections_detail::deliver(s, &file, &error)), int(SectionsDelivery::File));
        qunsetenv("STRATA_SECTIONS_FILE");
        const SectionsImport r = importSections(path);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.sets.size(), size_t(2));
        const SectionSet& m = r.sets[0];
        QCOMPARE(m.kernel, std::string("matmul"));
        QCOMPARE(m.device, 1);
        QCOMPARE(m.clockHz, 2e9);
        QCOMPARE(m.lost, uint64_t(2));
        QCOMPARE(m.samples.size(), size_t(3));
        QCOMPARE(m.samples[0].iteration, 0u);
        QCOMPARE(m.samples[1].iteration, 1u);
        QCOMPARE(m.samples[1].cycles, int64_t(100));
        QCOMPARE(m.samples[2].sm, uint16_t(4));
        QCOMPARE(r.sets[1].kernel, std::string("reduce"));
        QVERIFY(!r.warnings.empty() && r.warnings[0].find("2 records lost") != std::string::npos);
        // The per-block view: block 0 spent 50 + 100 cycles in "load" = 75 ns at 2 GHz.
        const std::vector<BlockSections> blocks = blockSections(m);
        QCOMPARE(blocks.size(), size_t(2));
        QCOMPARE(blocks[0].bySection[0], 75.0);
        QCOMPARE(blocks[0].startNs, int64_t(0));
        QCOMPARE(blocks[0].endNs, int64_t(80));
        QCOMPARE(blocks[1].bySection[1], 35.0);
        // The stacked bars: iteration 0 holds 25 ns of load (block 0) and 35 of store (block 1).
        const auto it = iterationSections(m);
        QCOMPARE(it.size(), size_t(2));
        QCOMPARE(it[0][0], 25.0);
        QCOMPARE(it[0][1], 35.0);
        QCOMPARE(it[1][0], 50.0);
#endif
    }

    void damagedSectionsFile() {
        const std::string good = std::string("STRSECT1", 8);
        const std::string p = write("bad.sections", good + "xx");
        const SectionsImport r = importSections(p);
        QVERIFY(!r.ok());
        QVERIFY2(QString::fromStdString(r.error).contains("launch block at byte 0 is cut short"),
                 r.error.c_str());
    }

    void synthesizedRecordingAddsUp() {
        // strata-cli synth-sections sums each section's cycles as it generates them; loading the
        // recording and pooling its launches must give the same totals (at the clock, in ns).
        const QString out = dir_.filePath("synth.strata");
        QProcess proc;
        proc.start(STRATA_CLI, {"synth-sections", "--launches", "2", "--blocks", "300", "--tiles",
                                "4", "-o", out});
        QVERIFY(proc.waitForFinished(60000));
        QCOMPARE(proc.exitCode(), 0);
        const QJsonObject gen = QJsonDocument::fromJson(proc.readAllStandardOutput()).object();
        QCOMPARE(gen["records"].toInt(), 2 * 300 * (2 * 4 + 1));
        const LoadResult loaded = loadTrace(out.toStdString());
        QVERIFY(loaded.ok());
        std::vector<const SectionSet*> sets;
        for (const SectionSet& s : loaded.trace->sections()) sets.push_back(&s);
        QCOMPARE(sets.size(), size_t(2));
        const SectionStats st = sectionStats(sets, 1e9); // 1 GHz: a cycle is a ns
        const QJsonObject cycles = gen["cycles"].toObject();
        for (const char* name : {"load tile", "compute", "store"})
            QCOMPARE(find(st, name)->samples.total, cycles[name].toDouble());
        // Every launch is attached to its kernel slice (correlation id) on the trace.
        for (const SectionSet* s : sets)
            QCOMPARE(loaded.trace->sectionsOf(s->correlation).size(), size_t(1));
    }

    void cliJson() {
        // The CSV of csvByHand at 2 GHz (--clock-hz as an exponent): load 50, 150 ns.
        const std::string p = write("cli.csv", "load,compute\n100,200\n300,400\n");
        QProcess proc;
        proc.start(STRATA_CLI,
                   {"sections", "--json", "--clock-hz", "2e9", QString::fromStdString(p)});
        QVERIFY(proc.waitForFinished(30000));
        QCOMPARE(proc.exitCode(), 0);
        const QJsonObject j = QJsonDocument::fromJson(proc.readAllStandardOutput()).object();
        QCOMPARE(j["unit"].toString(), QString("ns"));
        const QJsonArray s = j["sections"].toArray();
        QCOMPARE(s.size(), 2);
        const QJsonObject load = s[0].toObject();
        QCOMPARE(load["name"].toString(), QString("load"));
        QCOMPARE(load["count"].toInt(), 2);
        QCOMPARE(load["total"].toDouble(), 200.0);
        QCOMPARE(load["mean"].toDouble(), 100.0);
        QCOMPARE(load["median"].toDouble(), 100.0);
        QCOMPARE(load["p95"].toDouble(), 150.0);
        QCOMPARE(load["max"].toDouble(), 150.0);
        QCOMPARE(load["share"].toDouble(), 0.4);
        // Without a clock: cycles. A bad file: exit 1 and the file named on stderr.
        proc.start(STRATA_CLI, {"sections", "--json", QString::fromStdString(p)});
        QVERIFY(proc.waitForFinished(30000));
        QCOMPARE(QJsonDocument::fromJson(proc.readAllStandardOutput()).object()["unit"].toString(),
                 QString("cycles"));
        const std::string bad = write("cli_bad.csv", "a,b\n1\n");
        proc.start(STRATA_CLI, {"sections", QString::fromStdString(bad)});
        QVERIFY(proc.waitForFinished(30000));
        QCOMPARE(proc.exitCode(), 1);
        QVERIFY(proc.readAllStandardError().contains("cli_bad.csv: line 2 has 1 values"));
        proc.start(STRATA_CLI, {"sections", "--clock-hz", "fast", QString::fromStdString(p)});
        QVERIFY(proc.waitForFinished(30000));
        QCOMPARE(proc.exitCode(), 2);
    }
};

STRATA_TEST_GUILESS_MAIN(TestSectionsRecordings)
#include "tst_sections_recordings.moc"

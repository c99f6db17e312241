// In-kernel timer sections: statistics, imports, the helper's file, the .strata record and
// strata-cli sections. Every expected number is computed by hand in the comments beside it.
#include "analysis/sections/section_stats.h"
#include "io/sections/sections_import.h"
#include "io/strata/strata_trace_writer.h"
#include "io/trace_loader.h"
#include "support/test_files.h"
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
#include <fstream>

using namespace strata;

namespace {

using strata::test::bytesOf;
using strata::test::npy;

const SectionStat* find(const SectionStats& s, const std::string& name) {
    for (const SectionStat& x : s.sections)
        if (x.name == name) return &x;
    return nullptr;
}

SectionStats statsOf(const SectionsImport& r, double clockHz = 0) {
    std::vector<const SectionSet*> sets;
    for (const SectionSet& s : r.sets) sets.push_back(&s);
    return sectionStats(sets, clockHz);
}

} // namespace

class TestSections : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    std::string write(const QString& name, const std::string& bytes) {
        const std::string p = dir_.filePath(name).toStdString();
        strata::test::writeAll(p, bytes);
        return p;
    }

private slots:
    void valueStatsByHand() {
        std::vector<double> one{7};
        ValueStats s = valueStats(one);
        QCOMPARE(s.count, uint64_t(1));
        QCOMPARE(s.median, 7.0);
        QCOMPARE(s.p95, 7.0);
        QCOMPARE(s.max, 7.0);
        std::vector<double> odd{5, 1, 3}; // 1 3 5: median 3; p95 rank ceil(2.85) = 3 -> 5
        s = valueStats(odd);
        QCOMPARE(s.median, 3.0);
        QCOMPARE(s.mean, 3.0);
        QCOMPARE(s.p95, 5.0);
        std::vector<double> even{4, 1, 3, 2}; // median (2 + 3) / 2; p95 rank ceil(3.8) = 4
        s = valueStats(even);
        QCOMPARE(s.median, 2.5);
        QCOMPARE(s.p95, 4.0);
        QCOMPARE(s.total, 10.0);
        std::vector<double> ties{2, 2, 2, 9, 2}; // 2 2 2 2 9: median 2, mean 17/5, p95 rank 5
        s = valueStats(ties);
        QCOMPARE(s.median, 2.0);
        QCOMPARE(s.mean, 3.4);
        QCOMPARE(s.p95, 9.0);
        QCOMPARE(s.min, 2.0);
        std::vector<double> twenty; // 1..20: p95 rank is exactly 19 (0.95 * 20 in floating
        for (int i = 20; i >= 1; --i) twenty.push_back(i); // point is 19.000000000000004)
        s = valueStats(twenty);
        QCOMPARE(s.p95, 19.0);
        QCOMPARE(s.median, 10.5);
    }

    void npyInt64CAndInt32Fortran() {
        // times = [[10, 20, 30], [1, 2, 3]]: a total 60, b total 6; share of a 60/66.
        const std::string c =
            write("c.npy", npy("<i8", false, "(2, 3)", bytesOf<int64_t>({10, 20, 30, 1, 2, 3})));
        const std::string f =
            write("f.npy", npy("<i4", true, "(2, 3)", bytesOf<int32_t>({10, 1, 20, 2, 30, 3})));
        for (const std::string& p : {c, f}) {
            SectionsImportOptions o;
            o.names = {"a", "b"};
            const SectionsImport r = importSections(p, o);
            QVERIFY2(r.ok(), r.error.c_str());
            QCOMPARE(r.sets.size(), size_t(1));
            QCOMPARE(r.sets[0].samples.size(), size_t(6));
            const SectionStats st = statsOf(r);
            QCOMPARE(std::string(st.unit()), std::string("cycles"));
            const SectionStat* a = find(st, "a");
            const SectionStat* b = find(st, "b");
            QVERIFY(a && b);
            QCOMPARE(a->samples.count, uint64_t(3));
            QCOMPARE(a->samples.total, 60.0);
            QCOMPARE(a->samples.median, 20.0);
            QCOMPARE(a->samples.p95, 30.0);
            QCOMPARE(b->samples.total, 6.0);
            QCOMPARE(a->share, 60.0 / 66.0);
            // One block (0) in an array: per-block total = the section's total.
            QCOMPARE(a->blocks.count, uint64_t(1));
            QCOMPARE(a->blocks.total, 60.0);
        }
        // Without names: "section 0", "section 1".
        const SectionsImport r = importSections(c);
        QVERIFY(r.ok());
        QCOMPARE(r.sets[0].names, (std::vector<std::string>{"section 0", "section 1"}));
        // Iterations are the array's columns: times[1][2] = 3.
        QCOMPARE(r.sets[0].samples[5].iteration, 2u);
        QCOMPARE(r.sets[0].samples[5].cycles, int64_t(3));
    }

    // uint64 (what clock64() deltas are) and uint32, values past the signed 32-bit range
    // included: times = [[3000000000, 1], [2^40, 5]] as <u8 and as <u4 where it fits.
    void npyUnsigned() {
        const std::string u8 =
            write("u8.npy", npy("<u8", false, "(2, 2)",
                                bytesOf<uint64_t>({3'000'000'000ull, 1, 1'099'511'627'776ull, 5})));
        SectionsImport r = importSections(u8);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.sets[0].samples.size(), size_t(4));
        QCOMPARE(r.sets[0].samples[0].cycles, int64_t(3'000'000'000));
        QCOMPARE(r.sets[0].samples[2].cycles, int64_t(1'099'511'627'776));
        SectionStats st = statsOf(r);
        QCOMPARE(st.sections[0].samples.total, 3'000'000'001.0);
        QCOMPARE(st.sections[1].samples.max, 1'099'511'627'776.0);
        const std::string u4 = write(
            "u4.npy", npy("<u4", true, "(2, 2)", bytesOf<uint32_t>({3'000'000'000u, 7, 1, 5})));
        r = importSections(u4); // Fortran order: times[0] = {3e9, 1}, times[1] = {7, 5}
        QVERIFY2(r.ok(), r.error.c_str());
        st = statsOf(r);
        QCOMPARE(st.sections[0].samples.total, 3'000'000'001.0);
        QCOMPARE(st.sections[1].samples.total, 12.0);
    }

    void badNpyFiles_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        const auto add = [](const char* tag, const char* name, const std::string& b,
                            const char* expected) {
            QTest::newRow(tag) << name << QByteArray(b.data(), qsizetype(b.size())) << expected;
        };
        add("float64", "f8.npy", npy("<f8", false, "(1, 2)", bytesOf<double>({1, 2})),
            "dtype '<f8' is not supported");
        add("3-D", "3d.npy", npy("<i8", false, "(1, 1, 2)", bytesOf<int64_t>({1, 2})),
            "the array is 3-D");
        add("1-D", "1d.npy", npy("<i8", false, "(2,)", bytesOf<int64_t>({1, 2})),
            "the array is 1-D");
        add("short", "short.npy", npy("<i8", false, "(2, 2)", bytesOf<int64_t>({1, 2, 3})),
            "the file is cut short");
        add("negative", "neg.npy",
            npy("<i8", false, "(2, 3)", bytesOf<int64_t>({1, 2, 3, 4, 5, -5})),
            "times[1][2] = -5 is negative");
        // A uint64 past 2^63 - 1 is a wrapped subtraction (2^64 - 5 here), not a delta.
        add("uint64 wrapped", "wrap.npy",
            npy("<u8", false, "(1, 2)", bytesOf<uint64_t>({1, 18'446'744'073'709'551'611ull})),
            "times[0][1] = 18446744073709551611 is past 2^63 - 1");
        add("big-endian", "be.npy", npy(">u8", false, "(1, 1)", bytesOf<uint64_t>({1})),
            "dtype '>u8' is not supported: the timer array must be int64, int32, uint64 or "
            "uint32");
        add("not npy", "text.npy", "hello, world", "not a .npy file");
    }
    void badNpyFiles() {
        QFETCH(QString, name);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        const std::string p = write(name, bytes.toStdString());
        const SectionsImport r = importSections(p);
        QVERIFY(!r.ok());
        QVERIFY(r.sets.empty());
        QVERIFY2(QString::fromStdString(r.error).contains(expected), r.error.c_str());
        QVERIFY2(QString::fromStdString(r.error).startsWith(QString::fromStdString(p)),
                 r.error.c_str());
    }

    void csvByHand() {
        // load: 100, 300 -> median 200, p95 rank ceil(1.9) = 2 -> 300; compute: 200, 400.
        const std::string p = write("t.csv", "load,compute\n100,200\n300,400\n");
        const SectionsImport r = importSections(p);
        QVERIFY2(r.ok(), r.error.c_str());
        const SectionStats st = statsOf(r);
        const SectionStat* load = find(st, "load");
        QVERIFY(load);
        QCOMPARE(load->samples.count, uint64_t(2));
        QCOMPARE(load->samples.median, 200.0);
        QCOMPARE(load->samples.p95, 300.0);
        QCOMPARE(load->share, 400.0 / 1000.0);
        QCOMPARE(find(st, "compute")->samples.max, 400.0);
    }

    void badTextFiles_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("ragged") << "ragged.csv"
                                << "a,b\n1,2\n3\n"
                                << "line 3 has 1 values; the header names 2 sections";
        QTest::newRow("nan") << "nan.csv"
                             << "a,b\n1,nan\n"
                             << "line 2, column 2 ('b'): the value is NaN";
        QTest::newRow("negative csv") << "neg.csv"
                                      << "a\n-4\n"
                                      << "the value is negative";
        QTest::newRow("text cell") << "word.csv"
                                   << "a\nfast\n"
                                   << "'fast' is not a number";
        QTest::newRow("no names csv") << "nonames.csv"
                                      << "1,2\n3,4\n"
                                      << "holds numbers, not section names";
        QTest::newRow("empty csv") << "empty.csv"
                                   << ""
                                   << "the file is empty";
        QTest::newRow("no names json") << "nonames.json"
                                       << "{\"times\": [[1]]}"
                                       << "no \"sections\" names";
        QTest::newRow("count json") << "count.json"
                                    << "{\"sections\": [\"a\"], \"times\": [[1], [2]]}"
                                    << "names 1 sections but \"times\" holds 2";
        QTest::newRow("ragged json") << "ragged.json"
                                     << "{\"sections\": [\"a\", \"b\"], \"times\": [[1, 2], [3]]}"
                                     << "times[1] has 1 values, times[0] 2";
        QTest::newRow("nan json") << "nan.json"
                                  << "{\"sections\": [\"a\"], \"times\": [[NaN]]}"
                                  << "not valid JSON at byte";
        QTest::newRow("null json") << "null.json"
                                   << "{\"sections\": [\"a\"], \"times\": [[1, null]]}"
                                   << "times[0][1] is not a number";
        QTest::newRow("negative json") << "neg.json"
                                       << "{\"sections\": [\"a\"], \"times\": [[-1]]}"
                                       << "times[0][0] is negative";
        QTest::newRow("no times") << "notimes.json"
                                  << "{\"sections\": [\"a\"]}"
                                  << "no \"times\" array";
        // A number past the double range: nlohmann throws out_of_range (not a parse_error); it
        // must be the file's error, not an abort.
        QTest::newRow("1e400 json") << "huge.json"
                                    << "{\"sections\": [\"a\"], \"times\": [[1, 1e400]]}"
                                    << "the number 1e400 at byte 34 is past the range of a double";
        QTest::newRow("bad clock") << "clock.json"
                                   << "{\"sections\": [\"a\"], \"clock_hz\": -1, \"times\": [[1]]}"
                                   << "\"clock_hz\" must be a positive number";
    }
    void badTextFiles() {
        QFETCH(QString, name);
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const std::string p = write(name, text.toStdString());
        const SectionsImport r = importSections(p);
        QVERIFY(!r.ok());
        QVERIFY2(QString::fromStdString(r.error).contains(expected), r.error.c_str());
        QVERIFY2(QString::fromStdString(r.error).startsWith(QString::fromStdString(p)),
                 r.error.c_str());
    }

    void namesGivenMustMatch() {
        const std::string p =
            write("two.npy", npy("<i8", false, "(2, 1)", bytesOf<int64_t>({1, 2})));
        SectionsImportOptions o;
        o.names = {"a", "b", "c"};
        const SectionsImport r = importSections(p, o);
        QVERIFY(!r.ok());
        QVERIFY2(QString::fromStdString(r.error).contains("3 section names given for 2 sections"),
                 r.error.c_str());
    }

    void clockConversion() {
        // 2 GHz: 2000 cycles = 1000 ns. x: 1000, 2000 ns (total 3000); y: 500, 500 (1000).
        const std::string p =
            write("clock.json", "{\"sections\": [\"x\", \"y\"], \"clock_hz\": 2e9, "
                                "\"times\": [[2000, 4000], [1000, 1000]]}");
        const SectionsImport r = importSections(p);
        QVERIFY2(r.ok(), r.error.c_str());
        SectionStats st = statsOf(r);
        QVERIFY(st.ns);
        QCOMPARE(find(st, "x")->samples.total, 3000.0);
        QCOMPARE(find(st, "y")->samples.mean, 500.0);
        QCOMPARE(find(st, "x")->share, 0.75);
        // An override: at 1 GHz a cycle is a ns.
        st = statsOf(r, 1e9);
        QCOMPARE(find(st, "x")->samples.total, 6000.0);
        QVERIFY(parseSectionsNumber("1.98e9", &st.clockHz));
        QCOMPARE(st.clockHz, 1.98e9);
        QVERIFY(parseSectionsNumber("1980000000", &st.clockHz));
        QVERIFY(!parseSectionsNumber("2 GHz", &st.clockHz));
    }

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

STRATA_TEST_GUILESS_MAIN(TestSections)
#include "tst_sections.moc"

// In-kernel timer sections: statistics and imports (.npy, CSV, the names given, the clock);
// tst_sections_recordings has the helper's file, the .strata record and strata-cli sections.
// Every expected number is computed by hand in the comments beside it.
#include "analysis/sections/section_stats.h"
#include "io/sections/sections_import.h"
#include "sections_fixture.h"
#include "support/test_main.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace strata;

using namespace strata::test;

class TestSections : public SectionsTestBase {
    Q_OBJECT

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
};

STRATA_TEST_GUILESS_MAIN(TestSections)
#include "tst_sections.moc"

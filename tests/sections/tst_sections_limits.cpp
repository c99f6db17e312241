// In-kernel sections at their limits (issue 34): a .sections file with a torn last block or
// trailing bytes keeps its complete launches and names the damaged tail's offset; the per-block
// and per-iteration views cost what the samples hold, never the largest section id (a file
// whose one section is 65,535), and fold what is past their columns into "other"; the SM slot
// layout is O(n log n); strata-cli sections on a timer JSON holding 1e400 gives an error (exit
// 1), not an abort. Expected values are worked out by hand beside them.
#include "analysis/sections/section_lanes.h"
#include "analysis/sections/section_stats.h"
#include "io/sections/sections_import.h"
#include "support/test_files.h"
#include "support/test_main.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <fstream>

using namespace strata;

namespace {

template <typename T> void put(std::string& out, T v) {
    out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

void putString(std::string& out, const std::string& s) {
    put<uint32_t>(out, uint32_t(s.size()));
    out += s;
}

// One device record, byte by byte (sections.cuh's layout).
std::string record(uint64_t t0, uint64_t t1, uint32_t block, uint16_t section, uint16_t sm) {
    std::string r;
    put<uint64_t>(r, t0); // clock64 as the globaltimer: one cycle = one ns
    put<uint64_t>(r, t1);
    put<uint64_t>(r, t0);
    put<uint64_t>(r, t1);
    put<uint32_t>(r, block);
    put<uint32_t>(r, 0);
    put<uint16_t>(r, section);
    put<uint16_t>(r, sm);
    put<uint32_t>(r, 0);
    return r;
}

// One launch block of the helper's file (sections_file_format.h) holding `records`.
std::string launchBlock(int64_t correlation, const std::string& kernel,
                        const std::string& records) {
    std::string b("STRSECT1", 8);
    put<uint32_t>(b, 1);
    put<int64_t>(b, correlation);
    put<int32_t>(b, 0);
    put<uint32_t>(b, 0);
    put<double>(b, 1e9);
    put<uint64_t>(b, records.size() / 48);
    put<uint64_t>(b, records.size() / 48);
    putString(b, kernel);
    put<uint32_t>(b, 1);
    putString(b, "only");
    return b + records;
}

} // namespace

class TestSectionsLimits : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    std::string write(const QString& name, const std::string& bytes) {
        const std::string p = dir_.filePath(name).toStdString();
        strata::test::writeAll(p, bytes);
        return p;
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void tornLastBlockKeepsCompleteLaunches() {
        // Two complete launches (1 + 2 records), then a third cut inside its records: its block
        // starts at byte 2 * header + 3 * 48. Header: 8 + 4 + 8 + 4 + 4 + 8 + 8 + 8 = 52, kernel
        // "k" 4 + 1, one name 4 + 4 + 4 ("only"): 69 bytes. Blocks: 69 + 48 = 117, 69 + 96 = 165.
        const std::string a = launchBlock(1, "k", record(0, 10, 0, 0, 0));
        const std::string b = launchBlock(2, "k", record(0, 20, 0, 0, 0) + record(20, 50, 1, 0, 1));
        QCOMPARE(a.size(), size_t(117));
        QCOMPARE(b.size(), size_t(165));
        std::string c = launchBlock(3, "k", record(0, 5, 0, 0, 0) + record(5, 9, 1, 0, 0));
        c.resize(c.size() - 30); // torn inside its second record
        const std::string p = write("torn.sections", a + b + c);
        const SectionsImport r = importSections(p);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.sets.size(), size_t(2));
        QCOMPARE(r.sets[0].correlation, int64_t(1));
        QCOMPARE(r.sets[1].samples.size(), size_t(2));
        QCOMPARE(r.sets[1].samples[1].cycles, int64_t(30));
        QCOMPARE(r.warnings.size(), size_t(1));
        // The tail: 69 + 96 - 30 = 135 bytes from byte 282.
        QVERIFY2(r.warnings[0] == p + ": launch block at byte 282 is cut short (records); the "
                                      "damaged tail (135 bytes from byte 282) was skipped, the 2 "
                                      "complete launch(es) before it are kept",
                 r.warnings[0].c_str());
    }

    void trailingBytesAreNamed() {
        const std::string a = launchBlock(7, "k", record(0, 10, 0, 0, 0));
        const std::string p = write("trailing.sections", a + "\n\n junk");
        const SectionsImport r = importSections(p);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.sets.size(), size_t(1));
        QCOMPARE(r.warnings.size(), size_t(1));
        QVERIFY2(r.warnings[0].find("launch block at byte 117 has no STRSECT1 magic") !=
                         std::string::npos &&
                     r.warnings[0].find("the damaged tail (7 bytes from byte 117)") !=
                         std::string::npos,
                 r.warnings[0].c_str());
        // A file whose first block is damaged has nothing to keep: an error.
        const std::string bad = write("first.sections", a.substr(0, 60));
        const SectionsImport e = importSections(bad);
        QVERIFY(!e.ok());
        QVERIFY2(e.error == bad + ": launch block at byte 0 is cut short (names)", e.error.c_str());
    }

    void sectionIdDoesNotSizeTheViews() {
        // 20,000 blocks (one record each, section 0) and one record of section 65,535: the
        // per-block rows hold 2 columns, not 65,536 (which took 10 GB); iterations 1 row.
        std::string recs;
        for (uint32_t b = 0; b < 20000; ++b) recs += record(b, b + 3, b, 0, uint16_t(b % 132));
        recs += record(0, 7, 0, 65535, 0);
        const std::string p = write("id65535.sections", launchBlock(5, "k", recs));
        const SectionsImport r = importSections(p);
        QVERIFY2(r.ok(), r.error.c_str());
        const SectionSet& s = r.sets[0];
        const SectionColumns c = sectionColumns(s);
        QCOMPARE(c.ids, (std::vector<uint16_t>{0, 65535}));
        QCOMPARE(c.names, (std::vector<std::string>{"only", "section 65535"}));
        QCOMPARE(c.folded, size_t(0));
        const std::vector<BlockSections> blocks = blockSections(s, c);
        QCOMPARE(blocks.size(), size_t(20000));
        for (const BlockSections& b : blocks) QCOMPARE(b.bySection.size(), size_t(2));
        // Block 0: 3 ns of "only" and 7 of section 65,535 (1 GHz).
        QCOMPARE(blocks[0].bySection, (std::vector<double>{3, 7}));
        const auto it = iterationSections(s, c);
        QCOMPARE(it.size(), size_t(1));
        QCOMPARE(it[0], (std::vector<double>{60000, 7}));
    }

    void manySectionsFoldIntoOther() {
        // 8,000 sections of one iteration, section s taking s + 1 cycles: the 12 largest are
        // 7988..7999 (totals 7989..8000), shown in id order; 7,988 are folded into "other",
        // whose total is 1 + ... + 7988 = 7988 * 7989 / 2 = 31,908,066.
        SectionSet s;
        for (uint16_t id = 0; id < 8000; ++id) {
            SectionSample x;
            x.section = id;
            x.cycles = id + 1;
            s.samples.push_back(x);
        }
        const SectionColumns c = sectionColumns(s);
        QCOMPARE(c.count(), size_t(13));
        QCOMPARE(c.ids.front(), uint16_t(7988));
        QCOMPARE(c.ids.back(), uint16_t(7999));
        QCOMPARE(c.folded, size_t(7988));
        QCOMPARE(c.names.back(), std::string("other (7988 sections)"));
        QCOMPARE(c.columnOf(7990), size_t(2));
        QCOMPARE(c.columnOf(5), size_t(12));
        const auto it = iterationSections(s, c);
        QCOMPARE(it.size(), size_t(1));
        QCOMPARE(it[0][0], 7989.0);
        QCOMPARE(it[0][12], 31908066.0);
        // Thirteen sections fit 12 columns plus "other" exactly: none is folded.
        s.samples.resize(13);
        QCOMPARE(sectionColumns(s).count(), size_t(13));
        QCOMPARE(sectionColumns(s).folded, size_t(0));
    }

    void slotLayoutIsNotQuadratic() {
        // 100,000 blocks all resident together on SM 0 (each [b, 10^9)): 100,000 slots; the
        // scan per block this replaced took ~5 * 10^9 steps. Block b takes slot b.
        std::vector<BlockSections> blocks(100000);
        for (uint32_t b = 0; b < blocks.size(); ++b) {
            blocks[b].block = b;
            blocks[b].startNs = b;
            blocks[b].endNs = 1000000000;
        }
        QElapsedTimer t;
        t.start();
        const SmLaneLayout l = layoutSmLanes(blocks);
        QVERIFY2(t.elapsed() < 2000, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(l.rows.size(), size_t(100000));
        QCOMPARE(l.rowOfBlock[77777], 77777u);
        // Freed slots are reused lowest first: [0, 10), [0, 5), [5, 20), [10, 30): the third
        // takes slot 1 (free at 5), the fourth slot 0 (free at 10).
        std::vector<BlockSections> few(4);
        const int64_t spans[4][2] = {{0, 10}, {0, 5}, {5, 20}, {10, 30}};
        for (uint32_t i = 0; i < 4; ++i) {
            few[i].block = i;
            few[i].startNs = spans[i][0];
            few[i].endNs = spans[i][1];
        }
        QCOMPARE(layoutSmLanes(few).rowOfBlock, (std::vector<uint32_t>{0, 1, 1, 0}));
    }

    void cliSectionsOnHugeNumberIsAnError() {
        const std::string p = write("huge.json", "{\"sections\": [\"a\"], \"times\": [[1e400]]}");
        QProcess proc;
        proc.start(STRATA_CLI, {"sections", QString::fromStdString(p)});
        QVERIFY(proc.waitForFinished(30000));
        QCOMPARE(proc.exitStatus(), QProcess::NormalExit); // not SIGABRT
        QCOMPARE(proc.exitCode(), 1);
        const QString err = QString::fromUtf8(proc.readAllStandardError());
        QVERIFY2(err.contains("huge.json: the number 1e400 at byte 31 is past the range of a "
                              "double"),
                 qPrintable(err));
    }
};

STRATA_TEST_GUILESS_MAIN(TestSectionsLimits)
#include "tst_sections_limits.moc"

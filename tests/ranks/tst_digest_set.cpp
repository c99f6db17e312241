// io/set/digest_set.h: a set's files reduced to rank digests by the one policy strata-cli and the
// window share — traces loaded and digested, digests read as they are (a warning when made with
// other settings), a digest of an error, an empty trace and a file that does not load each that
// file's error, traces in memory digested as they are, progress, cancel, the traces kept or let
// go — and io/digest_reader.h's recogniseSetFile: one read of a file's head says digest, trace
// (and its reader, which LoadOptions::reader then loads with) or neither.
#include "support/rank_set_fixture.h"
#include "support/test_files.h"
#include "support/test_main.h"

#include "analysis/json/rank_digest_json.h"
#include "io/digest_reader.h"
#include "io/set/digest_set.h"
#include "io/trace_reader.h"

#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <fstream>
#include <mutex>
#include <sys/stat.h>

using namespace strata;
using namespace strata::test;

namespace {

// Rank r's trace: r + 1 kernels of 5 µs, 10 µs apart, on device r.
std::string writeRank(const QTemporaryDir& dir, int r) {
    HandRank rank(r);
    for (int k = 0; k <= r; ++k) rank.kernel("k", 7, 10 * k, 5);
    const std::string path = dir.filePath(QString("rank%1.json").arg(r)).toStdString();
    rank.write(path);
    return path;
}

// What `strata-cli digest` writes for an outcome.
void writeDigest(const std::string& path, const DigestOutcome& o, const std::string& file) {
    writeAll(path, digestOutcomeToJson(o, file).dump(1) + "\n");
}

} // namespace

class TstDigestSet : public QObject {
    Q_OBJECT
private slots:
    void tracesAndDigests_data();
    void tracesAndDigests();
    void digestMadeWithOtherSettingsWarns();
    void failuresAreTheFilesErrors();
    void tracesInMemoryAreNotRead();
    void keepTraces();
    void progressAndCancel();
    void setFileRecognisedOnce();
    void givenReaderLoads();
};

void TstDigestSet::tracesAndDigests_data() {
    QTest::addColumn<unsigned>("threads");
    QTest::newRow("one at a time") << 1u;
    QTest::newRow("one per core") << 0u;
}

// Three traces and the digest of a fourth: each outcome in the order of the files, the traces'
// as digestTrace makes it of each loaded alone, the digest's as written; kernels r + 1 by hand.
void TstDigestSet::tracesAndDigests() {
    QFETCH(unsigned, threads);
    QTemporaryDir dir;
    std::vector<std::string> files;
    for (int r = 0; r < 3; ++r) files.push_back(writeRank(dir, r));
    const std::string fourth = writeRank(dir, 3);
    const RankDigest written = digestFile(fourth, 3);
    const std::string digestPath = dir.filePath("rank3.json.digest.json").toStdString();
    writeDigest(digestPath, DigestOutcome{written, "", ""}, fourth);
    files.insert(files.begin() + 1, digestPath);

    DigestSetOptions options;
    options.load.threads = threads;
    const std::vector<SetDigest> out = digestSet(files, AnalysisSettings{}, options);
    QCOMPARE(out.size(), size_t(4));
    const int ranks[] = {0, 3, 1, 2};
    for (size_t i = 0; i < out.size(); ++i) {
        QVERIFY2(out[i].outcome.digest, out[i].outcome.error.c_str());
        QVERIFY(out[i].outcome.error.empty());
        QCOMPARE(out[i].outcome.file, files[i]);
        QCOMPARE(out[i].outcome.digest->kernels, uint64_t(ranks[i] + 1));
        QCOMPARE(out[i].fromDigestFile, i == 1);
        QVERIFY(out[i].warning.empty());
        QVERIFY(!out[i].trace); // let go once digested
        QVERIFY(!out[i].cancelled);
    }
    QVERIFY(*out[1].outcome.digest == written);
    QVERIFY(*out[0].outcome.digest == digestFile(files[0], 0));
    QVERIFY(*out[2].outcome.digest == digestFile(files[2], 2));
    QVERIFY(*out[3].outcome.digest == digestFile(files[3], 3));
}

// A digest made with another gap threshold or step name is read as it is, with the warning the
// CLI prints; one made with the settings given has none.
void TstDigestSet::digestMadeWithOtherSettingsWarns() {
    QTemporaryDir dir;
    const std::string trace = writeRank(dir, 1);
    AnalysisSettings other;
    other.gapThreshold = 50'000;
    const std::string a = dir.filePath("a.digest.json").toStdString();
    writeDigest(a, DigestOutcome{digestFile(trace, 0, other), "", ""}, trace);
    AnalysisSettings step;
    step.stepPrefix = "Iter#";
    const std::string b = dir.filePath("b.digest.json").toStdString();
    writeDigest(b, DigestOutcome{digestFile(trace, 0, step), "", ""}, trace);
    const std::string c = dir.filePath("c.digest.json").toStdString();
    writeDigest(c, DigestOutcome{digestFile(trace, 0), "", ""}, trace);

    const std::vector<SetDigest> out = digestSet({a, b, c}, AnalysisSettings{});
    QCOMPARE(out[0].warning,
             a + " was digested with a gap threshold of 50000 ns and step name "
                 "'ProfilerStep#': its figures follow those, not the options given");
    QCOMPARE(out[1].warning, b + " was digested with a gap threshold of 10000 ns and step name "
                                 "'Iter#': its figures follow those, not the options given");
    QVERIFY(out[2].warning.empty());
    for (const SetDigest& d : out) QVERIFY(d.outcome.digest && d.fromDigestFile);
    QCOMPARE(out[0].outcome.digest->gapThreshold, TimeNs(50'000)); // its own, not the options'
}

// A file that is absent, a trace with no event, a digest that holds an error and one that does
// not read: each is that file's error (naming it) and the others are digested.
void TstDigestSet::failuresAreTheFilesErrors() {
    QTemporaryDir dir;
    const std::string good = writeRank(dir, 0);
    const std::string absent = dir.filePath("absent.json").toStdString();
    const std::string empty = dir.filePath("empty.json").toStdString();
    writeAll(empty, R"({"traceEvents": []})");
    const std::string failed = dir.filePath("failed.digest.json").toStdString();
    writeDigest(failed,
                DigestOutcome{std::nullopt, "/far/rank9.json: cannot open", "/far/rank9.json"},
                "/far/rank9.json");
    const std::string newer = dir.filePath("newer.digest.json").toStdString();
    writeAll(newer, R"({"strata_rank_digest": 99, "file": "x"})");

    const std::vector<SetDigest> out = digestSet({good, absent, empty, failed, newer}, {});
    QVERIFY(out[0].outcome.digest);
    for (size_t i = 1; i < out.size(); ++i) {
        QVERIFY(!out[i].outcome.digest);
        QVERIFY(!out[i].cancelled);
    }
    QVERIFY2(out[1].outcome.error.rfind(absent + ":", 0) == 0, out[1].outcome.error.c_str());
    QCOMPARE(out[1].outcome.file, absent);
    QCOMPARE(out[2].outcome.error, empty + ": no event could be read: nothing to digest");
    QCOMPARE(out[2].outcome.file, empty);
    QCOMPARE(out[3].outcome.error, std::string("/far/rank9.json: cannot open"));
    QCOMPARE(out[3].outcome.file, std::string("/far/rank9.json"));
    QVERIFY(out[3].fromDigestFile);
    QVERIFY2(out[4].outcome.error.rfind(newer + ": not a digest this build reads: "
                                                "strata_rank_digest: version 99",
                                        0) == 0,
             out[4].outcome.error.c_str());
}

// A trace given in memory is digested as it is: its file is not read (here it does not exist).
void TstDigestSet::tracesInMemoryAreNotRead() {
    QTemporaryDir dir;
    const std::string path = writeRank(dir, 2);
    const LoadResult loaded = loadTrace(path);
    QVERIFY(loaded.ok());
    const std::string gone = dir.filePath("gone.json").toStdString();
    const std::string other = writeRank(dir, 1);
    DigestSetOptions options;
    options.traces = {loaded.trace, nullptr};
    const std::vector<SetDigest> out = digestSet({gone, other}, {}, options);
    QVERIFY2(out[0].outcome.digest, out[0].outcome.error.c_str());
    QCOMPARE(out[0].outcome.digest->kernels, uint64_t(3));
    QCOMPARE(out[0].outcome.digest->file, gone); // named as given
    QCOMPARE(out[0].trace, loaded.trace);
    QVERIFY(out[1].outcome.digest);
    QCOMPARE(out[1].outcome.digest->kernels, uint64_t(2));
    QVERIFY(!out[1].trace);
}

void TstDigestSet::keepTraces() {
    QTemporaryDir dir;
    const std::vector<std::string> files = {writeRank(dir, 0), writeRank(dir, 4)};
    DigestSetOptions options;
    options.keepTraces = true;
    const std::vector<SetDigest> out = digestSet(files, {}, options);
    QVERIFY(out[0].trace && out[1].trace);
    QCOMPARE(out[0].trace->sliceCount(), size_t(1));
    QCOMPARE(out[1].trace->sliceCount(), size_t(5));
}

// Progress: once per file done, the last at 1. Cancelled before the first file: nothing is done,
// every file is `cancelled` and none has an error; cancelled after the first (one at a time):
// that one is done, the others cancelled.
void TstDigestSet::progressAndCancel() {
    QTemporaryDir dir;
    std::vector<std::string> files;
    for (int r = 0; r < 4; ++r) files.push_back(writeRank(dir, r));
    std::mutex m;
    std::vector<double> seen;
    DigestSetOptions options;
    options.progress = [&](double f) {
        const std::lock_guard lock(m);
        seen.push_back(f);
    };
    digestSet(files, {}, options);
    QCOMPARE(seen.size(), size_t(4));
    std::sort(seen.begin(), seen.end());
    QCOMPARE(seen.back(), 1.0);
    QCOMPARE(seen.front(), 0.25);

    seen.clear();
    options.cancelled = [] { return true; };
    std::vector<SetDigest> out = digestSet(files, {}, options);
    QVERIFY(seen.empty());
    for (const SetDigest& d : out) {
        QVERIFY(d.cancelled);
        QVERIFY(!d.outcome.digest && d.outcome.error.empty());
    }

    std::atomic<bool> stop{false};
    options.load.threads = 1;
    options.cancelled = [&] { return stop.load(); };
    options.progress = [&](double) { stop = true; };
    out = digestSet(files, {}, options);
    size_t done = 0, cancelled = 0;
    for (const SetDigest& d : out) {
        done += d.outcome.digest ? 1 : 0;
        cancelled += d.cancelled ? 1 : 0;
    }
    QCOMPARE(done, size_t(1));
    QCOMPARE(cancelled, size_t(3));
}

// One read of the head tells the three apart; the reader named is the one the registry picks.
void TstDigestSet::setFileRecognisedOnce() {
    QTemporaryDir dir;
    const std::string trace = writeRank(dir, 0);
    SetFile f = recogniseSetFile(trace);
    QVERIFY(!f.digest);
    QVERIFY(f.reader);
    QCOMPARE(f.reader, recogniseFile(trace));
    QCOMPARE(std::string(f.reader->name), std::string("chrome-json"));

    const std::string digest = dir.filePath("d.digest.json").toStdString();
    writeDigest(digest, DigestOutcome{digestFile(trace, 0), "", ""}, trace);
    f = recogniseSetFile(digest);
    QVERIFY(f.digest && f.digest->digest);
    QVERIFY(!f.reader);

    const std::string fifo = dir.filePath("fifo.json").toStdString();
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    f = recogniseSetFile(fifo);
    QVERIFY(!f.digest && !f.reader);
    const std::vector<SetDigest> out = digestSet({fifo}, {});
    QVERIFY2(out[0].outcome.error.find("FIFO") != std::string::npos, out[0].outcome.error.c_str());
}

// LoadOptions::reader loads with the reader given, without recognising the file again: a JSON
// trace handed to the .npy reader is refused by that reader.
void TstDigestSet::givenReaderLoads() {
    QTemporaryDir dir;
    const std::string trace = writeRank(dir, 0);
    LoadOptions options;
    options.reader = readerNamed("npy");
    QVERIFY(options.reader);
    LoadResult r = loadTrace(trace, options);
    QVERIFY(!r.ok());
    options.reader = readerNamed("chrome-json");
    r = loadTrace(trace, options);
    QVERIFY(r.ok());
    QCOMPARE(r.format, std::string("chrome-json"));
}

STRATA_TEST_GUILESS_MAIN(TstDigestSet)
#include "tst_digest_set.moc"

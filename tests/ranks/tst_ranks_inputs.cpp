// What strata-cli ranks and digest take as input (issue 42): a digest recognised by its content
// whatever its size (a 20 MB one reduces, in the layout written now and in the older one), every
// digest value range-checked (a value out of range is an error row naming the file and the field,
// the other ranks reported), --file-list read by one precise rule with nothing dropped or trimmed
// in silence, and a FIFO among the inputs (or as the list) refused at once.
#include "support/process_run.h"
#include "support/rank_set_fixture.h"
#include "support/test_main.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <functional>
#include <sys/stat.h>

using namespace strata;
using namespace strata::test;

namespace {

constexpr const char* kAllReduce =
    "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)";

// Three ranks, each ProfilerStep#1 [T, T+1000) µs and an AllReduce on stream 20 [T+c, T+500).
QStringList writeRanks(const QTemporaryDir& dir, const QString& prefix = "worker") {
    QStringList paths;
    for (int r = 0; r < 3; ++r) {
        const int64_t t = 100000 + 1000 * r;
        paths << dir.filePath(QString("%1%2.json").arg(prefix).arg(r));
        HandRank(r)
            .annotation("ProfilerStep#1", t, 1000)
            .kernel(kAllReduce, 20, t + 100 * (r + 1), 500 - 100 * (r + 1))
            .write(paths.back().toStdString());
    }
    return paths;
}

QStringList digestsOf(const QTemporaryDir& dir, const QStringList& traces) {
    const QString out = dir.filePath("digests");
    const ProcessRun made = runStrataCli(QStringList{"digest", "-o", out} + traces);
    if (made.exitCode != 0) qWarning("digest failed: %s", made.err.constData());
    QStringList digests;
    for (const QString& t : traces) digests << out + "/" + QFileInfo(t).fileName() + ".digest.json";
    return digests;
}

// A digest file edited in place, its key order kept.
void editDigest(const QString& path, const std::function<void(nlohmann::ordered_json&)>& edit) {
    std::ifstream in(path.toStdString());
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(in);
    in.close();
    edit(j);
    std::ofstream(path.toStdString()) << j.dump(1);
}

QJsonObject reportOf(const ProcessRun& r) {
    return QJsonDocument::fromJson(r.out).object();
}

QString errorOf(const QJsonObject& report, int i) {
    return report["errors"].toArray()[i].toObject()["error"].toString();
}

} // namespace

class TstRanksInputs : public QObject {
    Q_OBJECT
private slots:
    void outOfRangeValuesAreErrorRows();
    void largeDigestReduces();
    void fileListRule();
    void fifoAmongInputs();
};

// INT64_MIN and INT64_MAX where times belong, and a step that ends before it starts: each digest
// is an error row naming its file and the field; the third rank is reported.
void TstRanksInputs::outOfRangeValuesAreErrorRows() {
    QTemporaryDir dir;
    const QStringList digests = digestsOf(dir, writeRanks(dir));
    editDigest(digests[0], [](nlohmann::ordered_json& j) {
        j["collectives"][0]["start_ns"] = INT64_MIN;
        j["collectives"][0]["end_ns"] = INT64_MAX;
    });
    editDigest(digests[1], [](nlohmann::ordered_json& j) {
        j["steps"][0]["end_ns"] = j["steps"][0]["start_ns"].get<int64_t>() - 1;
    });
    const ProcessRun r = runStrataCli(QStringList{"ranks", "--json"} + digests);
    QCOMPARE(r.exitCode, 0);
    const QJsonObject report = reportOf(r);
    QCOMPARE(report["ranks"].toArray().size(), 1);
    QCOMPARE(report["ranks"].toArray()[0].toObject()["rank"].toInt(), 2);
    QCOMPARE(report["errors"].toArray().size(), 2);
    QCOMPARE(errorOf(report, 0),
             digests[0] + ": not a digest this build reads: collectives[0].start_ns: "
                          "-9223372036854775808 is out of range (a time within +-2^62 ns)");
    QCOMPARE(errorOf(report, 1), digests[1] + ": not a digest this build reads: steps[0]: end_ns "
                                              "before start_ns");
    QVERIFY2(r.err.contains("collectives[0].start_ns") && r.err.contains("steps[0]: end_ns"),
             r.err.constData());
}

// A rank of 100,000 NCCL kernels: its digest (over 20 MB, larger than its trace) is read as a
// digest, and so is the same digest in the older layout (keys sorted, the version key late).
void TstRanksInputs::largeDigestReduces() {
    QTemporaryDir dir;
    const QStringList small = writeRanks(dir);
    const QString big = dir.filePath("worker7.json");
    HandRank h(7);
    h.annotation("ProfilerStep#1", 100000, 300000);
    for (int k = 0; k < 100'000; ++k) h.kernel(kAllReduce, 20, 100000 + 2 * k, 1);
    h.write(big.toStdString());
    const QStringList digests = digestsOf(dir, small + QStringList{big});
    const QString bigDigest = digests.back();
    QVERIFY2(QFileInfo(bigDigest).size() > 20'000'000, qPrintable(bigDigest));
    QVERIFY(QFileInfo(bigDigest).size() > QFileInfo(big).size());

    ProcessRun r = runStrataCli({"ranks", "--json", digests[0], bigDigest});
    QCOMPARE(r.exitCode, 0);
    QJsonObject report = reportOf(r);
    QCOMPARE(report["errors"].toArray().size(), 0);
    QJsonArray ranks = report["ranks"].toArray();
    QCOMPARE(ranks.size(), 2);
    QCOMPARE(ranks[1].toObject()["rank"].toInt(), 7);
    QCOMPARE(ranks[1].toObject()["collectives"].toInt(), 100'000);
    QCOMPARE(ranks[1].toObject()["file"].toString(), big); // read as a digest, not a trace

    // The older layout: nlohmann's default object sorts the keys.
    std::ifstream in(bigDigest.toStdString());
    const nlohmann::json sorted = nlohmann::json::parse(in);
    in.close();
    const QString older = dir.filePath("older.digest.json");
    std::ofstream(older.toStdString()) << sorted.dump(1);
    r = runStrataCli({"ranks", "--json", digests[0], older});
    QCOMPARE(r.exitCode, 0);
    report = reportOf(r);
    QCOMPARE(report["errors"].toArray().size(), 0);
    QCOMPARE(report["ranks"].toArray()[1].toObject()["collectives"].toInt(), 100'000);
}

// The rule: a line is a path exactly as written (a CR before LF dropped); blank lines and lines
// whose first character is '#' are skipped; what may mean something else is warned about, naming
// the list and the line, and nothing is read as another file.
void TstRanksInputs::fileListRule() {
    QTemporaryDir dir;
    const QStringList t = writeRanks(dir);
    // A trace named "#x.json", one named "lead.json".
    QVERIFY(QFile::copy(t[1], dir.filePath("#x.json")));
    QVERIFY(QFile::copy(t[2], dir.filePath("lead.json")));
    const QString list = dir.filePath("list.txt");
    QFile f(list);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("# the ranks\n"    // 1: a comment
            "worker0.json\r\n" // 2: CRLF: worker0.json
            "\n"               // 3: blank
            " \t\n"            // 4: blank
            "#x.json\n"        // 5: a comment, though #x.json exists
            "./#x.json\n"      // 6: the file #x.json
            " lead.json\n"     // 7: " lead.json" (missing), not lead.json
            "  # indented\n"   // 8: a path, missing
            "worker0.json");   // 9: again, no final LF
    f.close();
    const ProcessRun r = runStrataCli({"ranks", "--json", "--file-list", list});
    QCOMPARE(r.exitCode, 0);
    const QByteArray l = list.toUtf8();
    QVERIFY2(r.err.contains("strata-cli ranks: warning: " + l +
                            ":5: '#x.json' is skipped as a comment, though a file of that name "
                            "exists (write ./#x.json to name it)"),
             r.err.constData());
    QVERIFY2(r.err.contains("strata-cli ranks: warning: " + l +
                            ":7: ' lead.json' does not exist, 'lead.json' does: a line is a path "
                            "exactly as written, blanks included (remove them to name it)"),
             r.err.constData());
    QVERIFY2(r.err.contains("strata-cli ranks: warning: " + l +
                            ":8: '  # indented' is taken as a path, which does not exist: a "
                            "comment starts with '#' as the line's first character"),
             r.err.constData());
    QVERIFY2(!r.err.contains(":1: ") && !r.err.contains(":2: ") && !r.err.contains(":4: "),
             r.err.constData());
    const QJsonObject report = reportOf(r);
    // worker0.json twice (two files claim rank 0: numbered by position), #x.json (rank 1).
    const QJsonArray ranks = report["ranks"].toArray();
    QCOMPARE(ranks.size(), 3);
    QStringList files;
    for (const QJsonValue& v : ranks)
        files << QFileInfo(v.toObject()["file"].toString()).fileName();
    files.sort();
    QCOMPARE(files, (QStringList{"#x.json", "worker0.json", "worker0.json"}));
    const QJsonArray errors = report["errors"].toArray();
    QCOMPARE(errors.size(), 2);
    QCOMPARE(errors[0].toObject()["file"].toString(), dir.filePath(" lead.json"));
    QCOMPARE(errors[1].toObject()["file"].toString(), dir.filePath("  # indented"));
}

// A FIFO (no writer) among the inputs is an error row at once, the others reported; as the file
// list it is refused. Under `digest` it is that file's error.
void TstRanksInputs::fifoAmongInputs() {
    QTemporaryDir dir;
    const QStringList t = writeRanks(dir);
    const QString fifo = dir.filePath("fifo.json");
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    for (const QString& threads : QStringList{"0", "1"}) {
        QElapsedTimer clock;
        clock.start();
        QStringList args{"ranks", "--json", t[0], fifo, t[1]};
        if (threads != "0") args << "--threads" << threads;
        const ProcessRun r = runStrataCli(args);
        QVERIFY2(clock.elapsed() < 5000, "ranks waited on the FIFO"); // generous: no hang
        QCOMPARE(r.exitCode, 0);
        const QJsonObject report = reportOf(r);
        QCOMPARE(report["ranks"].toArray().size(), 2);
        QCOMPARE(report["errors"].toArray().size(), 1);
        QCOMPARE(report["errors"].toArray()[0].toObject()["file"].toString(), fifo);
        QVERIFY2(errorOf(report, 0).contains("FIFO"), qPrintable(errorOf(report, 0)));
    }
    QElapsedTimer clock;
    clock.start();
    ProcessRun r = runStrataCli({"ranks", "--file-list", fifo});
    QVERIFY(clock.elapsed() < 5000);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("cannot read the file list " + fifo.toUtf8() + ": is a FIFO"),
             r.err.constData());
    r = runStrataCli({"digest", "-o", dir.filePath("out"), t[0], fifo});
    QVERIFY(clock.elapsed() < 10000);
    QCOMPARE(r.exitCode, 1);
    QVERIFY(QFile::exists(dir.filePath("out/worker0.json.digest.json")));
    QVERIFY2(r.err.contains("fifo.json") && r.err.contains("FIFO"), r.err.constData());
}

STRATA_TEST_GUILESS_MAIN(TstRanksInputs)
#include "tst_ranks_inputs.moc"

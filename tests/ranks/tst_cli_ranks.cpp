// strata-cli over several FILEs (the ranks of a job): `ranks` (text and JSON, the options and
// its refusals), `summary`, `gaps` and `stats` with a row per rank and their whole, and `export`
// of a set. The set is the hand-made straggler set of tst_cross_rank (figures worked out there).
#include "support/process_run.h"
#include "support/rank_set_fixture.h"
#include "support/test_main.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace strata;
using namespace strata::test;

namespace {

QJsonObject runJson(const QStringList& args) {
    const ProcessRun r = runStrataCli(args);
    if (r.exitCode != 0) qWarning("strata-cli failed (%d): %s", r.exitCode, r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

constexpr const char* kSgemm = "volta_sgemm_128x64_nn";
constexpr const char* kAllReduce =
    "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)";

// Four ranks whose clocks read 100000 µs + {0, 10000, 300, 5000} at the same instant; each runs
// ProfilerStep#1 [0,1000), an sgemm [0, c) and an AllReduce [c, 500) with c = 200, 250, 300,
// 450 (local µs). Rank 3 arrives last, 250/200/150 µs after ranks 0/1/2 (median 200). Written
// in reverse rank order, so that the rows must be sorted.
QStringList writeSet(const QTemporaryDir& dir) {
    const int64_t shift[4] = {0, 10000, 300, 5000};
    const int64_t compute[4] = {200, 250, 300, 450};
    QStringList paths;
    for (int r = 3; r >= 0; --r) {
        const int64_t t = 100000 + shift[r];
        paths << dir.filePath(QString("worker%1.json").arg(r));
        HandRank(r)
            .annotation("ProfilerStep#1", t, 1000)
            .kernel(kSgemm, 7, t, compute[r])
            .kernel(kAllReduce, 20, t + compute[r], 500 - compute[r])
            .write(paths.back().toStdString());
    }
    return paths;
}

} // namespace

class TstCliRanks : public QObject {
    Q_OBJECT
private slots:
    void ranksJson();
    void ranksText();
    void ranksAlignOptions();
    void ranksErrors();
    void summaryPerRank();
    void gapsAndStatsPerRank();
    void exportSet();
    void exportSetRefusals();
    void digestsReduceLikeTraces();
    void digestOfUnreadableFile();
};

void TstCliRanks::ranksJson() {
    QTemporaryDir dir;
    const QJsonObject j = runJson(QStringList{"ranks", "--json"} + writeSet(dir));
    const QJsonArray ranks = j["ranks"].toArray();
    QCOMPARE(ranks.size(), 4);
    const double offset[4] = {0, -10000, -300, -5000};
    for (int r = 0; r < 4; ++r) {
        const QJsonObject row = ranks[r].toObject();
        QCOMPARE(row["rank"].toInt(), r);
        QVERIFY(row["file"].toString().endsWith(QString("worker%1.json").arg(r)));
        QCOMPARE(row["host"].toString(), QString());
        QCOMPARE(row["offset_us"].toDouble(), offset[r]);
        QCOMPARE(row["kernels"].toInt(), 2);
    }
    const QJsonObject a = j["alignment"].toObject();
    QCOMPARE(a["method"].toString(), QString("collectives"));
    QCOMPARE(a["requested"].toString(), QString("auto"));
    QCOMPARE(a["reference_rank"].toInt(), 0);
    QCOMPARE(a["spread_us"].toDouble(), 0.0);
    QCOMPARE(a["matched_collectives"].toInt(), 1);
    QVERIFY(a["warnings"].isArray());
    const QJsonObject step = j["steps"].toArray()[0].toObject();
    QCOMPARE(step["step"].toString(), QString("ProfilerStep#1"));
    QCOMPARE(step["straggler_rank"].toInt(), 3);
    QCOMPARE(step["delay_us"].toDouble(), 200.0);
    QCOMPARE(step["straggler_by"].toString(), QString("collectives"));
    const QJsonObject c = j["collectives"].toArray()[0].toObject();
    QCOMPARE(c["name"].toString(), QString(kAllReduce));
    QCOMPARE(c["late_rank"].toInt(), 3);
    QCOMPARE(c["late_by_us"].toDouble(), 200.0);
    QCOMPARE(c["ranks_arrival_us"].toArray(), (QJsonArray{200.0, 250.0, 300.0, 450.0}));
    QCOMPARE(c["wait_us"].toArray(), (QJsonArray{250.0, 200.0, 150.0, 0.0}));
}

void TstCliRanks::ranksText() {
    QTemporaryDir dir;
    const ProcessRun r = runStrataCli(QStringList{"ranks"} + writeSet(dir));
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("4 ranks; aligned by the collectives"), r.out.constData());
    QVERIFY2(r.out.contains("ProfilerStep#1: straggler rank 3: the others waited 200 µs"),
             r.out.constData());
    QVERIFY2(r.out.contains("-10000.000 us"), r.out.constData());
}

void TstCliRanks::ranksAlignOptions() {
    QTemporaryDir dir;
    const QStringList set = writeSet(dir);
    // time: no rank has a time base; every offset 0 and said so.
    QJsonObject j = runJson(QStringList{"ranks", "--json", "--align", "time"} + set);
    QCOMPARE(j["alignment"].toObject()["method"].toString(), QString("time"));
    QVERIFY(QJsonDocument(j["alignment"].toObject()["warnings"].toArray())
                .toJson()
                .contains("no rank has a common time base"));
    j = runJson(QStringList{"ranks", "--json", "--align", "step:ProfilerStep#1"} + set);
    QCOMPARE(j["alignment"].toObject()["method"].toString(), QString("step"));
    QCOMPARE(j["ranks"].toArray()[1].toObject()["offset_us"].toDouble(), -10000.0);
}

void TstCliRanks::ranksErrors() {
    QTemporaryDir dir;
    const QStringList set = writeSet(dir);
    ProcessRun r = runStrataCli(QStringList{"ranks", "--align", "sideways"} + set);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--align expects auto, time, collectives or step:NAME, got 'sideways'"),
             r.err.constData());
    // A file that cannot be read is an error row; the others are reported.
    r = runStrataCli(QStringList{"ranks", set[0], dir.filePath("missing.json")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.contains("strata-cli ranks: ") && r.err.contains("missing.json"),
             r.err.constData());
    QVERIFY2(r.out.contains("1 ranks; ") &&
                 r.out.contains("1 file not reduced:\n  " + dir.filePath("missing.json").toUtf8()),
             r.out.constData());
    const QJsonObject j =
        runJson(QStringList{"ranks", "--json", dir.filePath("missing.json"), set[1], set[2]});
    QCOMPARE(j["ranks"].toArray().size(), 2);
    const QJsonArray errors = j["errors"].toArray();
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors[0].toObject()["file"].toString(), dir.filePath("missing.json"));
    // None readable: no report, exit 1.
    r = runStrataCli({"ranks", dir.filePath("missing.json")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.out.isEmpty());
    r = runStrataCli({"ranks"});
    QCOMPARE(r.exitCode, 2);
    r = runStrataCli(QStringList{"ranks", "--mpi", "--threads", "2"} + set);
    QCOMPARE(r.exitCode, 2);
}

// A row per rank and their whole: each rank ran 2 kernels; busy [0,500) = 500 µs, no gap.
void TstCliRanks::summaryPerRank() {
    QTemporaryDir dir;
    const QJsonObject j = runJson(QStringList{"summary", "--json"} + writeSet(dir));
    const QJsonArray ranks = j["ranks"].toArray();
    QCOMPARE(ranks.size(), 4);
    for (int r = 0; r < 4; ++r) {
        QCOMPARE(ranks[r].toObject()["rank"].toInt(), r);
        QCOMPARE(ranks[r].toObject()["summary"].toObject()["gpu"].toObject()["kernels"].toInt(), 2);
    }
    const QJsonObject whole = j["whole"].toObject();
    QCOMPARE(whole["kernels"].toInt(), 8);
    QCOMPARE(whole["busy_us"].toDouble(), 2000.0);
    QCOMPARE(whole["kernel_time_us"].toDouble(), 2000.0);
    QCOMPARE(whole["gaps_over_threshold"].toInt(), 0);
    const ProcessRun text = runStrataCli(QStringList{"summary"} + writeSet(dir));
    QCOMPARE(text.exitCode, 0);
    QVERIFY2(text.out.contains("4 ranks"), text.out.constData());
    QVERIFY2(text.out.contains("   all        8"), text.out.constData());
}

// Three ranks, each an sgemm [0, 100) then an AllReduce [100 + g, 150 + g) µs on one stream
// with g = 20, 40, 60: one idle gap of g per rank (over the 10 µs threshold), spans 170, 190,
// 210 µs. Whole: 3 gaps, 120 µs idle over a 570 µs span; 6 kernels, 450 µs of kernel time;
// sgemm 3 x 100 µs, AllReduce 3 x 50 µs.
void TstCliRanks::gapsAndStatsPerRank() {
    QTemporaryDir dir;
    QStringList set;
    for (int r = 0; r < 3; ++r) {
        set << dir.filePath(QString("rank%1.json").arg(r));
        HandRank(r)
            .kernel(kSgemm, 7, 0, 100)
            .kernel(kAllReduce, 7, 100 + 20 * (r + 1), 50)
            .write(set.back().toStdString());
    }
    const QJsonObject g = runJson(QStringList{"gaps", "--json"} + set);
    QCOMPARE(g["threshold_us"].toDouble(), 10.0);
    const QJsonArray ranks = g["ranks"].toArray();
    QCOMPARE(ranks.size(), 3);
    auto gapsOf = [](const QJsonObject& byCause, double* idle) {
        int count = 0;
        *idle = 0;
        for (const QJsonValue& c : byCause) {
            count += c.toObject()["count"].toInt();
            *idle += c.toObject()["idle_us"].toDouble();
        }
        return count;
    };
    for (int r = 0; r < 3; ++r) {
        const QJsonObject row = ranks[r].toObject();
        QCOMPARE(row["rank"].toInt(), r);
        QCOMPARE(row["span_us"].toDouble(), 150.0 + 20 * (r + 1));
        double idle = 0;
        QCOMPARE(gapsOf(row["by_cause"].toObject(), &idle), 1);
        QCOMPARE(idle, 20.0 * (r + 1));
    }
    const QJsonObject whole = g["whole"].toObject();
    QCOMPARE(whole["span_us"].toDouble(), 570.0);
    double idle = 0;
    QCOMPARE(gapsOf(whole["by_cause"].toObject(), &idle), 3);
    QCOMPARE(idle, 120.0);

    const QJsonObject st = runJson(QStringList{"stats", "--json"} + set);
    const QJsonArray rows = st["ranks"].toArray();
    QCOMPARE(rows.size(), 3);
    for (int r = 0; r < 3; ++r) {
        const QJsonObject row = rows[r].toObject();
        QCOMPARE(row["rank"].toInt(), r);
        QCOMPARE(row["kernels"].toInt(), 2);
        QCOMPARE(row["kernel_time_us"].toDouble(), 150.0);
        QCOMPARE(row["busy_us"].toDouble(), 150.0);
        QCOMPARE(row["idle_us"].toDouble(), 20.0 * (r + 1));
    }
    const QJsonObject all = st["whole"].toObject();
    QCOMPARE(all["kernels"].toInt(), 6);
    QCOMPARE(all["kernel_time_us"].toDouble(), 450.0);
    QCOMPARE(all["idle_us"].toDouble(), 120.0);
    const QJsonArray byName = all["kernels_by_name"].toArray();
    QCOMPARE(byName.size(), 2);
    const QJsonObject sgemm = byName[0].toObject(), allReduce = byName[1].toObject();
    QCOMPARE(sgemm["name"].toString(), QString(kSgemm));
    QCOMPARE(sgemm["count"].toInt(), 3);
    QCOMPARE(sgemm["total_us"].toDouble(), 300.0);
    QCOMPARE(sgemm["ranks"].toInt(), 3);
    QCOMPARE(allReduce["name"].toString(), QString(kAllReduce));
    QCOMPARE(allReduce["mean_us"].toDouble(), 50.0);
    QCOMPARE(allReduce["share"].toDouble(), 150.0 / 450.0);

    const ProcessRun text = runStrataCli(QStringList{"stats"} + set);
    QCOMPARE(text.exitCode, 0);
    QVERIFY2(text.out.contains("Statistics of 3 ranks"), text.out.constData());
    const ProcessRun refused = runStrataCli(QStringList{"stats", "--group-by-op"} + set);
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains("--group-by-op takes one FILE, not several"),
             refused.err.constData());
    const ProcessRun gapsText = runStrataCli(QStringList{"gaps"} + set);
    QCOMPARE(gapsText.exitCode, 0);
    QVERIFY2(gapsText.out.contains("3 ranks: GPU idle gaps over 10 µs"), gapsText.out.constData());
}

void TstCliRanks::exportSet() {
    QTemporaryDir dir;
    const QString out = dir.filePath("set.json");
    const ProcessRun r = runStrataCli(QStringList{"export", "--format", "perfetto-json"} +
                                      writeSet(dir) + QStringList{out});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.contains("4 ranks aligned by the collectives"), r.err.constData());
    const nlohmann::json j = readJson(out.toStdString());
    QCOMPARE(j["otherData"]["strata_parts"].size(), size_t(4));
    QCOMPARE(j["otherData"]["strata_parts"][1]["offset_ns"], "-10000000");
    // Every AllReduce ends at 100,500 µs on the aligned timeline: absolute time in rank 0's
    // clock (its step starts at 100,000 µs, the AllReduce ends 500 µs into it).
    int allReduces = 0;
    for (const nlohmann::json& e : j["traceEvents"])
        if (e.value("name", "") == kAllReduce) {
            QCOMPARE(e["ts"].get<double>() + e["dur"].get<double>(), 100500.0);
            ++allReduces;
        }
    QCOMPARE(allReduces, 4);
}

void TstCliRanks::exportSetRefusals() {
    QTemporaryDir dir;
    const QStringList set = writeSet(dir);
    const QString out = dir.filePath("x.json");
    ProcessRun r =
        runStrataCli(QStringList{"export", "--format", "perfetto-json", "--range-us", "0:10"} +
                     set + QStringList{out});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--range and --range-us export one trace, not several"),
             r.err.constData());
    r = runStrataCli({"export", "--format", "perfetto-json", "--align", "time", set[0], out});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--align aligns several INs; one was given"), r.err.constData());
    QVERIFY(!QFile::exists(out));
}

// strata-cli digest writes one digest per trace; ranks over the digests prints the same report as
// over the traces (the JSON compared whole, the rank 3 the hand-made set plants the late arrival
// in named by both), also when they are named in a --file-list; a digest made with another gap
// threshold is used with a warning; a digest of a newer format version is refused, naming the file
// and the version.
void TstCliRanks::digestsReduceLikeTraces() {
    QTemporaryDir dir;
    const QStringList set = writeSet(dir);
    const QString out = dir.filePath("digests");
    const ProcessRun made = runStrataCli(QStringList{"digest", "-o", out} + set);
    QCOMPARE(made.exitCode, 0);
    QStringList digests;
    for (const QString& f : set) {
        digests << out + "/" + QFileInfo(f).fileName() + ".digest.json";
        QVERIFY2(QFileInfo(digests.back()).size() > 0, qPrintable(digests.back()));
        QVERIFY(made.out.contains(digests.back().toUtf8()));
    }
    const ProcessRun fromTraces = runStrataCli(QStringList{"ranks", "--json"} + set);
    const ProcessRun fromDigests = runStrataCli(QStringList{"ranks", "--json"} + digests);
    QCOMPARE(fromTraces.exitCode, 0);
    QCOMPARE(fromDigests.exitCode, 0);
    QCOMPARE(fromDigests.out, fromTraces.out);
    QVERIFY(fromDigests.err.isEmpty());
    // The same digests named in a list (relative to the list's folder, a comment, a blank line).
    QFile list(out + "/list.txt");
    QVERIFY(list.open(QIODevice::WriteOnly));
    list.write("# the job's ranks\n\n");
    for (const QString& d : digests) list.write(QFileInfo(d).fileName().toUtf8() + "\n");
    list.close();
    const ProcessRun fromList = runStrataCli({"ranks", "--json", "--file-list", list.fileName()});
    QCOMPARE(fromList.exitCode, 0);
    QCOMPARE(fromList.out, fromTraces.out);
    QCOMPARE(runStrataCli({"ranks", "--file-list", out + "/absent.txt"}).exitCode, 2);
    const QJsonObject report = QJsonDocument::fromJson(fromDigests.out).object();
    QCOMPARE(report["collectives"].toArray().first().toObject()["late_rank"].toInt(), 3);

    const ProcessRun other =
        runStrataCli(QStringList{"ranks", "--gap-threshold-us", "20"} + digests);
    QCOMPARE(other.exitCode, 0);
    QVERIFY(other.err.contains("digested with a gap threshold of 10000 ns"));

    QFile f(digests[0]);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QByteArray text = f.readAll();
    f.close();
    QVERIFY(text.contains("\"strata_rank_digest\": 1"));
    text.replace("\"strata_rank_digest\": 1", "\"strata_rank_digest\": 99");
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text);
    f.close();
    const ProcessRun newer = runStrataCli(QStringList{"ranks"} + digests);
    QCOMPARE(newer.exitCode, 0); // the other three reported
    QVERIFY2(newer.err.contains(QFileInfo(digests[0]).fileName().toUtf8()), newer.err.constData());
    QVERIFY2(newer.err.contains("version 99 is newer than this build reads (1)"),
             newer.err.constData());
    QVERIFY(newer.out.startsWith("3 ranks; "));
}

// A trace that cannot be read gets a digest holding its error, written where its digest would be
// (exit 1): the reduce over the digests reports it as an error row with the load's own words.
void TstCliRanks::digestOfUnreadableFile() {
    QTemporaryDir dir;
    const QStringList set = writeSet(dir);
    const QString bad = dir.filePath("bad.json");
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("not a trace");
    f.close();
    const QString out = dir.filePath("digests");
    const ProcessRun made = runStrataCli({"digest", "-o", out, set[0], bad});
    QCOMPARE(made.exitCode, 1);
    QVERIFY2(made.err.contains("bad.json: line 1, byte 0: expected '{' or '['"),
             made.err.constData());
    const QString badDigest = out + "/bad.json.digest.json";
    QVERIFY(QFile::exists(badDigest));
    const QJsonObject j =
        runJson({"ranks", "--json", out + "/worker3.json.digest.json", badDigest});
    QCOMPARE(j["ranks"].toArray().size(), 1);
    const QJsonArray errors = j["errors"].toArray();
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors[0].toObject()["file"].toString(), bad); // the trace, as for the ranks
    QVERIFY2(errors[0].toObject()["error"].toString().startsWith(bad + ": line 1, byte 0: "),
             qPrintable(errors[0].toObject()["error"].toString()));
    // The same error row as over the traces themselves.
    const QJsonObject direct = runJson({"ranks", "--json", set[0], bad});
    QCOMPARE(direct["errors"].toArray(), errors);

    // A trace cut off before its first event loads (leniently) with nothing in it: no rank.
    const QString cut = dir.filePath("cut.json");
    QFile c(cut);
    QVERIFY(c.open(QIODevice::WriteOnly));
    c.write("{\"traceEvents\": [");
    c.close();
    const QJsonObject withCut = runJson({"ranks", "--json", "--threads", "1", set[0], cut});
    QCOMPARE(withCut["ranks"].toArray().size(), 1);
    QVERIFY2(withCut["errors"].toArray()[0].toObject()["error"].toString().startsWith(
                 cut + ": no event could be read: nothing to digest"),
             qPrintable(withCut["errors"].toArray()[0].toObject()["error"].toString()));

    // Two traces of one name in two folders: refused before either digest overwrites the other.
    QVERIFY(QDir(dir.path()).mkdir("other"));
    QVERIFY(QFile::copy(set[0], dir.filePath("other/" + QFileInfo(set[0]).fileName())));
    const ProcessRun twice = runStrataCli({"digest", "--threads", "1", "-o", out, set[0],
                                           dir.filePath("other/" + QFileInfo(set[0]).fileName())});
    QCOMPARE(twice.exitCode, 2);
    QVERIFY2(twice.err.contains("their digests would overwrite each other"), twice.err.constData());
}

STRATA_TEST_GUILESS_MAIN(TstCliRanks)
#include "tst_cli_ranks.moc"

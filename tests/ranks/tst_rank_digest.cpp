// A rank's digest (core/analysis/rank_digest.h): who it is (distributedInfo, a recording's
// metadata, the file name, its index), its clock hints, its collectives with their process group
// and sequence, and the versioned JSON written and read back exactly, with clear refusals.
#include "support/rank_set_fixture.h"
#include "support/test_files.h"
#include "support/test_main.h"

#include "analysis/json/rank_digest_json.h"
#include "io/digest_reader.h"
#include "model/build/trace_builder.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sys/stat.h>

using namespace strata;
using namespace strata::test;

namespace {

constexpr const char* kAllReduce =
    "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";

std::shared_ptr<const Trace> traceWithMetadata(const std::map<std::string, std::string>& meta) {
    TraceBuilder b;
    for (const auto& [k, v] : meta) b.setMetadata(k, v);
    return b.build();
}

} // namespace

class TstRankDigest : public QObject {
    Q_OBJECT
private slots:
    void rankFromFileName_data();
    void rankFromFileName();
    void rankFromMetadata();
    void clockHints();
    void collectiveOps_data();
    void collectiveOps();
    void groupAndSeqFromArgs();
    void stepsAndKernels();
    void jsonRoundTrip();
    void jsonRoundTripReal();
    void jsonRefusals_data();
    void jsonRefusals();
    void versionKeyWrittenFirst();
    void digestHead_data();
    void digestHead();
    void largeDigestRead();
    void fifoIsNoDigest();
};

void TstRankDigest::rankFromFileName_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("rank"); // -1: none
    QTest::newRow("worker") << "/x/worker3_step_12.1694128201557.pt.trace.json" << 3;
    QTest::newRow("rank-") << "rank-12.Apr_03_18_51_38.1102.pt.trace.json.gz" << 12;
    QTest::newRow("RANK_") << "job7_RANK_5.json" << 5;
    QTest::newRow("rank.") << "trace.rank.9.json" << 9;
    QTest::newRow("record") << "/runs/2024/run-4.strata" << 4;
    QTest::newRow("folder digits ignored") << "/runs/2024/trace.json" << -1;
    QTest::newRow("none") << "trace.json" << -1;
}

void TstRankDigest::rankFromFileName() {
    QFETCH(QString, file);
    QFETCH(int, rank);
    const auto r = strata::rankFromFileName(file.toStdString());
    QCOMPARE(r.has_value(), rank >= 0);
    if (r) QCOMPARE(*r, int64_t(rank));
}

void TstRankDigest::rankFromMetadata() {
    // distributedInfo wins over the file name.
    auto t = traceWithMetadata(
        {{"distributedInfo", R"({"backend": "nccl", "rank": 6, "world_size": 16})"}});
    RankIdentity id = rankIdentity(*t, "worker3.json", 0);
    QCOMPARE(id.rank, int64_t(6));
    QCOMPARE(int(id.source), int(RankSource::DistributedInfo));
    QCOMPARE(id.worldSize, int64_t(16));
    // A Strata recording's metadata (the collector writes $RANK and the host).
    t = traceWithMetadata({{"rank", "11"}, {"host", "node-3"}});
    id = rankIdentity(*t, "run-2.strata", 0);
    QCOMPARE(id.rank, int64_t(11));
    QCOMPARE(int(id.source), int(RankSource::Recording));
    QCOMPARE(id.host, std::string("node-3"));
    // Nothing in the trace: the file name, else the position in the set.
    t = traceWithMetadata({});
    id = rankIdentity(*t, "run-2.strata", 7);
    QCOMPARE(id.rank, int64_t(2));
    QCOMPARE(int(id.source), int(RankSource::FileName));
    id = rankIdentity(*t, "trace.json", 7);
    QCOMPARE(id.rank, int64_t(7));
    QCOMPARE(int(id.source), int(RankSource::FileIndex));
    QCOMPARE(id.worldSize, int64_t(-1));
}

void TstRankDigest::clockHints() {
    QTemporaryDir dir;
    const std::string relative = dir.filePath("rel.json").toStdString();
    HandRank(0).baseTime(1'700'000'000'123'456'789).kernel("k", 7, 5, 1).write(relative);
    const RankDigest r = digestFile(relative, 0);
    QCOMPARE(*r.clock.baseTimeNs, int64_t(1'700'000'000'123'456'789));
    QVERIFY(!r.clock.wallClock);
    QCOMPARE(*r.clock.commonBaseOffset(), int64_t(1'700'000'000'123'456'789));
    // 2023-09-07 in µs: wall clock already.
    const std::string wall = dir.filePath("wall.json").toStdString();
    HandRank(0).kernel("k", 7, 1694128201429795, 1).write(wall);
    const RankDigest w = digestFile(wall, 0);
    QVERIFY(w.clock.wallClock);
    QCOMPARE(*w.clock.commonBaseOffset(), int64_t(0));
    const std::string none = dir.filePath("none.json").toStdString();
    HandRank(0).kernel("k", 7, 5, 1).write(none);
    QVERIFY(!digestFile(none, 0).clock.commonBaseOffset());
}

void TstRankDigest::collectiveOps_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("op");
    QTest::newRow("nccl 2.x")
        << "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned "
           "long, ncclWork*)"
        << "SendRecv";
    QTest::newRow("nccl 2.19") << kAllReduce << "AllReduce";
    QTest::newRow("generic") << "ncclDevKernel_Generic_4(ncclDevKernelArgsStorage<4096ul>)"
                             << "Generic";
    QTest::newRow("rccl") << "rcclKernel_AllGather(int)"
                          << "AllGather";
    QTest::newRow("custom") << "cross_device_reduce_1stage<float, 8>(...)"
                            << "cross_device_reduce_1stage";
}

void TstRankDigest::collectiveOps() {
    QFETCH(QString, name);
    QFETCH(QString, op);
    QCOMPARE(QString::fromStdString(collectiveOp(name.toStdString())), op);
}

// PyTorch 2.2+ names the process group and the sequence number on the kernel, older ones on the
// record_param_comms op around the launch; both are found.
void TstRankDigest::groupAndSeqFromArgs() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("pg.json").toStdString();
    nlohmann::json j;
    j["traceEvents"] = nlohmann::json::array({
        {{"ph", "X"},
         {"cat", "kernel"},
         {"name", kAllReduce},
         {"pid", 0},
         {"tid", 20},
         {"ts", 100},
         {"dur", 10},
         {"args",
          {{"device", 0},
           {"stream", 20},
           {"correlation", 1},
           {"Process Group Name", "3"},
           {"Seq", 41}}}},
        {{"ph", "X"},
         {"cat", "cpu_op"},
         {"name", "record_param_comms"},
         {"pid", 9},
         {"tid", 9},
         {"ts", 150},
         {"dur", 30},
         {"args", {{"Process Group Name", "default_pg"}, {"Seq", 7}}}},
        {{"ph", "X"},
         {"cat", "cuda_runtime"},
         {"name", "cudaLaunchKernel"},
         {"pid", 9},
         {"tid", 9},
         {"ts", 160},
         {"dur", 5},
         {"args", {{"correlation", 2}}}},
        {{"ph", "X"},
         {"cat", "kernel"},
         {"name", kAllReduce},
         {"pid", 0},
         {"tid", 20},
         {"ts", 200},
         {"dur", 10},
         {"args", {{"device", 0}, {"stream", 20}, {"correlation", 2}}}},
        {{"ph", "X"},
         {"cat", "kernel"},
         {"name", kAllReduce},
         {"pid", 0},
         {"tid", 20},
         {"ts", 300},
         {"dur", 10},
         {"args", {{"device", 0}, {"stream", 20}}}},
    });
    writeJson(j, path);
    const RankDigest d = digestFile(path, 0);
    QCOMPARE(d.collectives.size(), size_t(3));
    QCOMPARE(d.collectives[0].group, std::string("3"));
    QCOMPARE(d.collectives[0].seq, int64_t(41));
    QCOMPARE(d.collectives[1].group, std::string("default_pg"));
    QCOMPARE(d.collectives[1].seq, int64_t(7));
    QCOMPARE(d.collectives[2].group, std::string());
    QCOMPARE(d.collectives[2].seq, int64_t(-1));
    QCOMPARE(d.collectives[1].start, TimeNs(200'000));
    QCOMPARE(d.collectives[1].end, TimeNs(210'000));
}

// Per step and device: busy + idle = the step's length, kernels that start in it.
void TstRankDigest::stepsAndKernels() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("steps.json").toStdString();
    HandRank(0)
        .annotation("ProfilerStep#1", 0, 100)
        .annotation("ProfilerStep#2", 100, 100)
        .kernel("a", 7, 10, 20)  // step 1
        .kernel("b", 7, 90, 20)  // starts in step 1, ends in step 2
        .kernel("c", 7, 150, 10) // step 2
        .write(path);
    const RankDigest d = digestFile(path, 0);
    QCOMPARE(d.kernels, uint64_t(3));
    QCOMPARE(d.kernelTime, TimeNs(50'000));
    QCOMPARE(d.steps.size(), size_t(2));
    // Step 1 [0,100): busy [10,30) + [90,100) = 30 µs. Step 2 [100,200): [100,110) + [150,160).
    QCOMPARE(d.steps[0].devices.size(), size_t(1));
    QCOMPARE(d.steps[0].devices[0].busy, TimeNs(30'000));
    QCOMPARE(d.steps[0].devices[0].idle, TimeNs(70'000));
    QCOMPARE(d.steps[0].devices[0].kernels, uint64_t(2));
    QCOMPARE(d.steps[1].devices[0].busy, TimeNs(20'000));
    QCOMPARE(d.steps[1].devices[0].kernels, uint64_t(1));
}

void TstRankDigest::jsonRoundTrip() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("rank-3.json").toStdString();
    HandRank(3)
        .annotation("ProfilerStep#1", 0, 1000)
        .kernel("volta_sgemm", 7, 10, 100)
        .kernel(kAllReduce, 20, 200, 50, "0")
        .write(path);
    RankDigest d = digestFile(path, 2);
    d.warnings.push_back("a warning with \"quotes\" and \xc3\xa9");
    std::string error;
    const auto back = rankDigestFromText(rankDigestToText(d), &error);
    QVERIFY2(back.has_value(), error.c_str());
    QVERIFY(*back == d);
    QCOMPARE(rankDigestToJson(d)["strata_rank_digest"].get<int>(), RankDigest::kVersion);
}

void TstRankDigest::jsonRoundTripReal() {
    const std::string path =
        STRATA_SHARED_TRACES "/multirank/param-dlrm/worker1_step_12.1694128201556.pt.trace.json";
    if (!QFile::exists(QString::fromStdString(path))) QSKIP("param-dlrm traces absent");
    const RankDigest d = digestFile(path, 0);
    const std::string text = rankDigestToText(d);
    std::string error;
    const auto back = rankDigestFromText(text, &error);
    QVERIFY2(back.has_value(), error.c_str());
    QVERIFY(*back == d);
    // A few KB for a 1 MB trace.
    QVERIFY2(text.size() < 16 * 1024, qPrintable(QString::number(text.size())));
}

void TstRankDigest::jsonRefusals_data() {
    QTest::addColumn<QString>("edit"); // a JSON pointer to change, "=" and the new value
    QTest::addColumn<QString>("error");
    QTest::newRow("not a digest") << "/strata_rank_digest=-"
                                  << "not a Strata rank digest (no strata_rank_digest key)";
    QTest::newRow("newer") << "/strata_rank_digest=2"
                           << "strata_rank_digest: version 2 is newer than this build reads (1)";
    QTest::newRow("never written")
        << "/strata_rank_digest=0"
        << "strata_rank_digest: version 0 was never written (versions start at 1)";
    QTest::newRow("missing") << "/kernels=-"
                             << "kernels: missing";
    QTest::newRow("type") << "/collectives/0/end_ns=\"x\""
                          << "collectives[0].end_ns: expected an integer";
    QTest::newRow("order") << "/collectives/0/end_ns=0"
                           << "collectives[0]: end_ns before start_ns";
    QTest::newRow("nested")
        << "/steps/0/devices/0/gaps_by_cause/dependency/count=-1"
        << "steps[0].devices[0].gaps_by_cause.dependency.count: expected a count (>= 0)";
    QTest::newRow("source")
        << "/rank_source=\"guess\""
        << "rank_source: expected distributedInfo, recording, file name or index";
    // Values out of what they mean (issue 42): the digest is of HandRank(0) below, its bounds
    // [0, 1000000] ns, its collective [200000, 250000], its step [0, 1000000].
    QTest::newRow("time INT64_MIN")
        << "/collectives/0/start_ns=-9223372036854775808"
        << "collectives[0].start_ns: -9223372036854775808 is out of range (a time within "
           "+-2^62 ns)";
    QTest::newRow("time INT64_MAX")
        << "/collectives/0/end_ns=9223372036854775807"
        << "collectives[0].end_ns: 9223372036854775807 is out of range (a time within +-2^62 ns)";
    QTest::newRow("time 2^62") << "/clock/base_time_ns=4611686018427387904"
                               << "clock.base_time_ns: 4611686018427387904 is out of range (a "
                                  "time within +-2^62 ns)";
    QTest::newRow("outside bounds")
        << "/collectives/0/end_ns=2000000"
        << "collectives[0]: [200000, 2000000] ns lies outside the trace's bounds (clock.start_ns, "
           "clock.end_ns)";
    QTest::newRow("step order") << "/steps/0/end_ns=-1"
                                << "steps[0]: end_ns before start_ns";
    QTest::newRow("step outside bounds")
        << "/steps/0/start_ns=-1"
        << "steps[0]: [-1, 1000000] ns lies outside the trace's bounds (clock.start_ns, "
           "clock.end_ns)";
    QTest::newRow("clock order") << "/clock/end_ns=-1"
                                 << "clock: end_ns before start_ns";
    QTest::newRow("negative duration") << "/busy_ns=-5"
                                       << "busy_ns: expected a duration (>= 0)";
    QTest::newRow("negative step idle") << "/steps/0/devices/0/idle_ns=-1"
                                        << "steps[0].devices[0].idle_ns: expected a duration "
                                           "(>= 0)";
    QTest::newRow("negative threshold") << "/gap_threshold_ns=-1"
                                        << "gap_threshold_ns: expected a duration (>= 0)";
    QTest::newRow("negative kernels") << "/kernels=-1"
                                      << "kernels: expected a count (>= 0)";
    QTest::newRow("device") << "/collectives/0/device=4294967296"
                            << "collectives[0].device: 4294967296 is out of range (a device "
                               "number fits in 32 bits)";
    QTest::newRow("world size") << "/world_size=-2"
                                << "world_size: expected a count (>= 0) or -1 (unknown)";
}

void TstRankDigest::jsonRefusals() {
    QFETCH(QString, edit);
    QFETCH(QString, error);
    QTemporaryDir dir;
    const std::string path = dir.filePath("r.json").toStdString();
    HandRank(0).annotation("ProfilerStep#1", 0, 1000).kernel(kAllReduce, 20, 200, 50).write(path);
    nlohmann::json j = rankDigestToJson(digestFile(path, 0));
    const QStringList parts = edit.split('=');
    const nlohmann::json::json_pointer at(parts[0].toStdString());
    if (parts[1] == "-")
        j[at.parent_pointer()].erase(at.back());
    else
        j[at] = nlohmann::json::parse(parts[1].toStdString());
    std::string got;
    QVERIFY(!rankDigestFromJson(j, &got));
    QCOMPARE(QString::fromStdString(got), error);
    QVERIFY(!rankDigestFromText("{\"strata_rank_digest\": ", &got));
    QVERIFY(got.find("not JSON (byte ") == 0);
}

// The version key comes first in what is written (so that a digest is told by its first bytes),
// whatever the other keys are called.
void TstRankDigest::versionKeyWrittenFirst() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("r.json").toStdString();
    HandRank(0).annotation("ProfilerStep#1", 0, 1000).kernel(kAllReduce, 20, 200, 50).write(path);
    const std::string text = rankDigestToText(digestFile(path, 0));
    QVERIFY2(text.rfind("{\n \"strata_rank_digest\": 1,\n \"file\": ", 0) == 0, text.c_str());
    DigestOutcome failed;
    failed.error = "x.json: cannot open";
    QCOMPARE(
        digestOutcomeToJson(failed, "x.json").dump(),
        std::string(R"({"strata_rank_digest":1,"file":"x.json","error":"x.json: cannot open"})"));
}

void TstRankDigest::digestHead_data() {
    QTest::addColumn<QByteArray>("head");
    QTest::addColumn<bool>("digest");
    QTest::newRow("written, cut") << QByteArray("{\n \"strata_rank_digest\": 1,\n \"fi") << true;
    QTest::newRow("blanks first") << QByteArray(" \r\n\t{\"strata_rank_digest\"") << true;
    QTest::newRow("version key later")
        << QByteArray(R"({"file": "a", "strata_rank_digest": 1)") << true;
    // Older digests: nlohmann sorted the keys.
    QTest::newRow("older, cut in collectives")
        << QByteArray(R"({"busy_ns": 5, "clock": {"base_time_ns": null, "end_ns": 9}, "collec)")
        << true;
    QTest::newRow("older error")
        << QByteArray(R"({"error": "a: bad", "file": "a", "strata_rank_digest": 1})") << true;
    QTest::newRow("trace") << QByteArray(R"({"traceEvents": [{"ph": "X", "name": "k", "ts": 1)")
                           << false;
    QTest::newRow("key nested in a trace")
        << QByteArray(R"({"traceEvents": [{"args": {"strata_rank_digest": 1}}]})") << false;
    QTest::newRow("array trace") << QByteArray(R"([{"strata_rank_digest": 1}])") << false;
    QTest::newRow("busy_ns alone") << QByteArray(R"({"busy_ns": 1, "traceEvents": []})") << false;
    QTest::newRow("version key as a value")
        << QByteArray(R"({"name": "strata_rank_digest"})") << false;
    QTest::newRow("gzip") << QByteArray("\x1f\x8b\x08\x00\x00\x00", 6) << false;
    QTest::newRow("empty") << QByteArray() << false;
}

void TstRankDigest::digestHead() {
    QFETCH(QByteArray, head);
    QFETCH(bool, digest);
    QCOMPARE(looksLikeDigest(std::string_view(head.constData(), size_t(head.size()))), digest);
}

namespace {

// A digest of n collectives, 230 bytes each as written: over 20 MB for n = 100000.
RankDigest largeDigest(size_t n) {
    RankDigest d;
    d.file = "/scratch/rank-9.json";
    d.identity.rank = 9;
    d.bounds = {0, TimeNs(n) * 1000 + 1000};
    for (size_t i = 0; i < n; ++i)
        d.collectives.push_back({kAllReduce, "AllReduce", "0", 0, 20, int64_t(i), TimeNs(i) * 1000,
                                 TimeNs(i) * 1000 + 500, "", -1});
    d.steps.push_back({"ProfilerStep#1", 0, d.bounds.end, {}});
    return d;
}

using strata::test::writeAll;

} // namespace

// A digest larger than any fixed cap (issue 42: 17.2 MB for 75 k NCCL kernels) is read whole,
// in the layout written now and in the older one (keys sorted, the version key last but two);
// a trace that names the version key only past the head is not a digest (and is not read whole).
void TstRankDigest::largeDigestRead() {
    QTemporaryDir dir;
    const RankDigest d = largeDigest(100'000);
    const std::string now = dir.filePath("now.digest.json").toStdString();
    writeAll(now, rankDigestToText(d));
    QVERIFY(QFileInfo(QString::fromStdString(now)).size() > 20'000'000);
    QVERIFY(isDigestFile(now));
    std::optional<DigestOutcome> read = readDigestFile(now);
    QVERIFY(read && read->digest);
    QVERIFY(*read->digest == d);

    const std::string older = dir.filePath("older.digest.json").toStdString();
    const nlohmann::json sorted = rankDigestToJson(d); // std::map keys: sorted, as before
    writeAll(older, sorted.dump(1));
    QVERIFY(isDigestFile(older));
    read = readDigestFile(older);
    QVERIFY(read && read->digest);
    QVERIFY(*read->digest == d);

    const std::string trace = dir.filePath("trace.json").toStdString();
    writeAll(trace, "{\"traceEvents\": [\"" + std::string(kDigestHeadBytes, 'x') +
                        "\"], \"strata_rank_digest\": 1}");
    QVERIFY(!isDigestFile(trace));
    QVERIFY(!readDigestFile(trace));

    // A digest that breaks after its head: an error naming the file, where it breaks.
    const std::string cut = dir.filePath("cut.digest.json").toStdString();
    writeAll(cut, rankDigestToText(d).substr(0, 1'000'000));
    read = readDigestFile(cut);
    QVERIFY(read && !read->digest);
    QVERIFY2(read->error.rfind(cut + ": not a digest this build reads: not JSON (byte ", 0) == 0,
             read->error.c_str());
}

// A FIFO is neither opened for good nor waited on: no digest, at once (the trace loader then
// says what it is).
void TstRankDigest::fifoIsNoDigest() {
    QTemporaryDir dir;
    const std::string fifo = dir.filePath("fifo.json").toStdString();
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    QElapsedTimer clock;
    clock.start();
    QVERIFY(!isDigestFile(fifo));
    QVERIFY(!readDigestFile(fifo));
    QVERIFY(clock.elapsed() < 5000); // "does not hang": generous
}

STRATA_TEST_GUILESS_MAIN(TstRankDigest)
#include "tst_rank_digest.moc"

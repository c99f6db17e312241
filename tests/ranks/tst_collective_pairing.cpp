// Which collective kernels pair across ranks (core/analysis/ranks/collective_matching.h) and the
// alignment that refuses to make their ends spread wider than the common time base does
// (clock_alignment.h), issue 44: on a two-rank pair, point-to-point SendRecv kernels that do not
// pair were taken as shared collectives, the correct time base dropped for a -332 µs offset and
// rank 1 named straggler with a 311 ms delay where the one real collective says 84 µs. Every
// figure below is worked out by hand in the comments.
#include "support/rank_set_fixture.h"
#include "support/test_main.h"

#include "analysis/ranks/clock_alignment.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace strata;
using namespace strata::test;

namespace {

constexpr int64_t kUs = 1000; // ns
constexpr const char* kAllReduce =
    "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
constexpr const char* kSendRecv = "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)";

// Rank 0's baseTimeNanoseconds; rank 1's is 1 s earlier and its timestamps 1e6 µs later, so
// that both read the same common clock (base + ts): the pair's times below are µs of it from
// kBase0.
constexpr int64_t kBase0 = 1'700'000'000'000'000'000;
constexpr int64_t kBase1 = kBase0 - 1'000'000'000;
constexpr int64_t kLocal1 = 1'000'000; // rank 1's ts = common µs + kLocal1

// What the pair's kernels carry: Kineto's args of PyTorch 2.4+ (process group, Seq, collective
// name, the peer of a send or receive), or nothing (PyTorch 2.0).
enum class Args { Peers, Nothing };

nlohmann::json args(Args a, const char* collective, int peer = -1) {
    if (a == Args::Nothing) return nlohmann::json::object();
    // PyTorch gives a send or a receive the group's current Seq: the same as the collective's.
    nlohmann::json j = {{"Process Group Name", "0"}, {"Seq", 1}, {"Collective name", collective}};
    if (std::string(collective) == "send") j["Dst Rank"] = peer;
    if (std::string(collective) == "recv") j["Src Rank"] = peer;
    return j;
}

// The pair, on the common clock (µs from kBase0), all kernels on stream 20:
//   both     ProfilerStep#1                          [0, 400000)
//   rank 0   AllReduce                               [1000, 1200)
//            send to rank 2                          [2000, 2100)
//            receive from rank 2                     [10000, 200000)
//   rank 1   AllReduce                               [1084, 1200)
//            send to rank 3                          [2300, 2432)
//            receive from rank 3                     [321332, 334332)
//            (extraSend) send to rank 3              [3000, 3050)
// Taken in order as shared collectives (#0 the AllReduces, #1 the sends, #2 the receives), the
// ends of rank 0 minus rank 1's are 0, -332 and -134332 µs: over the 50 µs tolerance, so the
// collectives aligned them; the lower median, -332 µs, moved rank 1 by -332 µs, leaving the ends
// 332, 0 and 134000 µs apart, and rank 1 arrived at #2 at 321332 - 332 = 321000 µs, 311000 µs
// after rank 0: the 311 ms straggler. The sends and receives pair with ranks 2 and 3, which are
// not in the set: only the AllReduce is shared, its ends coincide under the time base, and rank 1
// arrives 84 µs after rank 0.
std::vector<std::string> writePair(const QTemporaryDir& dir, Args a, int worldSize = 4,
                                   bool extraSend = false) {
    const int64_t base[2] = {kBase0, kBase1}, local[2] = {0, kLocal1};
    const int64_t reduce[2] = {1000, 1084};
    const int64_t send[2][2] = {{2000, 100}, {2300, 132}};
    const int64_t recv[2][2] = {{10000, 190000}, {321332, 13000}};
    std::vector<std::string> paths;
    for (int r = 0; r < 2; ++r) {
        const int64_t t = local[r];
        const int peer = r == 0 ? 2 : 3;
        HandRank h(r);
        h.worldSize(worldSize).baseTime(base[r]).annotation("ProfilerStep#1", t, 400000);
        h.kernelWith(kAllReduce, 20, t + reduce[r], 1200 - reduce[r], args(a, "allreduce"))
            .kernelWith(kSendRecv, 20, t + send[r][0], send[r][1], args(a, "send", peer))
            .kernelWith(kSendRecv, 20, t + recv[r][0], recv[r][1], args(a, "recv", peer));
        if (extraSend && r == 1) h.kernelWith(kSendRecv, 20, t + 3000, 50, args(a, "send", peer));
        paths.push_back(dir.filePath(QString("rank%1.json").arg(r)).toStdString());
        h.write(paths.back());
    }
    return paths;
}

bool anyContains(const std::vector<std::string>& lines, const std::string& text) {
    for (const std::string& l : lines)
        if (l.find(text) != std::string::npos) return true;
    return false;
}

// A hand-made digest on the wall clock (offset 0 under the time base) with AllReduces of group
// "0" ending at `ends` (µs), each 100 µs long.
RankDigest wallClockDigest(int64_t rank, const std::vector<int64_t>& ends) {
    RankDigest d;
    d.file = "rank" + std::to_string(rank) + ".json";
    d.identity.rank = rank;
    d.identity.worldSize = 2;
    d.clock.wallClock = true;
    d.bounds = {0, 10'000 * kUs};
    for (int64_t e : ends)
        d.collectives.push_back(
            {kAllReduce, "AllReduce", "0", 0, 20, -1, (e - 100) * kUs, e * kUs, "", -1});
    d.steps.push_back({"ProfilerStep#1", d.bounds.start, d.bounds.end, {}});
    return d;
}

} // namespace

class TstCollectivePairing : public QObject {
    Q_OBJECT
private slots:
    void unpairedPointToPointLeftOut_data();
    void unpairedPointToPointLeftOut();
    void sendsPairWithTheirReceives();
    void wholeJobSendRecvStayInSequence();
    void worseAlignmentRefused();
    void refusedEvenIfMatched();
    void betterAlignmentKept();
};

void TstCollectivePairing::unpairedPointToPointLeftOut_data() {
    QTest::addColumn<int>("argsKind");
    QTest::addColumn<int>("worldSize");
    QTest::addColumn<bool>("extraSend");
    QTest::addColumn<QString>("group");
    QTest::addColumn<int>("index");
    QTest::addColumn<QString>("leftOut");
    // Peers named (ranks 2 and 3, not in the set); the AllReduce matched by its Seq, 1.
    QTest::newRow("peers outside the set")
        << int(Args::Peers) << 4 << false << "pg 0" << 1 << "rank 0: 2, rank 1: 2";
    // Nothing named: the pair is part of a 4-rank job, so its SendRecv kernels may pair with
    // the ranks not in it; the AllReduce is #0 of stream 20.
    QTest::newRow("no args, part of a job")
        << int(Args::Nothing) << 4 << false << "stream 20" << 0 << "rank 0: 2, rank 1: 2";
    // Nothing named, the whole job, but unequal numbers of them (2 and 3).
    QTest::newRow("no args, unequal")
        << int(Args::Nothing) << 2 << true << "stream 20" << 0 << "rank 0: 2, rank 1: 3";
}

void TstCollectivePairing::unpairedPointToPointLeftOut() {
    QFETCH(int, argsKind);
    QFETCH(int, worldSize);
    QFETCH(bool, extraSend);
    QFETCH(QString, group);
    QFETCH(int, index);
    QFETCH(QString, leftOut);
    QTemporaryDir dir;
    const CrossRankReport r =
        crossRank(digestFiles(writePair(dir, Args(argsKind), worldSize, extraSend)), {});
    const ClockAlignment& a = r.alignment;
    // The one shared collective ends at 1200 µs on both under the time base: kept.
    QCOMPARE(int(a.method), int(AlignMethod::Time));
    QCOMPARE(*a.offsets[0], kBase0);
    QCOMPARE(*a.offsets[1], kBase1);
    QCOMPARE(a.matched, size_t(1));
    QCOMPARE(*a.spread, TimeNs(0));
    QVERIFY2(anyContains(r.warnings, "point-to-point kernels (send / receive, SendRecv) left out "
                                     "of the matching") &&
                 anyContains(r.warnings, ": " + leftOut.toStdString()),
             r.warnings.empty() ? "no warning" : r.warnings.back().c_str());
    QCOMPARE(r.origin, kBase0); // both steps start at 0
    QCOMPARE(r.collectives.size(), size_t(1));
    const CrossRankCollective& c = r.collectives[0];
    QCOMPARE(c.op, std::string("AllReduce"));
    QCOMPARE(QString::fromStdString(c.group), group);
    QCOMPARE(c.index, int64_t(index));
    QCOMPARE(c.arrival, (std::vector<TimeNs>{1000 * kUs, 1084 * kUs}));
    QCOMPARE(c.wait, (std::vector<TimeNs>{84 * kUs, 0}));
    QCOMPARE(c.lateRank, size_t(1));
    QCOMPARE(c.lateBy, 84 * kUs);
    // Rank 1 is the straggler by the 84 µs the AllReduce says, not 311 ms.
    QCOMPARE(r.steps.size(), size_t(1));
    QVERIFY(r.steps[0].byCollectives);
    QCOMPARE(*r.steps[0].straggler, size_t(1));
    QCOMPARE(r.steps[0].delay, 84 * kUs);
    QCOMPARE(r.steps[0].collectives, size_t(1));
}

// Sends and receives that name their peers within the set pair with each other. Rank 1's clock
// reads 5000 µs more than rank 0's; in rank 0's clock:
//   rank 0 -> rank 1: rank 0 sends [100, 200), rank 1 receives [150, 200)
//   rank 1 -> rank 0: rank 1 sends [300, 400), rank 0 receives [260, 400)
// No time base (the timestamps are no wall clock): aligned by the collectives, rank 1's offset
// -5000 µs, the ends coincide; the origin is rank 0's first timestamp, 100 µs. Rank 1 arrives
// last at both: 50 µs after rank 0 at the first, 40 µs at the second.
void TstCollectivePairing::sendsPairWithTheirReceives() {
    QTemporaryDir dir;
    std::vector<std::string> paths;
    for (int r = 0; r < 2; ++r) {
        const int64_t t = r == 0 ? 0 : 5000;
        HandRank h(r);
        h.worldSize(2);
        if (r == 0)
            h.kernelWith(kSendRecv, 20, 100, 100, args(Args::Peers, "send", 1))
                .kernelWith(kSendRecv, 20, 260, 140, args(Args::Peers, "recv", 1));
        else
            h.kernelWith(kSendRecv, 20, t + 150, 50, args(Args::Peers, "recv", 0))
                .kernelWith(kSendRecv, 20, t + 300, 100, args(Args::Peers, "send", 0));
        paths.push_back(dir.filePath(QString("r%1.json").arg(r)).toStdString());
        h.write(paths.back());
    }
    const CrossRankReport r = crossRank(digestFiles(paths), {});
    QCOMPARE(int(r.alignment.method), int(AlignMethod::Collectives));
    QCOMPARE(r.alignment.matched, size_t(2));
    QCOMPARE(*r.alignment.offsets[0], TimeNs(0));
    QCOMPARE(*r.alignment.offsets[1], -5000 * kUs);
    QCOMPARE(*r.alignment.spread, TimeNs(0));
    QVERIFY(!anyContains(r.warnings, "point-to-point"));
    QCOMPARE(r.origin, 100 * kUs);
    QCOMPARE(r.collectives.size(), size_t(2));
    QCOMPARE(r.collectives[0].group, std::string("pg 0 p2p rank 0 -> rank 1"));
    QCOMPARE(r.collectives[0].index, int64_t(0));
    QCOMPARE(r.collectives[0].arrival, (std::vector<TimeNs>{0, 50 * kUs}));
    QCOMPARE(r.collectives[0].lateRank, size_t(1));
    QCOMPARE(r.collectives[0].lateBy, 50 * kUs);
    QCOMPARE(r.collectives[1].group, std::string("pg 0 p2p rank 1 -> rank 0"));
    QCOMPARE(r.collectives[1].arrival, (std::vector<TimeNs>{160 * kUs, 200 * kUs}));
    QCOMPARE(r.collectives[1].lateBy, 40 * kUs);
}

// The PARAM DLRM case: SendRecv kernels that name nothing (all-to-alls), the whole job (world
// size 2), as many on each rank: they stay in the stream's sequence with the AllReduce.
//   rank 0: SendRecv [100, 200), AllReduce [300, 400); rank 1: [120, 200), [350, 400)
void TstCollectivePairing::wholeJobSendRecvStayInSequence() {
    QTemporaryDir dir;
    std::vector<std::string> paths;
    for (int r = 0; r < 2; ++r) {
        HandRank h(r);
        h.worldSize(2)
            .kernel(kSendRecv, 84, r == 0 ? 100 : 120, r == 0 ? 100 : 80)
            .kernel(kAllReduce, 84, r == 0 ? 300 : 350, r == 0 ? 100 : 50);
        paths.push_back(dir.filePath(QString("r%1.json").arg(r)).toStdString());
        h.write(paths.back());
    }
    const CrossRankReport r = crossRank(digestFiles(paths), {});
    QCOMPARE(r.alignment.matched, size_t(2));
    QVERIFY(!anyContains(r.warnings, "point-to-point"));
    QCOMPARE(r.collectives.size(), size_t(2));
    QCOMPARE(r.collectives[0].group, std::string("stream 84"));
    QCOMPARE(r.collectives[0].index, int64_t(0));
    QCOMPARE(r.collectives[0].op, std::string("SendRecv"));
    QCOMPARE(r.collectives[0].wait, (std::vector<TimeNs>{20 * kUs, 0}));
    QCOMPARE(r.collectives[1].index, int64_t(1));
    QCOMPARE(r.collectives[1].op, std::string("AllReduce"));
    QCOMPARE(r.collectives[1].wait, (std::vector<TimeNs>{50 * kUs, 0}));
}

// Three AllReduces on the wall clock whose ends (rank 0's minus rank 1's) differ by -100, +60 and
// +70 µs: 100 µs apart at most under the time base (over the 50 µs tolerance; median 70 µs).
// Aligned by them, rank 1 would move by their lower median, +60 µs, and the ends would differ by
// 160, 0 and 10 µs: up to 160 µs (median 10 µs), worse than the time base's 100 µs. Auto keeps
// the time base and says why; it does not then advise --align collectives.
void TstCollectivePairing::worseAlignmentRefused() {
    const std::vector<RankDigest> d = {wallClockDigest(0, {1000, 2000, 3000}),
                                       wallClockDigest(1, {1100, 1940, 2930})};
    const CrossRankReport r = crossRank(d, {});
    const ClockAlignment& a = r.alignment;
    QCOMPARE(int(a.method), int(AlignMethod::Time));
    QCOMPARE(*a.offsets[0], TimeNs(0));
    QCOMPARE(*a.offsets[1], TimeNs(0));
    QCOMPARE(a.matched, size_t(3));
    QCOMPARE(*a.spread, 100 * kUs);
    QCOMPARE(*a.medianSpread, 70 * kUs);
    QCOMPARE(*a.refusedSpread, 160 * kUs);
    QCOMPARE(a.reason, std::string("the common time base: aligning by the matched collectives "
                                   "would not bring their ends closer (up to 160 µs (median 10 "
                                   "µs) apart, against up to 100 µs (median 70 µs) under it)"));
    QVERIFY(anyContains(a.warnings, "the matched collectives' ends differ by up to 100 µs (median "
                                    "70 µs) under the common time base (more than the tolerance, "
                                    "50 µs), and by up to 160 µs (median 10 µs) when aligned by "
                                    "them: their alignment is refused and the time base kept"));
    QVERIFY(!anyContains(a.warnings, "--align collectives lines them up"));
    // Asked for, the collectives are used as they are, and their spread is said.
    AlignRequest q;
    q.method = AlignMethod::Collectives;
    const CrossRankReport c = crossRank(d, q);
    QCOMPARE(int(c.alignment.method), int(AlignMethod::Collectives));
    QCOMPARE(*c.alignment.offsets[1], 60 * kUs);
    QCOMPARE(*c.alignment.spread, 160 * kUs);
    QVERIFY(anyContains(c.alignment.warnings, "aligned by the collectives, their ends still differ "
                                              "by up to 160 µs (more than the tolerance, 50 µs)"));
}

// The pair had its point-to-point kernels been taken as shared collectives (as
// writePair's, in order): ends (rank 0's minus rank 1's) 0, -332 and -134332 µs, 134.332 ms
// apart at most under the time base, median 332 µs. Aligned by them (rank 1 moved by their lower
// median, -332 µs) 332, 0 and 134000 µs: up to 134 ms, median 332 µs: no closer in the median,
// so auto keeps the time base even then.
void TstCollectivePairing::refusedEvenIfMatched() {
    const std::vector<RankDigest> d = {wallClockDigest(0, {1200, 2100, 200000}),
                                       wallClockDigest(1, {1200, 2432, 334332})};
    const CrossRankReport r = crossRank(d, {});
    const ClockAlignment& a = r.alignment;
    QCOMPARE(int(a.method), int(AlignMethod::Time));
    QCOMPARE(*a.offsets[1], TimeNs(0));
    QCOMPARE(*a.spread, 134332 * kUs);
    QCOMPARE(*a.medianSpread, 332 * kUs);
    QCOMPARE(*a.refusedSpread, 134000 * kUs);
    QVERIFY(anyContains(a.warnings, "differ by up to 134.332 ms (median 332 µs) under the common "
                                    "time base (more than the tolerance, 50 µs), and by up to "
                                    "134 ms (median 332 µs) when aligned by them"));
}

// Ends that differ by +60, +60 and +70 µs: 70 µs apart under the time base; aligned by them
// (+60 µs) 0, 0 and 10 µs (median 0): better in both, so auto aligns by them, as before.
void TstCollectivePairing::betterAlignmentKept() {
    const std::vector<RankDigest> d = {wallClockDigest(0, {1000, 2000, 3000}),
                                       wallClockDigest(1, {940, 1940, 2930})};
    const CrossRankReport r = crossRank(d, {});
    QCOMPARE(int(r.alignment.method), int(AlignMethod::Collectives));
    QCOMPARE(*r.alignment.offsets[1], 60 * kUs);
    QCOMPARE(*r.alignment.spread, 10 * kUs);
    QVERIFY(!r.alignment.refusedSpread);
}

STRATA_TEST_GUILESS_MAIN(TstCollectivePairing)
#include "tst_collective_pairing.moc"

// The cross-rank reduce (core/analysis/cross_rank.h) on hand-made Kineto JSON ranks whose every
// figure is worked out below: clock offsets recovered from the collectives, the straggler of a
// step and the waits at each collective, shift-equivariance, process groups, mismatched
// sequences, refusal when nothing matches, duplicate rank labels.
#include "support/rank_set_fixture.h"
#include "support/test_main.h"

#include "analysis/ranks/clock_alignment.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace strata;
using namespace strata::test;

namespace {

constexpr const char* kSgemm = "volta_sgemm_128x64_nn";
constexpr const char* kAllReduce =
    "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)";
constexpr const char* kAllGather =
    "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
constexpr int64_t kUs = 1000; // ns

// The straggler set. Rank r's clock reads T_r = 100000 µs + shift[r] at the same instant; in
// local µs from T_r each rank runs
//   ProfilerStep#1            [0, 1000)
//   sgemm on stream 7         [0, c_r)                 c = 200, 250, 300, 450
//   AllReduce, pg "0", st 20  [c_r, 500)               all end at 500
//   AllReduce, pg "0", st 20  [a_r, 700)               a = 650, 600, 600, 600
//   AllGather, pg "5", st 30  ranks 2 and 3 only: [750, 800) and [780, 800)
const int64_t kShift[4] = {0, 10000, 300, 5000};
const int64_t kCompute[4] = {200, 250, 300, 450};
const int64_t kSecond[4] = {650, 600, 600, 600};

std::vector<std::string> writeStragglerSet(const QTemporaryDir& dir, int shiftedRank = -1,
                                           int64_t extraShift = 0) {
    std::vector<std::string> paths;
    for (int r = 0; r < 4; ++r) {
        const int64_t t = 100000 + kShift[r] + (r == shiftedRank ? extraShift : 0);
        HandRank h(r);
        h.annotation("ProfilerStep#1", t, 1000)
            .kernel(kSgemm, 7, t, kCompute[r])
            .kernel(kAllReduce, 20, t + kCompute[r], 500 - kCompute[r], "0")
            .kernel(kAllReduce, 20, t + kSecond[r], 700 - kSecond[r], "0");
        if (r == 2) h.kernel(kAllGather, 30, t + 750, 50, "5");
        if (r == 3) h.kernel(kAllGather, 30, t + 780, 20, "5");
        paths.push_back(dir.filePath(QString("rank%1.json").arg(r)).toStdString());
        h.write(paths.back());
    }
    return paths;
}

const CrossRankCollective* instance(const CrossRankReport& r, const std::string& group,
                                    int64_t index) {
    for (const CrossRankCollective& c : r.collectives)
        if (c.group == group && c.index == index) return &c;
    return nullptr;
}

bool anyContains(const std::vector<std::string>& lines, const char* text) {
    for (const std::string& l : lines)
        if (l.find(text) != std::string::npos) return true;
    return false;
}

// A hand-made digest (no trace): bounds [start, end], one step over them, AllReduces of process
// group "0" on stream 20 at the spans given.
RankDigest handDigest(int64_t rank, TimeNs start, TimeNs end,
                      const std::vector<std::pair<TimeNs, TimeNs>>& collectives,
                      std::optional<TimeNs> base = std::nullopt) {
    RankDigest d;
    d.file = "rank" + std::to_string(rank) + ".json";
    d.identity.rank = rank;
    d.clock.baseTimeNs = base;
    d.bounds = {start, end};
    for (const auto& [s, e] : collectives)
        d.collectives.push_back({kAllReduce, "AllReduce", "0", 0, 20, -1, s, e, "", -1});
    d.steps.push_back({"ProfilerStep#1", start, end, {}});
    return d;
}

constexpr TimeNs kMax = kMaxTimeNs; // 2^62 - 1 = 4611686018427387903

} // namespace

class TstCrossRank : public QObject {
    Q_OBJECT
private slots:
    void offsetsFromCollectives();
    void stragglerAndWaits();
    void stepRows();
    void shiftEquivariance();
    void referenceShiftMovesTheOthers();
    void alignByStep();
    void manualOffsets();
    void noCommonCollectivesRefused();
    void timeBaseWithoutCollectives();
    void mismatchedSequenceLeftOut();
    void differentStreamsMatchedInOrder();
    void duplicateRanksNumberedByPosition();
    void parseAlign_data();
    void parseAlign();
    void extremeTimesAligned();
    void offsetsBeyondRangeDropped();
    void waitsSaturate();
};

void TstCrossRank::offsetsFromCollectives() {
    QTemporaryDir dir;
    const CrossRankReport r = crossRank(digestFiles(writeStragglerSet(dir)), {});
    const ClockAlignment& a = r.alignment;
    // The timestamps (1e8 ns) are no wall clock and carry no baseTimeNanoseconds: auto falls to
    // the collectives, rank 0 the reference with offset 0.
    QCOMPARE(int(a.method), int(AlignMethod::Collectives));
    QCOMPARE(a.reference, size_t(0));
    QCOMPARE(a.matched, size_t(3)); // pg 0 #0, pg 0 #1, pg 5 #0
    for (int k = 0; k < 4; ++k) {
        QVERIFY(a.offsets[size_t(k)].has_value());
        QCOMPARE(*a.offsets[size_t(k)], -kShift[k] * kUs);
        QCOMPARE(*a.uncertainty[size_t(k)], TimeNs(0)); // the ends coincide exactly
    }
    QCOMPARE(*a.spread, TimeNs(0));
    QVERIFY(a.reason.find("no common time base") != std::string::npos);
    QCOMPARE(r.origin, TimeNs(100000) * kUs);
}

void TstCrossRank::stragglerAndWaits() {
    QTemporaryDir dir;
    const CrossRankReport r = crossRank(digestFiles(writeStragglerSet(dir)), {});
    QCOMPARE(r.collectives.size(), size_t(3));
    // pg 0 #0: arrivals 200, 250, 300, 450 µs; rank 3 last; waits 250, 200, 150, 0; the others'
    // median wait (lower middle of 150, 200, 250) 200 µs.
    const CrossRankCollective* c = instance(r, "pg 0", 0);
    QVERIFY(c);
    QCOMPARE(c->op, std::string("AllReduce"));
    QCOMPARE(c->arrival, (std::vector<TimeNs>{200 * kUs, 250 * kUs, 300 * kUs, 450 * kUs}));
    QCOMPARE(c->wait, (std::vector<TimeNs>{250 * kUs, 200 * kUs, 150 * kUs, 0}));
    QCOMPARE(r.ranks[c->lateRank].rank, int64_t(3));
    QCOMPARE(c->lateBy, 200 * kUs);
    QCOMPARE(c->maxWait, 250 * kUs);
    QCOMPARE(c->step, std::string("ProfilerStep#1"));
    // pg 0 #1: arrivals 650, 600, 600, 600: rank 0 last by 50 µs.
    c = instance(r, "pg 0", 1);
    QVERIFY(c);
    QCOMPARE(r.ranks[c->lateRank].rank, int64_t(0));
    QCOMPARE(c->lateBy, 50 * kUs);
    // pg 5 #0: ranks 2 and 3 only, 750 and 780: rank 3 last by 30 µs.
    c = instance(r, "pg 5", 0);
    QVERIFY(c);
    QCOMPARE(c->op, std::string("AllGather"));
    QCOMPARE(c->ranks, (std::vector<size_t>{2, 3}));
    QCOMPARE(c->lateBy, 30 * kUs);
    // The step: rank 3 caused 200 + 30 µs of waiting, rank 0 50 µs: rank 3 is the straggler.
    QCOMPARE(r.steps.size(), size_t(1));
    const CrossRankStep& s = r.steps[0];
    QCOMPARE(s.name, std::string("ProfilerStep#1"));
    QVERIFY(s.byCollectives);
    QCOMPARE(s.collectives, size_t(3));
    QCOMPARE(r.ranks[*s.straggler].rank, int64_t(3));
    QCOMPARE(s.delay, 230 * kUs);
    QCOMPARE(s.ranks[0].causedWait, 50 * kUs);
}

void TstCrossRank::stepRows() {
    QTemporaryDir dir;
    const CrossRankReport r = crossRank(digestFiles(writeStragglerSet(dir)), {});
    const CrossRankStep& s = r.steps[0];
    // Busy = the union of each rank's kernels inside [0, 1000):
    //   rank 0 [0,500) + [650,700) = 550; rank 1 [0,500) + [600,700) = 600;
    //   rank 2 [0,500) + [600,700) + [750,800) = 650; rank 3 ... + [780,800) = 620.
    // The gaps over 10 µs (no launch records: unattributed): rank 0 [500,650); rank 1 [500,600);
    // rank 2 [500,600) and [700,750); rank 3 [500,600) and [700,780). After the last op: an edge.
    const TimeNs busy[4] = {550, 600, 650, 620};
    const TimeNs unattributed[4] = {150, 100, 150, 180};
    const uint64_t kernels[4] = {3, 3, 4, 4};
    QCOMPARE(s.ranks.size(), size_t(4));
    QCOMPARE(s.medianDuration, 1000 * kUs);
    for (size_t k = 0; k < 4; ++k) {
        const RankStep& x = s.ranks[k];
        QCOMPARE(x.duration, 1000 * kUs);
        QCOMPARE(x.busy, busy[k] * kUs);
        QCOMPARE(x.idle, (1000 - busy[k]) * kUs);
        QCOMPARE(x.idleByCause[size_t(GapCause::Unattributed)], unattributed[k] * kUs);
        QCOMPARE(x.kernels, kernels[k]);
        QCOMPARE(*x.start, TimeNs(0)); // every step starts at the aligned origin
    }
}

// Moving one rank's timestamps by d moves its offset by -d and nothing else.
void TstCrossRank::shiftEquivariance() {
    QTemporaryDir before, after;
    const int64_t d = 777;
    const CrossRankReport a = crossRank(digestFiles(writeStragglerSet(before)), {});
    const CrossRankReport b = crossRank(digestFiles(writeStragglerSet(after, 2, d)), {});
    for (size_t k = 0; k < 4; ++k)
        QCOMPARE(*b.alignment.offsets[k], *a.alignment.offsets[k] - (k == 2 ? d * kUs : 0));
    QCOMPARE(b.origin, a.origin);
    QCOMPARE(b.collectives.size(), a.collectives.size());
    for (size_t i = 0; i < a.collectives.size(); ++i) {
        QCOMPARE(b.collectives[i].arrival, a.collectives[i].arrival);
        QCOMPARE(b.collectives[i].end, a.collectives[i].end);
    }
    QCOMPARE(b.steps[0].delay, a.steps[0].delay);
}

// The reference rank keeps its offset: moving it moves every other offset by +d instead (the
// same alignment seen from its clock: every aligned time relative to the others is unchanged).
void TstCrossRank::referenceShiftMovesTheOthers() {
    QTemporaryDir before, after;
    const int64_t d = 1234;
    const CrossRankReport a = crossRank(digestFiles(writeStragglerSet(before)), {});
    const CrossRankReport b = crossRank(digestFiles(writeStragglerSet(after, 0, d)), {});
    QCOMPARE(*b.alignment.offsets[0], *a.alignment.offsets[0]);
    for (size_t k = 1; k < 4; ++k)
        QCOMPARE(*b.alignment.offsets[k], *a.alignment.offsets[k] + d * kUs);
    for (size_t i = 0; i < a.collectives.size(); ++i)
        QCOMPARE(b.collectives[i].arrival, a.collectives[i].arrival);
}

void TstCrossRank::alignByStep() {
    QTemporaryDir dir;
    AlignRequest q;
    q.method = AlignMethod::Step;
    q.stepName = "ProfilerStep#1";
    const CrossRankReport r = crossRank(digestFiles(writeStragglerSet(dir)), q);
    QCOMPARE(int(r.alignment.method), int(AlignMethod::Step));
    for (size_t k = 0; k < 4; ++k) QCOMPARE(*r.alignment.offsets[k], -kShift[k] * kUs);
    q.stepName = "ProfilerStep#9";
    const CrossRankReport none = crossRank(digestFiles(writeStragglerSet(dir)), q);
    QVERIFY(!none.alignment.aligned());
    QVERIFY(anyContains(none.alignment.warnings,
                        "not aligned: no two ranks have a step named 'ProfilerStep#9'"));
}

// Two ranks without a collective kernel and without a time base: nothing to align them by.
// Offsets set by hand (the Ranks dock): used as given, the spread measured under them. Rank 1's
// is 30 µs past the true one, so its collective ends land 30 µs after the others' (500 and 700
// local µs on every rank): spread 30 µs, rank 1's distance from the median end 30 µs, the
// others' 0.
void TstCrossRank::manualOffsets() {
    QTemporaryDir dir;
    const std::vector<RankDigest> d = digestFiles(writeStragglerSet(dir));
    AlignRequest q;
    q.method = AlignMethod::Manual;
    for (int k = 0; k < 4; ++k) q.offsets.push_back(-kShift[k] * kUs + (k == 1 ? 30 * kUs : 0));
    const CrossRankReport r = crossRank(d, q);
    const ClockAlignment& a = r.alignment;
    QCOMPARE(int(a.method), int(AlignMethod::Manual));
    QCOMPARE(std::string(alignMethodName(a.method)), std::string("manual"));
    for (int k = 0; k < 4; ++k) QCOMPARE(a.offsets[size_t(k)], q.offsets[size_t(k)]);
    QCOMPARE(*a.spread, 30 * kUs);
    QCOMPARE(*a.uncertainty[1], 30 * kUs);
    QCOMPARE(*a.uncertainty[0], TimeNs(0));
    QCOMPARE(*a.uncertainty[3], TimeNs(0));
    // Nothing given: refused, said.
    AlignRequest none;
    none.method = AlignMethod::Manual;
    const CrossRankReport n = crossRank(d, none);
    QVERIFY(!n.alignment.aligned());
    QVERIFY(anyContains(n.alignment.warnings, "not aligned: no offset was given"));
}

void TstCrossRank::noCommonCollectivesRefused() {
    QTemporaryDir dir;
    std::vector<std::string> paths;
    for (int r = 0; r < 2; ++r) {
        paths.push_back(dir.filePath(QString("r%1.json").arg(r)).toStdString());
        HandRank(r)
            .annotation("ProfilerStep#1", 5000 + 1000 * r, 800 + 100 * r)
            .kernel(kSgemm, 7, 5000 + 1000 * r, 300)
            .write(paths.back());
    }
    const std::vector<RankDigest> d = digestFiles(paths);
    const CrossRankReport r = crossRank(d, {});
    QVERIFY(!r.alignment.aligned());
    QCOMPARE(std::string(alignMethodName(r.alignment.method)), std::string("none"));
    QVERIFY(anyContains(r.alignment.warnings, "not aligned: no common time base and no collective "
                                              "kernel matched across ranks (no offset claimed)"));
    for (const CrossRankRow& row : r.ranks) QVERIFY(!row.offset);
    QVERIFY(r.collectives.empty());
    // The steps are still compared by their lengths: rank 1's (900 µs) is 100 µs over the
    // median rank's (the lower middle of 800 and 900).
    QCOMPARE(r.steps.size(), size_t(1));
    QVERIFY(!r.steps[0].byCollectives);
    QCOMPARE(r.ranks[*r.steps[0].straggler].rank, int64_t(1));
    QCOMPARE(r.steps[0].delay, 100 * kUs);
    QVERIFY(!r.steps[0].ranks[0].start);
    AlignRequest q;
    q.method = AlignMethod::Collectives;
    const CrossRankReport c = crossRank(d, q);
    QVERIFY(!c.alignment.aligned());
    QVERIFY(anyContains(c.alignment.warnings,
                        "not aligned: no collective kernel matched across ranks"));
}

// With a common time base and nothing to confirm it, auto uses it and says so.
void TstCrossRank::timeBaseWithoutCollectives() {
    QTemporaryDir dir;
    std::vector<std::string> paths;
    const int64_t base[2] = {1'700'000'000'000'000'000, 1'700'000'000'002'000'000};
    for (int r = 0; r < 2; ++r) {
        paths.push_back(dir.filePath(QString("r%1.json").arg(r)).toStdString());
        HandRank(r).baseTime(base[r]).kernel(kSgemm, 7, 10, 300).write(paths.back());
    }
    const CrossRankReport r = crossRank(digestFiles(paths), {});
    QCOMPARE(int(r.alignment.method), int(AlignMethod::Time));
    QCOMPARE(*r.alignment.offsets[0], base[0]);
    QCOMPARE(*r.alignment.offsets[1], base[1]);
    QVERIFY(anyContains(r.alignment.warnings, "the common time base is used unconfirmed"));
    QCOMPARE(r.origin, base[0] + 10 * kUs);
}

// Rank 1's capture began after the set's first collective (an AllGather): its first is the
// AllReduce the others ran second. It is left out of instance #0 (said), kept in #1 by position
// only if the ops agree: #1 of the others is AllReduce, of rank 1 nothing.
void TstCrossRank::mismatchedSequenceLeftOut() {
    QTemporaryDir dir;
    std::vector<std::string> paths;
    for (int r = 0; r < 3; ++r) {
        paths.push_back(dir.filePath(QString("r%1.json").arg(r)).toStdString());
        HandRank h(r);
        if (r != 1) h.kernel(kAllGather, 20, 1000, 100);
        h.kernel(kAllReduce, 20, 1200, 100).write(paths.back());
    }
    const CrossRankReport r = crossRank(digestFiles(paths), {});
    QVERIFY(anyContains(r.warnings, "rank 1: collective #0 of stream 20 is AllReduce where the "
                                    "others ran AllGather: left out of it"));
    const CrossRankCollective* first = instance(r, "stream 20", 0);
    QVERIFY(first);
    QCOMPARE(first->ranks, (std::vector<size_t>{0, 2}));
}

void TstCrossRank::differentStreamsMatchedInOrder() {
    QTemporaryDir dir;
    std::vector<std::string> paths;
    for (int r = 0; r < 2; ++r) {
        paths.push_back(dir.filePath(QString("r%1.json").arg(r)).toStdString());
        HandRank(r).kernel(kAllReduce, 20 + r, 1000 + 50 * r, 100 - 50 * r).write(paths.back());
    }
    const CrossRankReport r = crossRank(digestFiles(paths), {});
    QVERIFY(anyContains(r.warnings, "matched in order of start over all streams"));
    QCOMPARE(r.collectives.size(), size_t(1));
    QCOMPARE(r.collectives[0].group, std::string("all streams"));
    QCOMPARE(r.collectives[0].wait, (std::vector<TimeNs>{50 * kUs, 0}));
}

void TstCrossRank::duplicateRanksNumberedByPosition() {
    QTemporaryDir dir;
    std::vector<std::string> paths;
    for (int r = 0; r < 2; ++r) {
        paths.push_back(dir.filePath(QString("copy%1.json").arg(r)).toStdString());
        HandRank(0).kernel(kAllReduce, 20, 1000, 100).write(paths.back());
    }
    const CrossRankReport r = crossRank(digestFiles(paths), {});
    QVERIFY(anyContains(r.warnings, "2 files claim rank 0"));
    QCOMPARE(r.ranks[0].rank, int64_t(0));
    QCOMPARE(r.ranks[1].rank, int64_t(1));
}

void TstCrossRank::parseAlign_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("method");
    QTest::addColumn<QString>("step");
    QTest::newRow("auto") << "auto" << int(AlignMethod::Auto) << "";
    QTest::newRow("time") << "time" << int(AlignMethod::Time) << "";
    QTest::newRow("collectives") << "collectives" << int(AlignMethod::Collectives) << "";
    QTest::newRow("step") << "step:ProfilerStep#3" << int(AlignMethod::Step) << "ProfilerStep#3";
    QTest::newRow("empty step") << "step:" << -1 << "";
    QTest::newRow("unknown") << "clock" << -1 << "";
}

void TstCrossRank::parseAlign() {
    QFETCH(QString, text);
    QFETCH(int, method);
    QFETCH(QString, step);
    std::string error;
    const auto r = parseAlignRequest(text.toStdString(), &error);
    QCOMPARE(r.has_value(), method >= 0);
    if (!r) {
        QCOMPARE(error,
                 "expects auto, time, collectives or step:NAME, got '" + text.toStdString() + "'");
        return;
    }
    QCOMPARE(int(r->method), method);
    QCOMPARE(QString::fromStdString(r->stepName), step);
}

// Ranks at the two ends of the time range a digest may hold (+-(2^62 - 1) ns): the collectives
// align them exactly, with no sum overflowing. Rank 0: bounds [-K, -K+1000], its AllReduce
// [-K+500, -K+1000]; rank 1: bounds [K-1000, K], its AllReduce [K-300, K]. Rank 1's offset is
// rank 0's end minus its own: -2K+1000 = -9223372036854774806; both then span [-K, -K+1000],
// the origin -K; arrivals 500 and 700 ns, rank 1 late by 200 ns, the step's straggler.
void TstCrossRank::extremeTimesAligned() {
    const std::vector<RankDigest> d = {
        handDigest(0, -kMax, -kMax + 1000, {{-kMax + 500, -kMax + 1000}}),
        handDigest(1, kMax - 1000, kMax, {{kMax - 300, kMax}})};
    const CrossRankReport r = crossRank(d, {});
    const ClockAlignment& a = r.alignment;
    QCOMPARE(int(a.method), int(AlignMethod::Collectives));
    QCOMPARE(*a.offsets[0], TimeNs(0));
    QCOMPARE(*a.offsets[1], TimeNs(-9223372036854774806));
    QCOMPARE(*a.spread, TimeNs(0));
    QCOMPARE(r.origin, TimeNs(-4611686018427387903));
    QCOMPARE(r.collectives.size(), size_t(1));
    QCOMPARE(r.collectives[0].arrival, (std::vector<TimeNs>{500, 700}));
    QCOMPARE(r.collectives[0].end, (std::vector<TimeNs>{1000, 1000}));
    QCOMPARE(r.collectives[0].wait, (std::vector<TimeNs>{200, 0}));
    QCOMPARE(r.collectives[0].lateBy, TimeNs(200));
    QCOMPARE(r.steps.size(), size_t(1));
    QCOMPARE(*r.steps[0].ranks[0].start, TimeNs(0));
    QCOMPARE(*r.steps[0].ranks[1].start, TimeNs(0));
    QCOMPARE(*r.steps[0].straggler, size_t(1));
    QCOMPARE(r.steps[0].delay, TimeNs(200));
    QVERIFY(r.steps[0].byCollectives);
}

// An offset that would put a rank's times beyond +-(2^62 - 1) ns is dropped, the rank not
// aligned and named in a warning; with every offset dropped the alignment is refused.
void TstCrossRank::offsetsBeyondRangeDropped() {
    AlignRequest time;
    time.method = AlignMethod::Time;
    // Rank 0's time base K puts [0, 1000] at [K, K+1000]: beyond the range. Rank 1's is 0.
    std::vector<RankDigest> d = {handDigest(0, 0, 1000, {{0, 1000}}, kMax),
                                 handDigest(1, 0, 1000, {{0, 1000}}, 0)};
    CrossRankReport r = crossRank(d, time);
    QCOMPARE(int(r.alignment.method), int(AlignMethod::Time));
    QVERIFY(!r.alignment.offsets[0]);
    QCOMPARE(*r.alignment.offsets[1], TimeNs(0));
    QVERIFY(anyContains(r.alignment.warnings,
                        "rank 0: the offset would put its times beyond +-2^62 ns (146 years) of "
                        "the aligned timeline: not aligned (no offset claimed)"));
    // auto does not keep a time base that leaves a rank out: the collectives align both.
    r = crossRank(d, {});
    QCOMPARE(int(r.alignment.method), int(AlignMethod::Collectives));
    QCOMPARE(*r.alignment.offsets[0], TimeNs(0));
    QCOMPARE(*r.alignment.offsets[1], TimeNs(0));
    // Every rank beyond: refused.
    d[1].clock.baseTimeNs = kMax;
    r = crossRank(d, time);
    QVERIFY(!r.alignment.aligned());
    QVERIFY(anyContains(r.alignment.warnings,
                        "rank 0, rank 1: the offset would put its times beyond +-2^62 ns"));
    QVERIFY(anyContains(r.alignment.warnings,
                        "not aligned: every offset would put its rank's times beyond +-2^62 ns "
                        "(no offset claimed)"));
    // An offset given by hand likewise.
    AlignRequest manual;
    manual.method = AlignMethod::Manual;
    manual.offsets = {INT64_MAX, 0};
    r = crossRank(d, manual);
    QCOMPARE(int(r.alignment.method), int(AlignMethod::Manual));
    QVERIFY(!r.alignment.offsets[0]);
    QCOMPARE(*r.alignment.offsets[1], TimeNs(0));
    QVERIFY(anyContains(r.alignment.warnings, "rank 0: the offset would put its times beyond"));
}

// Waits summed over a step's collectives are held at the int64 limit instead of wrapping: two
// instances where rank 1 arrives 2K-1 ns after rank 0 (rank 0's kernels span [-K, K], rank 1's
// [K-1, K]; the ends coincide, offsets 0) sum to more than INT64_MAX.
void TstCrossRank::waitsSaturate() {
    const std::vector<RankDigest> d = {
        handDigest(0, -kMax, kMax, {{-kMax, kMax}, {-kMax, kMax}}),
        handDigest(1, -kMax, kMax, {{kMax - 1, kMax}, {kMax - 1, kMax}})};
    const CrossRankReport r = crossRank(d, {});
    QCOMPARE(int(r.alignment.method), int(AlignMethod::Collectives));
    QCOMPARE(r.collectives.size(), size_t(2));
    QCOMPARE(r.collectives[0].lateBy, TimeNs(9223372036854775805)); // 2K - 1
    QCOMPARE(r.steps.size(), size_t(1));
    QCOMPARE(*r.steps[0].straggler, size_t(1));
    QCOMPARE(r.steps[0].delay, TimeNs(INT64_MAX));
    QCOMPARE(r.steps[0].ranks[1].causedWait, TimeNs(INT64_MAX));
    QCOMPARE(r.steps[0].ranks[0].duration, TimeNs(9223372036854775806)); // 2K
}

STRATA_TEST_GUILESS_MAIN(TstCrossRank)
#include "tst_cross_rank.moc"

// TrackLod: the per-depth pyramid (hand-computed buckets), queries in both modes (walking the
// slices below the base level, reading the pyramid above it), sub-pixel activity never lost
// (checked against a brute-force oracle), pan stability, and the counter max pyramid.
#include "model/build/trace_builder.h"
#include "model/lod_summary.h"
#include "support/test_main.h"

#include <QTest>

#include <random>

using namespace strata;

namespace {
struct S {
    TimeNs start, dur;
    const char* name;
};

std::shared_ptr<const Trace> threadTrace(const std::vector<S>& slices) {
    TraceBuilder b;
    const TrackId t = b.threadTrack(1, 1);
    for (const S& s : slices) {
        SliceInput in;
        in.start = s.start;
        in.dur = s.dur;
        in.name = b.intern(s.name);
        in.kind = SliceKind::CpuOp;
        b.addSlice(t, in);
    }
    return b.build();
}

const Track& onlyThread(const Trace& tr) {
    for (const Track& t : tr.tracks())
        if (t.kind == TrackKind::Thread) return t;
    qFatal("no thread track");
}

SliceIndex byName(const Trace& tr, const Track& t, const char* name) {
    for (SliceIndex i = 0; i < t.slices.size(); ++i)
        if (tr.str(t.slices.name[i]) == name) return i;
    return kNoSlice;
}
} // namespace

class TstTimelineLod : public QObject {
    Q_OBJECT
private slots:
    void levelFor();
    void pyramidBuckets();
    void walkQuery();
    void pyramidQuery();
    void thousandTinySlices();
    void nestedDepths();
    void neverLosesActivity_data();
    void neverLosesActivity();
    void panStable();
    void counterMax();
};

void TstTimelineLod::levelFor() {
    QCOMPARE(TrackLod::levelFor(0.3), 0);
    QCOMPARE(TrackLod::levelFor(1.0), 0);
    QCOMPARE(TrackLod::levelFor(2.0), 1);
    QCOMPARE(TrackLod::levelFor(1000.0), 9); // 512 <= 1000 < 1024
    QCOMPARE(TrackLod::levelFor(1024.0), 10);
}

// A [0,100) B [100,104) C [200,201) D [1000,1600). 4 slices -> at most 4 base buckets;
// span 1600: 1600>>9 = 3 -> 4 buckets, so base level 9 (512 ns).
void TstTimelineLod::pyramidBuckets() {
    auto tr = threadTrace({{0, 100, "A"}, {100, 4, "B"}, {200, 1, "C"}, {1000, 600, "D"}});
    const Track& t = onlyThread(*tr);
    TrackLod lod;
    lod.build(t, tr->bounds().start);
    QCOMPARE(lod.baseLevel(0), 9);
    QCOMPARE(lod.levelCount(0), 3); // 512 (4 buckets), 1024 (2), 2048 (1)
    const SliceIndex A = byName(*tr, t, "A"), D = byName(*tr, t, "D");
    // Level 9: [0,512) A..C cover 105 -> round(255*105/512)=52; [512,1024) D 24 -> 12;
    // [1024,1536) D full -> 255; [1536,2048) D 64 -> 32.
    QCOMPARE(lod.cell(0, 9, 0).longest, A);
    QCOMPARE(int(lod.cell(0, 9, 0).coverage), 52);
    QCOMPARE(lod.cell(0, 9, 1).longest, D);
    QCOMPARE(int(lod.cell(0, 9, 1).coverage), 12);
    QCOMPARE(int(lod.cell(0, 9, 2).coverage), 255);
    QCOMPARE(int(lod.cell(0, 9, 3).coverage), 32);
    // Level 10: D is longest in both; coverage (52+12+1)/2 = 32 and (255+32+1)/2 = 144.
    QCOMPARE(lod.cell(0, 10, 0).longest, D);
    QCOMPARE(int(lod.cell(0, 10, 0).coverage), 32);
    QCOMPARE(int(lod.cell(0, 10, 1).coverage), 144);
    QCOMPARE(lod.cell(0, 11, 0).longest, D);
    QCOMPARE(int(lod.cell(0, 11, 0).coverage), 88); // (32+144+1)/2
    QCOMPARE(lod.cell(0, 12, 0).longest, kNoSlice); // no such level
}

void TstTimelineLod::walkQuery() {
    auto tr = threadTrace({{0, 100, "A"}, {100, 4, "B"}, {200, 1, "C"}, {1000, 600, "D"}});
    const Track& t = onlyThread(*tr);
    TrackLod lod;
    lod.build(t, 0);
    std::vector<LodSpan> out;
    // Level 0 (1 ns buckets): A, B, D are >= 2 ns -> real; C (1 ns) -> merged bucket [200,201).
    lod.query(t, 0, 0, 2000, 0, out);
    QCOMPARE(out.size(), size_t(4));
    QVERIFY(!out[0].merged && out[0].start == 0 && out[0].end == 100);
    QVERIFY(!out[1].merged && out[1].start == 100 && out[1].end == 104);
    QVERIFY(out[2].merged && out[2].start == 200 && out[2].end == 201);
    QVERIFY(!out[3].merged && out[3].start == 1000 && out[3].end == 1600);
    // Level 5 (32 ns): A (100 >= 64) real; B -> bucket [96,128); C -> bucket [192,224); D real.
    out.clear();
    lod.query(t, 0, 0, 2000, 5, out);
    QCOMPARE(out.size(), size_t(4));
    QVERIFY(!out[0].merged && out[0].end == 100);
    QVERIFY(out[1].merged && out[1].start == 96 && out[1].end == 128);
    QCOMPARE(out[1].slice, byName(*tr, t, "B"));
    QVERIFY(out[2].merged && out[2].start == 192 && out[2].end == 224);
    QVERIFY(!out[3].merged && out[3].start == 1000);
    // A window in the middle of D returns D only.
    out.clear();
    lod.query(t, 0, 1200, 1300, 0, out);
    QCOMPARE(out.size(), size_t(1));
    QCOMPARE(out[0].slice, byName(*tr, t, "D"));
}

void TstTimelineLod::pyramidQuery() {
    auto tr = threadTrace({{0, 100, "A"}, {100, 4, "B"}, {200, 1, "C"}, {1000, 600, "D"}});
    const Track& t = onlyThread(*tr);
    TrackLod lod;
    lod.build(t, 0);
    std::vector<LodSpan> out;
    // Level 9: nothing is >= 1024 ns, all four buckets merge into one run [0,2048), longest D.
    lod.query(t, 0, 0, 2000, 9, out);
    QCOMPARE(out.size(), size_t(1));
    QVERIFY(out[0].merged);
    QCOMPARE(out[0].start, TimeNs(0));
    QCOMPARE(out[0].end, TimeNs(2048));
    QCOMPARE(out[0].slice, byName(*tr, t, "D"));
    QCOMPARE(int(out[0].coverage), 255);
}

// 1000 one-ns slices every 2 ns, seen at 100 px over [0, 2000): 20 ns/px -> level 4. One merged
// run covers them all; each 16 ns bucket is half covered (8 of 16 ns) -> coverage 128.
void TstTimelineLod::thousandTinySlices() {
    std::vector<S> s;
    for (int i = 0; i < 1000; ++i) s.push_back({2 * i, 1, "tiny"});
    auto tr = threadTrace(s);
    const Track& t = onlyThread(*tr);
    TrackLod lod;
    lod.build(t, 0);
    QCOMPARE(lod.baseLevel(0), 4); // 125 buckets of 16 ns = 1000/8
    std::vector<LodSpan> out;
    lod.query(t, 0, 0, 2000, TrackLod::levelFor(20.0), out);
    QCOMPARE(out.size(), size_t(1));
    QVERIFY(out[0].merged);
    QCOMPARE(out[0].start, TimeNs(0));
    QCOMPARE(out[0].end, TimeNs(2000));
    QCOMPARE(int(out[0].coverage), 128);
    // Finer than the base (walk): 4 ns buckets -> one run [0,2000) too.
    out.clear();
    lod.query(t, 0, 0, 2000, 2, out);
    QCOMPARE(out.size(), size_t(1));
    QCOMPARE(out[0].end, TimeNs(2000));
}

void TstTimelineLod::nestedDepths() {
    // P [0,1000) contains Q [100,200) and R [300,900), R contains X [400,401).
    auto tr = threadTrace({{0, 1000, "P"}, {100, 100, "Q"}, {300, 600, "R"}, {400, 1, "X"}});
    const Track& t = onlyThread(*tr);
    TrackLod lod;
    lod.build(t, 0);
    QCOMPARE(lod.countAt(0), 1u);
    QCOMPARE(lod.countAt(1), 2u);
    QCOMPARE(lod.countAt(2), 1u);
    QCOMPARE(lod.sliceAtDepth(1, 1), byName(*tr, t, "R"));
    QCOMPARE(lod.firstNotBefore(t, 1, 250), 1u);
    QCOMPARE(lod.firstNotBefore(t, 1, 200), 1u); // Q ends at 200: wholly before 200
    QCOMPARE(lod.firstNotBefore(t, 1, 199), 0u);
    std::vector<LodSpan> out;
    lod.query(t, 2, 0, 1000, 3, out); // X is 1 ns, at 8 ns buckets -> [400,408)
    QCOMPARE(out.size(), size_t(1));
    QVERIFY(out[0].merged && out[0].start == 400 && out[0].end == 408);
}

void TstTimelineLod::neverLosesActivity_data() {
    QTest::addColumn<int>("seed");
    QTest::addColumn<int>("level");
    for (int seed : {1, 2, 3})
        for (int level : {0, 3, 6, 9, 12, 15})
            QTest::addRow("seed%d-level%d", seed, level) << seed << level;
}

// Oracle: brute force over every bucket of the range. A bucket some slice overlaps must be
// overlapped by an output span, an output span must not invent activity more than one bucket
// away from a slice, and every slice at least two buckets long comes out as itself.
void TstTimelineLod::neverLosesActivity() {
    QFETCH(int, seed);
    QFETCH(int, level);
    std::mt19937 rng(seed);
    std::vector<S> s;
    TimeNs t = 0;
    for (int i = 0; i < 4000; ++i) {
        const int kind = rng() % 10;
        const TimeNs dur = kind < 6 ? rng() % 3 : (kind < 9 ? rng() % 200 : rng() % 20000);
        const TimeNs gap = rng() % 4 == 0 ? rng() % 5000 : rng() % 3;
        s.push_back({t, dur, kind < 6 ? "tiny" : "big"});
        t += dur + gap + (dur == 0 ? 1 : 0);
    }
    auto tr = threadTrace(s);
    const Track& tk = onlyThread(*tr);
    TrackLod lod;
    lod.build(tk, 0);
    const TimeNs q0 = t / 7, q1 = t - t / 5;
    std::vector<LodSpan> out;
    lod.query(tk, 0, q0, q1, level, out);
    const TimeNs B = TimeNs(1) << level;
    const auto& c = tk.slices;
    for (SliceIndex i = 0; i < c.size(); ++i) {
        const TimeNs a = c.start[i], e = std::max(c.end(i), a + 1);
        if (e <= q0 || a >= q1) continue;
        bool found = false;
        const TimeNs pa = std::max(a, q0), pe = std::min(e, q1);
        for (const LodSpan& sp : out)
            if (sp.start < pe + B && std::max(sp.end, sp.start + 1) > pa - B) found = true;
        if (!found) QFAIL(qPrintable(QStringLiteral("slice %1 [%2,%3) lost").arg(i).arg(a).arg(e)));
        if (c.dur[i] >= 2 * B) {
            bool real = false;
            for (const LodSpan& sp : out) real |= !sp.merged && sp.slice == i;
            if (!real)
                QFAIL(qPrintable(QStringLiteral("wide slice %1 not drawn as itself").arg(i)));
        }
    }
    for (size_t k = 1; k < out.size(); ++k) QVERIFY(out[k].start >= out[k - 1].start - 2 * B);
    for (const LodSpan& sp : out) {
        // Some slice lies within one bucket of every span.
        bool backed = false;
        for (SliceIndex i = 0; i < c.size() && !backed; ++i)
            backed = c.start[i] < sp.end + B && std::max(c.end(i), c.start[i] + 1) > sp.start - B;
        QVERIFY(backed);
    }
}

// Merged runs are aligned to absolute time: the same runs come back when the window moves.
void TstTimelineLod::panStable() {
    std::vector<S> s;
    for (int i = 0; i < 5000; ++i) s.push_back({TimeNs(i) * 37, 3, "tiny"});
    auto tr = threadTrace(s);
    const Track& t = onlyThread(*tr);
    TrackLod lod;
    lod.build(t, 0);
    for (int level : {2, 4, 5}) {
        std::vector<LodSpan> a, b;
        lod.query(t, 0, 10000, 90000, level, a);
        lod.query(t, 0, 10000 + 12345, 90000 + 12345, level, b);
        // Runs fully inside both windows are identical.
        auto inside = [](const std::vector<LodSpan>& v) {
            std::vector<std::pair<TimeNs, TimeNs>> r;
            for (const LodSpan& sp : v)
                if (sp.start >= 30000 && sp.end <= 80000) r.push_back({sp.start, sp.end});
            return r;
        };
        QCOMPARE(inside(a), inside(b));
        QVERIFY(!inside(a).empty());
    }
}

void TstTimelineLod::counterMax() {
    TraceBuilder b;
    const TrackId c = b.counterTrack(1, b.intern("mem"));
    b.addCounter(c, 0, 1);
    b.addCounter(c, 10, 5);
    b.addCounter(c, 20, 2);
    b.addCounter(c, 100, 3);
    auto tr = b.build();
    const Track* t = nullptr;
    for (const Track& k : tr->tracks())
        if (k.kind == TrackKind::Counter) t = &k;
    QVERIFY(t);
    TrackLod lod;
    lod.build(*t, 0);
    std::vector<LodCounterCell> out;
    lod.queryCounter(*t, 0, 200, 0, out);
    QCOMPARE(out.size(), size_t(4));
    QCOMPARE(out[0].end, TimeNs(10));
    QCOMPARE(out[1].max, 5.0);
    QCOMPARE(out[2].start, TimeNs(20));
    QCOMPARE(out[2].end, TimeNs(100));
    QCOMPARE(out[3].max, 3.0);
    out.clear();
    lod.queryCounter(*t, 0, 200, 10, out); // one 1024 ns bucket: max 5
    QCOMPARE(out.size(), size_t(1));
    QCOMPARE(out[0].max, 5.0);
    out.clear();
    lod.queryCounter(*t, 0, 200, 4, out); // 16 ns buckets over [0,101): [0,16) max(1,5)
    QVERIFY(!out.empty());
    QCOMPARE(out[0].start, TimeNs(0));
    QCOMPARE(out[0].max, 5.0);
}

STRATA_TEST_GUILESS_MAIN(TstTimelineLod)
#include "tst_timeline_lod.moc"

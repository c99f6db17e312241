// Folded levels (issue 28, widgets/timeline/level_folds): the depth <-> level arithmetic of a
// lane with folds, and which runs of depths hold one slice each across a visible range, on a
// hand-made thread whose answers are worked out below.
#include "support/test_main.h"
#include "timeline/layout/level_folds.h"

#include "model/build/trace_builder.h"

#include <QTest>

using namespace strata;

namespace {

// A thread (times in ns):            depth
//   A [0, 100)                          0
//     B [0, 100)                        1
//       C [10, 90)                      2
//         D [10, 20)   E [30, 40)       3
//           F [12, 14)                  4
std::shared_ptr<const Trace> stack() {
    TraceBuilder b;
    const TrackId t = b.threadTrack(1, 1);
    auto add = [&](const char* name, TimeNs s, TimeNs d) {
        SliceInput in;
        in.start = s;
        in.dur = d;
        in.name = b.intern(name);
        b.addSlice(t, in);
    };
    add("A", 0, 100);
    add("B", 0, 99); // shorter than A: nests under it
    add("C", 10, 80);
    add("D", 10, 10);
    add("E", 30, 10);
    add("F", 12, 2);
    return b.build();
}

} // namespace

class TestLevelFolds : public QObject {
    Q_OBJECT
private slots:
    void levelsOfAFoldedLane() {
        // 20 depths; depths 0-7 fold into level 0, 12-14 into level 5: 20 - 7 - 2 = 11 levels.
        const LaneFolds f{{0, 8}, {12, 3}};
        QCOMPARE(foldedLevelCount(20, f), 11);
        const std::vector<std::pair<int, int>> depthLevel{{0, 0},  {7, 0},  {8, 1},  {11, 4},
                                                          {12, 5}, {14, 5}, {15, 6}, {19, 10}};
        for (const auto& [depth, level] : depthLevel) QCOMPARE(levelOfDepth(depth, f), level);
        QCOMPARE(depthsOfLevel(0, f), (DepthFold{0, 8}));
        QCOMPARE(depthsOfLevel(1, f), (DepthFold{8, 1}));
        QCOMPARE(depthsOfLevel(4, f), (DepthFold{11, 1}));
        QCOMPARE(depthsOfLevel(5, f), (DepthFold{12, 3}));
        QCOMPARE(depthsOfLevel(6, f), (DepthFold{15, 1}));
        QCOMPARE(depthsOfLevel(10, f), (DepthFold{19, 1}));
        // No folds: the identity.
        QCOMPARE(levelOfDepth(5, {}), 5);
        QCOMPARE(depthsOfLevel(5, {}), (DepthFold{5, 1}));
    }

    void runsFollowTheVisibleRange() {
        const auto trace = stack();
        const Track& t = trace->track(0);
        QCOMPARE(t.maxDepth, uint16_t(5));
        TrackLod lod;
        lod.build(t, 0);
        // [0, 100): A, B, C alone at their depths; D and E share depth 3; F alone at depth 4
        // but a run of one is no fold.
        QCOMPARE(singleSliceRuns(t, lod, 0, 100), (LaneFolds{{0, 3}}));
        // [10, 20): every depth holds one slice (E starts at 30).
        QCOMPARE(singleSliceRuns(t, lod, 10, 20), (LaneFolds{{0, 5}}));
        // [25, 45): A, B, C, E; nothing at depth 4.
        QCOMPARE(singleSliceRuns(t, lod, 25, 45), (LaneFolds{{0, 4}}));
        // [15, 35): D and E at depth 3 again: A, B, C fold; F alone below D.
        QCOMPARE(singleSliceRuns(t, lod, 15, 35), (LaneFolds{{0, 3}}));
        // Past the slices: nothing to fold.
        QCOMPARE(singleSliceRuns(t, lod, 200, 300), LaneFolds{});
    }
};

STRATA_TEST_GUILESS_MAIN(TestLevelFolds)
#include "tst_level_folds.moc"

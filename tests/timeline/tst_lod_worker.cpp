// The timeline's level-of-detail summaries never keep the GUI thread waiting (issue 49): a frame
// summarises small tracks itself within a budget of slices and asks the worker for the rest,
// which builds the tracks asked for first and says when; until then the track is drawn hatched
// ("summarising N slices…") and nothing in it can be hit; the picture then equals one whose
// summaries were all built beforehand.
#include "support/pool_hold.h"
#include "support/test_main.h"
#include "timeline/lod/lod_cache.h"
#include "timeline_view_fixture.h"
#include "workspace/job_runner.h"

#include <atomic>

using namespace strata;
using namespace strata::test;

namespace {

// One thread with `n` slices of 100 ns every 200 ns, named "op".
std::shared_ptr<const Trace> oneTrack(int n, TraceBuilder& b, TrackId* track) {
    *track = b.threadTrack(1, 1);
    for (int i = 0; i < n; ++i) add(b, *track, TimeNs(i) * 200, 100, "op", SliceKind::CpuOp);
    return b.build();
}

// Tracks of 150,000, 150,000 and 10 slices.
std::shared_ptr<const Trace> threeTracks() {
    TraceBuilder b;
    const TrackId a = b.threadTrack(1, 1), c = b.threadTrack(1, 2), d = b.threadTrack(1, 3);
    for (int i = 0; i < 150'000; ++i) {
        add(b, a, TimeNs(i) * 200, 100, "a", SliceKind::CpuOp);
        add(b, c, TimeNs(i) * 200, 100, "c", SliceKind::CpuOp);
    }
    for (int i = 0; i < 10; ++i) add(b, d, TimeNs(i) * 200, 100, "d", SliceKind::CpuOp);
    return b.build();
}

QImage areaImage(TimelineView& view) {
    QImage img(view.tracksArea()->size(), QImage::Format_ARGB32_Premultiplied);
    view.tracksArea()->render(&img);
    return img;
}

} // namespace

class TstLodWorker : public QObject {
    Q_OBJECT
private slots:
    void frameBudgetThenWorker() {
        const auto tr = threeTracks();
        LodCache lods;
        lods.reset(tr);
        // 150,000 + 150,000 > 200,000: the second big track waits for the worker, the small one
        // still fits.
        lods.beginFrame();
        QVERIFY(lods.inlineOrRequest(0) != nullptr);
        QVERIFY(lods.inlineOrRequest(1) == nullptr);
        QVERIFY(lods.inlineOrRequest(2) != nullptr);
        QVERIFY(lods.requestsPending());
        QVERIFY(lods.find(1) == nullptr);
        // A new frame has the whole budget again.
        LodCache again;
        again.reset(tr);
        again.inlineOrRequest(0);
        again.beginFrame();
        QVERIFY(again.inlineOrRequest(1) != nullptr);
        // The worker builds the track asked for and says so.
        std::atomic<int> told{0};
        lods.setOnBuilt([&told] { ++told; });
        lods.prebuildInBackground();
        QTRY_VERIFY(lods.find(1) != nullptr);
        QTRY_COMPARE(told.load(), 1);
        QVERIFY(!lods.requestsPending());
        QCOMPARE(lods.find(1)->countAt(0), uint32_t(150'000));
    }

    void waitForRequestedBuildsThem() {
        const auto tr = threeTracks();
        LodCache lods;
        lods.reset(tr);
        lods.beginFrame();
        lods.inlineOrRequest(0);
        QVERIFY(lods.inlineOrRequest(1) == nullptr);
        lods.waitForRequested(); // no worker started: built here
        QVERIFY(lods.find(1) != nullptr);
        QVERIFY(!lods.requestsPending());
    }

    void hatchedUntilTheSummaryArrives() {
        TraceBuilder b;
        TrackId t;
        const auto tr = oneTrack(250'000, b, &t); // over a frame's budget
        QImage whole;
        {
            TimelineView built;
            built.resize(1230, 300);
            built.setTrace(tr);
            built.buildLevelOfDetail();
            built.show();
            QVERIFY(QTest::qWaitForWindowExposed(&built));
            whole = areaImage(built);
        }
        // The job pool's two threads held: the worker cannot start.
        PoolHold hold;
        TimelineView view;
        view.resize(1230, 300);
        view.setTrace(tr);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QImage pending = areaImage(view);
        QCOMPARE(pending.size(), whole.size());
        QVERIFY(pending != whole);
        QVERIFY(!view.pictureComplete());
        const int y = 22 + 9; // the thread's first depth (timeline_view_fixture.h)
        QVERIFY(!view.sliceAtPixel(QPoint(pending.width() / 2, y)).valid());
        hold.release();
        QTRY_VERIFY(view.pictureComplete());
        QTRY_COMPARE(areaImage(view), whole);
        QVERIFY(view.sliceAtPixel(QPoint(pending.width() / 2, y)).valid());
    }
};

STRATA_TEST_MAIN(TstLodWorker)
#include "tst_lod_worker.moc"

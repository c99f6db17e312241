// A counter's samples that are not finite (issue 42): the timeline's scale is the largest finite
// sample and a NaN or infinite one has no bar (timeline/counter_scale.h), whatever the model
// holds (the readers skip such samples; a model built by hand may still have them). Checked on
// the functions, then on the drawn row of a TimelineView on the offscreen platform.
//
// The drawn trace (ns): a thread slice [0, 70000) and counter "c" (pid 1) with samples
//   ts      0  10000  20000  30000  40000  50000  60000
//   value   2    NaN   +inf      4   -inf      1      0
// each held until the next (the last, 0, is drawn as nothing). Scale: 4 (the largest finite
// value). The row's bars are kCounterHeight - 2 = 34 px at full scale:
// 2 -> 17 px, 4 -> 34 px, 1 -> 8.5 -> 9 px (rounded half away from zero), the others none.
#include "support/test_main.h"
#include "timeline/layout/track_layout.h"
#include "timeline/paint/counter_scale.h"
#include "timeline/timeline_view.h"

#include "model/build/trace_builder.h"
#include "style/slice_palette.h"

#include <QImage>
#include <QTest>

#include <cmath>
#include <limits>
#include <vector>

using namespace strata;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::shared_ptr<const Trace> counterTrace(TrackId* counter) {
    TraceBuilder b;
    b.setProcessName(1, b.intern("proc"));
    SliceInput s;
    s.start = 0;
    s.dur = 70000;
    s.name = b.intern("work");
    s.kind = SliceKind::CpuOp;
    b.addSlice(b.threadTrack(1, 1), s);
    const TrackId c = b.counterTrack(1, b.intern("c"));
    const double values[] = {2, kNaN, kInf, 4, -kInf, 1, 0};
    for (int i = 0; i < 7; ++i) b.addCounter(c, TimeNs(10000) * i, values[i]);
    *counter = c;
    return b.build();
}

} // namespace

class TestCounterPainting : public QObject {
    Q_OBJECT
private slots:
    void scaleIsTheLargestFiniteValue() {
        using V = std::vector<double>;
        QCOMPARE(counterScaleMax(V{2, kNaN, kInf, 4, -kInf, 1}), 4.0);
        QCOMPARE(counterScaleMax(V{kNaN, kInf, -kInf}), 0.0);
        QCOMPARE(counterScaleMax(V{}), 0.0);
        QCOMPARE(counterScaleMax(V{-3, -1}), 0.0); // bars grow from 0: nothing above it
        QCOMPARE(counterScaleMax(V{kInf, 1e300}), 1e300);
    }

    void barHeights_data() {
        QTest::addColumn<double>("value");
        QTest::addColumn<double>("scale");
        QTest::addColumn<int>("height");
        QTest::newRow("half") << 2.0 << 4.0 << 17;
        QTest::newRow("full") << 4.0 << 4.0 << 34;
        QTest::newRow("tiny is one pixel") << 0.001 << 4.0 << 1;
        QTest::newRow("past the scale is full") << 8.0 << 4.0 << 34;
        QTest::newRow("zero") << 0.0 << 4.0 << 0;
        QTest::newRow("negative") << -1.0 << 4.0 << 0;
        QTest::newRow("NaN") << kNaN << 4.0 << 0;
        QTest::newRow("+inf") << kInf << 4.0 << 0;
        QTest::newRow("-inf") << -kInf << 4.0 << 0;
        QTest::newRow("scale NaN") << 2.0 << kNaN << 0;
        QTest::newRow("scale inf") << 2.0 << kInf << 0;
        QTest::newRow("scale zero") << 2.0 << 0.0 << 0;
    }
    void barHeights() {
        QFETCH(double, value);
        QFETCH(double, scale);
        QFETCH(int, height);
        QCOMPARE(counterBarHeight(value, scale, 34), height);
    }

    // The row as drawn: in the middle of each sample's span, the height of the bar (pixels of
    // the counter's colour in that column of the row).
    void drawnRow() {
        TrackId counter = 0;
        const std::shared_ptr<const Trace> trace = counterTrace(&counter);
        TimelineView view;
        view.resize(1230, 600);
        view.setTrace(trace);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QRect row = view.trackRect(counter);
        QVERIFY(!row.isNull());
        QImage img(view.tracksArea()->size(), QImage::Format_ARGB32_Premultiplied);
        view.tracksArea()->render(&img);
        const QRgb col = sliceColor("c", SliceKind::Generic);
        const int width = view.tracksArea()->width();
        const int expected[] = {17, 0, 0, 34, 0, 9};
        for (int i = 0; i < 6; ++i) {
            const int x = int((10000.0 * i + 5000) * width / 70000.0); // bounds [0, 70000)
            int bar = 0;
            for (int y = row.top(); y <= row.bottom(); ++y) bar += img.pixel(x, y) == col;
            QVERIFY2(
                bar == expected[i],
                qPrintable(
                    QStringLiteral("sample %1: %2 px, not %3").arg(i).arg(bar).arg(expected[i])));
        }
    }
};

STRATA_TEST_MAIN(TestCounterPainting)
#include "tst_counter_painting.moc"

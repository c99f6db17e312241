// Sampled stacks on the timeline (issue 45): a lane under each thread with samples, a row of the
// lane alone for a thread with samples and no slices, nothing for a thread without samples; a
// sample's hover text is its stack, innermost first; its tick has the colour a slice of its
// innermost frame's name gets.
//
// The trace: the hand-drawn stacks of tests/support/stack_samples_fixture.h (threads (10, 11),
// (10, 12), (20, 21); python_sample_hz 1000: a sample stands for 1 ms, longer than this view),
// plus slices (times in ns):
//   (10, 11) "worker" : "step" [500, 5000)                  one level: slices and a sample lane
//   (10, 13) "idle"   : "lib/a.py(10): a" [3000, 4000)      one level, no samples: no lane
//   (10, 12) and (20, 21): samples only                      a row of the lane alone
// Bounds [500, 5000). No GPU, so the layout (track_layout.h: header 22, level 18, pad 3, sample
// lane 10 under slices, 16 in a row of its own) is, top to bottom:
//   y 0   header "process 10"
//   y 22  worker 11: levels 22..40, lane 40..50, height 18 + 10 + 3 = 31
//   y 53  Thread 12: lane 53..69, height 16 + 3 = 19
//   y 72  idle 13: height 18 + 3 = 21, no lane
//   y 93  header "process 20"
//   y 115 Thread 21: lane 115..131, height 19
#include "model/build/trace_builder.h"
#include "model/names/time_text.h"
#include "panels/details_panel.h"
#include "support/stack_samples_fixture.h"
#include "support/test_main.h"
#include "timeline/layout/track_layout.h"
#include "timeline/timeline_view.h"
#include "workspace/navigation.h"
#include "workspace/workspace.h"

#include <QImage>
#include <QSignalSpy>
#include <QTreeWidget>
#include <QtTest>

using namespace strata;

namespace {

std::shared_ptr<const Trace> sampledTrace() {
    TraceBuilder b;
    test::StackFixture::build(b);
    b.setThreadName(10, 11, b.intern("worker"));
    b.setThreadName(10, 13, b.intern("idle"));
    auto slice = [&](int64_t tid, TimeNs start, TimeNs dur, const char* name) {
        SliceInput in;
        in.start = start;
        in.dur = dur;
        in.name = b.intern(name);
        in.kind = SliceKind::PythonFunction;
        b.addSlice(b.threadTrack(10, tid), in);
    };
    slice(11, 500, 4500, "step");
    slice(13, 3000, 1000, test::StackFixture::kA);
    return b.build();
}

} // namespace

class TestSampleLanes : public QObject {
    Q_OBJECT

    std::shared_ptr<const Trace> trace_ = sampledTrace();

    int rowOf(const TrackLayout& l, int64_t pid, int64_t tid) const {
        const auto& threads = trace_->stackSamples().threads;
        for (size_t i = 0; i < l.rows().size(); ++i) {
            const TrackRow& r = l.rows()[i];
            if (!r.lanes.empty()) {
                const Track& t = trace_->track(r.lanes.front());
                if (r.thread && t.pid == pid && t.tid == tid) return int(i);
            } else if (r.sampleThread >= 0 && threads[size_t(r.sampleThread)].pid == pid &&
                       threads[size_t(r.sampleThread)].tid == tid) {
                return int(i);
            }
        }
        return -1;
    }

    // The view of the trace, shown: false if it never was.
    bool shown(TimelineView& view) const {
        view.resize(1230, 400);
        view.setGpuSectionFirst(false);
        view.setTrace(trace_);
        view.show();
        return QTest::qWaitForWindowExposed(&view);
    }
    // Thread 13's slice "lib/a.py(10): a" [3000, 4000), and the worker's (10, 11) sample lane
    // at its middle.
    SliceRef sliceA(const TimelineView& view) const {
        const TrackLayout& l = view.layout();
        return {l.rows()[size_t(rowOf(l, 10, 13))].lanes.front(), 0};
    }
    QPoint workerTickUnderA(const TimelineView& view) const {
        const TrackLayout& l = view.layout();
        const int laneY = l.samplesY(rowOf(l, 10, 11)) - view.verticalScroll();
        return {view.sliceRect(sliceA(view)).center().x(), laneY + TrackLayout::kSampleHeight / 2};
    }

private slots:
    void layoutHasLanesForSampledThreadsOnly() {
        TrackLayout l;
        l.setGpuFirst(false);
        l.build(*trace_);
        QCOMPARE(int(l.groups().size()), 2);
        const int worker = rowOf(l, 10, 11), t12 = rowOf(l, 10, 12), idle = rowOf(l, 10, 13),
                  t21 = rowOf(l, 20, 21);
        QVERIFY(worker >= 0 && t12 >= 0 && idle >= 0 && t21 >= 0);
        const auto& rows = l.rows();
        // A thread with slices and samples: its levels, then the lane.
        QCOMPARE(rows[size_t(worker)].kind, TrackRow::Kind::Slices);
        QCOMPARE(rows[size_t(worker)].y, 22);
        QCOMPARE(rows[size_t(worker)].height, 31);
        int laneHeight = 0;
        QCOMPARE(l.samplesY(worker, &laneHeight), 40);
        QCOMPARE(laneHeight, 10);
        // Samples alone: a row of the lane, named as its thread would be.
        QCOMPARE(rows[size_t(t12)].kind, TrackRow::Kind::Samples);
        QCOMPARE(rows[size_t(t12)].y, 53);
        QCOMPARE(rows[size_t(t12)].height, 19);
        int height = 0;
        QCOMPARE(l.samplesY(t12, &height), 53);
        QCOMPARE(height, 16);
        QCOMPARE(rows[size_t(t12)].label, QStringLiteral("Thread 12"));
        // No samples: no lane.
        QCOMPARE(rows[size_t(idle)].kind, TrackRow::Kind::Slices);
        QCOMPARE(rows[size_t(idle)].y, 72);
        QCOMPARE(rows[size_t(idle)].height, 21);
        QCOMPARE(rows[size_t(idle)].sampleThread, -1);
        QCOMPARE(l.samplesY(idle), -1);
        QCOMPARE(rows[size_t(t21)].kind, TrackRow::Kind::Samples);
        QCOMPARE(rows[size_t(t21)].y, 115);
        QCOMPARE(l.samplesY(t21), 115);
        QCOMPARE(l.contentHeight(), 134);
        // A collapsed group hides its lanes.
        l.setCollapsed(rows[size_t(t21)].group, true);
        QCOMPARE(l.samplesY(t21), -1);
    }

    void traceWithoutSamplesHasNoLane() {
        TraceBuilder b;
        SliceInput in;
        in.start = 0;
        in.dur = 10;
        in.name = b.intern("x");
        b.addSlice(b.threadTrack(1, 2), in);
        TrackLayout l;
        l.build(*b.build());
        for (int i = 0; i < int(l.rows().size()); ++i) {
            QCOMPARE(l.rows()[size_t(i)].sampleThread, -1);
            QCOMPARE(l.samplesY(i), -1);
        }
    }

    void hoverShowsTheStackAndTickHasTheFramesColour() {
        TimelineView view;
        QVERIFY(shown(view));
        const TrackLayout& l = view.layout();
        const int laneY = l.samplesY(rowOf(l, 10, 11)) - view.verticalScroll();
        // The slice "lib/a.py(10): a" [3000, 4000) on thread 13: at its middle (t 3500) the
        // worker's last sample is the one at 3000, stack main > a > b > a (callsite 4).
        const QRect ar = view.sliceRect(sliceA(view));
        QVERIFY(!ar.isNull());
        const QPoint at = workerTickUnderA(view);
        QCOMPARE(view.sampleTextAt(at),
                 QStringLiteral("python sample at %1\nlib/a.py:10 a\nlib/b.py:20 b\n"
                                "lib/a.py:10 a\nmain.py:1 main")
                     .arg(QString::fromStdString(formatPreciseDuration(3000 - 500))));
        // Above the lane (the worker's slice) and in the row of thread 13: no sample.
        QVERIFY(view.sampleTextAt({at.x(), laneY - 3}).isEmpty());
        QVERIFY(view.sampleTextAt({at.x(), ar.y() + 2}).isEmpty());
        // Thread 12 at t 3500: its sample at 3500 (callsite 1, main alone).
        const int t12Y = l.samplesY(rowOf(l, 10, 12)) - view.verticalScroll();
        QCOMPARE(view.sampleTextAt({ar.center().x(), t12Y + 5}).section('\n', 1),
                 QStringLiteral("main.py:1 main"));
        // The tick has the colour of a slice of its innermost frame's name (the one of thread 13).
        QImage img(view.tracksArea()->size(), QImage::Format_ARGB32_Premultiplied);
        view.tracksArea()->render(&img);
        const QRgb sliceColour = img.pixel(ar.x() + 2, ar.y() + 2);
        QCOMPARE(img.pixel(at), sliceColour);
    }

    // A click on a tick selects that sample: Details shows its thread, time, kind and stack.
    void clickShowsTheSampleInDetails() {
        TimelineView view;
        QVERIFY(shown(view));
        const QPoint at = workerTickUnderA(view);
        QSignalSpy spy(&view, &TimelineView::sampleSelected);
        QTest::mouseClick(view.tracksArea(), Qt::LeftButton, {}, at);
        // Thread (10, 11) is the first sampled thread; its samples by time 1000, 2000, 3000,
        // 4000: the one at 3000 is its third.
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.front().at(0).toInt(), 0);
        QCOMPARE(spy.front().at(1).toULongLong(), 2ull);

        Workspace ws;
        Navigation nav(&ws);
        DetailsPanel details(&ws, &nav);
        ws.showTrace(trace_, "samples");
        details.showSample(0, 2);
        QCOMPARE(details.value("Kind"), QStringLiteral("python"));
        QCOMPARE(details.value("Time"), QString::fromStdString(formatPreciseDuration(3000 - 500)));
        QCOMPARE(details.value("0", "Stack (innermost first)"), QStringLiteral("lib/a.py:10 a"));
        QCOMPARE(details.value("3", "Stack (innermost first)"), QStringLiteral("main.py:1 main"));
        QVERIFY(details.value("Thread").contains("11"));
    }
};

STRATA_TEST_MAIN(TestSampleLanes)
#include "tst_sample_lanes.moc"

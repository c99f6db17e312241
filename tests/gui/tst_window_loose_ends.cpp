// The window's loose ends of issue 44, through the real widgets on the offscreen platform:
// - "Shift the GPU by …": the whole-trace view follows the shifted extent, the status bar says
//   "GPU shifted by −150.0 ms" with Undo, and Undo puts every GPU op back;
// - the GPU's group header shows the device's whole name ("GPU 0 (NVIDIA H100 80GB HBM3)");
// - the Gaps dock's cause captions never overprint each other (1600 px wide, and narrow);
// - the Memory row's peak label never covers the row's legend.
#include "analysis/gaps/gap_causes.h"
#include "analysis_views/clock_notice.h"
#include "analysis_views/gaps_panel.h"
#include "style/gap_style.h"
#include "support/analysis_trace_fixture.h"
#include "support/main_window_fixture.h"
#include "support/test_files.h"
#include "support/test_main.h"
#include "timeline/group_label_fit.h"
#include "timeline/layout/track_layout.h"
#include "timeline/paint/memory_rows.h"
#include "timeline/track_tree_widget.h"
#include "window/dock_policy.h"
#include "workspace/analyses.h"

#include <qcustomplot.h>

#include <QDockWidget>

using strata::test::GpuTraceFixture;

namespace {

// Five launches of 5'000 at i ms on an idle GPU, kernel i (100'000 long) starting 150 ms +
// 10'000 i after its call returned (tst_gaps_view's clockNoticeOffersTheShift): the GPU clock is
// 150 ms ahead. The trace ends with kernel 4 at 4'005'000 + 150'000'000 + 40'000 + 100'000.
std::shared_ptr<const Trace> offsetTrace() {
    GpuTraceFixture f;
    for (int i = 0; i < 5; ++i) {
        const TimeNs call = 1'000'000 * TimeNs(i);
        f.launch(call, 5'000, 1 + i);
        f.kernel(0, 7, call + 5'000 + 150'000'000 + 10'000 * i, 100'000, "k", 1 + i);
    }
    return f.build();
}

TimeNs firstKernelStart(const Trace& t) {
    for (const Track& tr : t.tracks())
        if (tr.kind == TrackKind::GpuStream) return tr.slices.start[0];
    return -1;
}

// One kernel on GPU 0 and PyTorch [memory] events: 1 GiB allocated at 1 us (the peak, at the
// trace's left edge), freed at 2 us, 2 GiB reserved throughout.
std::string memoryAtTheStart() {
    auto memory = [](int ts, long long bytes, long long total) {
        return "{\"ph\":\"i\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":1,\"tid\":1,\"ts\":" +
               std::to_string(ts) +
               ",\"args\":{\"Device Type\":1,\"Device Id\":0,\"Addr\":4096,\"Bytes\":" +
               std::to_string(bytes) + ",\"Total Allocated\":" + std::to_string(total) +
               ",\"Total Reserved\":2147483648}}";
    };
    return "{\"traceEvents\":["
           "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::empty\",\"pid\":1,\"tid\":1,"
           "\"ts\":0,\"dur\":10},"
           "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,"
           "\"tid\":1,\"ts\":20,\"dur\":5,\"args\":{\"correlation\":1}},"
           "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":30,"
           "\"dur\":1000,\"args\":{\"device\":0,\"stream\":7,\"correlation\":1}}," +
           memory(1, 1073741824LL, 1073741824LL) + "," + memory(2, -1073741824LL, 0) + "]}";
}

bool peakRed(QRgb c) {
    return qRed(c) > 150 && qGreen(c) < 110 && qBlue(c) < 110;
}

// The cause chart's captions, as pixel spans along its axis: [left, right] of each.
std::vector<std::pair<double, double>> captionSpans(QCustomPlot* plot, QStringList* texts) {
    auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(plot->xAxis->ticker());
    std::vector<std::pair<double, double>> spans;
    if (!ticker) return spans;
    const QFontMetrics fm(plot->xAxis->tickLabelFont());
    for (auto it = ticker->ticks().cbegin(); it != ticker->ticks().cend(); ++it) {
        int widest = 0;
        for (const QString& line : it.value().split(QLatin1Char('\n')))
            widest = std::max(widest, fm.horizontalAdvance(line));
        const double x = plot->xAxis->coordToPixel(it.key());
        spans.emplace_back(x - widest / 2.0, x + widest / 2.0);
        *texts << it.value();
    }
    return spans;
}

} // namespace

class TestWindowLooseEnds : public QObject {
    Q_OBJECT

    // The Gaps dock's captions at the chart's present width: one per cause, apart.
    void checkCaptions(GapsPanel* gaps, bool whole) {
        gaps->causeChart()->replot();
        QApplication::processEvents(); // the captions fitted to the laid-out width
        gaps->causeChart()->replot();
        QStringList texts;
        const auto spans = captionSpans(gaps->causeChart(), &texts);
        QCOMPARE(int(spans.size()), kGapCauseCount);
        for (size_t i = 0; i + 1 < spans.size(); ++i)
            QVERIFY2(spans[i].second + 2 < spans[i + 1].first,
                     qPrintable(QStringLiteral("'%1' meets '%2' at %3 px wide")
                                    .arg(texts[qsizetype(i)], texts[qsizetype(i + 1)])
                                    .arg(gaps->causeChart()->width())));
        for (int c = 0; c < kGapCauseCount && whole; ++c)
            QVERIFY2(QString(texts[c])
                         .replace(QLatin1Char('\n'), QLatin1Char(' '))
                         .startsWith(gapCauseText(GapCause(c)) + QLatin1Char(' ')),
                     qPrintable(texts[c]));
    }

private slots:
    void initTestCase() { initMainWindowTests(); }

    void gpuShiftMovesTheExtentSaysSoAndUndoes() {
        MainWindow w(testOptions());
        w.workspace()->analyses()->setGapThreshold(10'000);
        w.workspace()->showTrace(offsetTrace(), QStringLiteral("offset"));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* notice = w.findChild<ClockNotice*>();
        auto* apply = notice->findChild<QToolButton*>(QStringLiteral("shiftGpu"));
        auto* undo = notice->findChild<QToolButton*>(QStringLiteral("undoGpuShift"));
        auto* said = notice->findChild<QLabel*>(QStringLiteral("gpuShiftNotice"));
        QVERIFY(apply && undo && said);
        notice->waitForJobs();
        const TimeRange recorded{0, 154'145'000};
        QCOMPARE(w.navigation()->bounds(), recorded);
        QVERIFY(apply->isVisible() && !undo->isVisible() && !said->isVisible());
        QCOMPARE(notice->shiftText(), QString());

        QTest::mouseClick(apply, Qt::LeftButton);
        notice->waitForJobs();
        QCOMPARE(notice->appliedShift(), TimeNs(-150'000'000));
        QCOMPARE(firstKernelStart(*w.trace()), TimeNs(5'000));
        // The whole trace is what it holds now: kernel 4 ends at 4'045'000 + 100'000.
        const TimeRange shifted{0, 4'145'000};
        QCOMPARE(w.navigation()->bounds(), shifted);
        QCOMPARE(w.timeline()->visibleRange(), shifted);
        w.timeline()->zoomStep(true);
        w.timeline()->zoomToAll();
        QCOMPARE(w.timeline()->visibleRange(), shifted);
        // Said on screen, with its Undo; the clock warning is gone (the clocks agree now).
        QCOMPARE(notice->shiftText(), QStringLiteral("GPU shifted by \u2212150.0 ms"));
        QCOMPARE(said->text(), notice->shiftText());
        QVERIFY(notice->isVisible() && said->isVisible() && undo->isVisible());
        QVERIFY(!apply->isVisible());
        QCOMPARE(notice->text(), QString());

        QTest::mouseClick(undo, Qt::LeftButton);
        notice->waitForJobs();
        QCOMPARE(notice->appliedShift(), TimeNs(0));
        QCOMPARE(notice->shiftText(), QString());
        QVERIFY(!said->isVisible() && !undo->isVisible());
        QCOMPARE(firstKernelStart(*w.trace()), TimeNs(150'005'000));
        QCOMPARE(w.navigation()->bounds(), recorded);
        QCOMPARE(w.timeline()->visibleRange(), recorded);
        QVERIFY2(notice->text().startsWith(QStringLiteral("⚠ GPU clock 150.0 ms ahead")),
                 qPrintable(notice->text())); // offered again
        QVERIFY(apply->isVisible());

        // Another trace shown was never shifted: the notice forgets the shift.
        QTest::mouseClick(apply, Qt::LeftButton);
        notice->waitForJobs();
        QVERIFY(!notice->shiftText().isEmpty());
        w.workspace()->showTrace(offsetTrace(), QStringLiteral("again"));
        notice->waitForJobs();
        QCOMPARE(notice->appliedShift(), TimeNs(0));
        QVERIFY(!said->isVisible() && !undo->isVisible());
    }

    void theGpuHeaderShowsTheWholeDeviceName() {
        MainWindow w(testOptions());
        w.resize(1600, 1000);
        QVERIFY(w.openSync(OpenRequest::trace(kSample)));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* tree = w.timeline()->findChild<TrackTreeWidget*>();
        const auto& groups = w.timeline()->layout().groups();
        int gpu = -1;
        for (size_t g = 0; g < groups.size(); ++g)
            if (groups[g].gpu) gpu = int(g);
        QVERIFY(gpu >= 0);
        QCOMPARE(groups[size_t(gpu)].label, QStringLiteral("GPU 0 (NVIDIA H100 80GB HBM3)"));
        const FittedGroupLabel shown = tree->fittedGroupLabel(gpu);
        QCOMPARE(shown.text(), QStringLiteral("GPU 0 (NVIDIA H100 80GB HBM3)"));
        QVERIFY2(shown.width() <= tree->width() - 26, qPrintable(QString::number(shown.width())));

        // A rank's device: "GPU 3" stays bold and whole, the model's name whole after it.
        QFont bold = tree->font();
        bold.setBold(true);
        const QString rank = QStringLiteral("rank 1: GPU 3 (NVIDIA H100 80GB HBM3)");
        const FittedGroupLabel r = fitGroupLabel(rank, bold, tree->width() - 26);
        QVERIFY2(r.width() <= tree->width() - 26, qPrintable(r.text()));
        QCOMPARE(r.head, QStringLiteral("rank 1: GPU 3"));
        QVERIFY(r.headFont.bold());
        QVERIFY2(r.tail == QStringLiteral(" (NVIDIA H100 80GB HBM3)") ||
                     r.tail == QStringLiteral(" (H100 80GB HBM3)"),
                 qPrintable(r.tail));
        // Longer still: the middle of the name goes, both its ends stay, "GPU 3" whole.
        const FittedGroupLabel longer = fitGroupLabel(
            QStringLiteral("rank 12 \u00b7 node7: GPU 3 (NVIDIA H100 80GB HBM3)"), bold, 204);
        QCOMPARE(longer.head, QStringLiteral("rank 12 \u00b7 node7: GPU 3"));
        QVERIFY2(longer.tail.startsWith(QStringLiteral(" (")) &&
                     longer.tail.endsWith(QStringLiteral(")")) &&
                     longer.tail.contains(QStringLiteral("\u2026")),
                 qPrintable(longer.tail));
        QVERIFY(longer.width() <= 204);
        // What fits in bold stays as it was; a long process name is cut at its end.
        const FittedGroupLabel py = fitGroupLabel(QStringLiteral("python3 4242"), bold, 204);
        QCOMPARE(py.text(), QStringLiteral("python3 4242"));
        QVERIFY(py.tail.isEmpty() && py.headFont.bold());
        const FittedGroupLabel longName = fitGroupLabel(QString(80, QLatin1Char('x')), bold, 204);
        QVERIFY(longName.text().endsWith(QStringLiteral("\u2026")));
        QVERIFY(longName.width() <= 204);
    }

    void gapCausesCaptionsNeverOverprint() {
        MainWindow w(testOptions());
        w.resize(1600, 1000);
        QVERIFY(w.openSync(OpenRequest::trace(kSample)));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* gaps = w.panel<GapsPanel>();
        w.docks()->showDock(gaps);
        gaps->waitForJobs();
        QApplication::processEvents();
        checkCaptions(gaps, true);
        if (QTest::currentTestFailed()) return;
        // Narrow: captions wrap (or their words shorten), still apart.
        QDockWidget* dock = DockPolicy::dockOf(gaps);
        dock->setFloating(true);
        dock->resize(520, 600);
        QApplication::processEvents();
        checkCaptions(gaps, false);
    }

    void theMemoryPeakLabelLeavesTheLegendClear() {
        // Every place of the peak's line across a 1000 px row: the label never meets the legend
        // and stays inside the row; right of the line when there is room past the legend.
        const QFontMetrics fm{QFont()};
        const QString legend = QStringLiteral("allocated \u00b7 reserved (max 2.0 GiB)");
        const QString peak = QStringLiteral("peak 1.0 GiB");
        const int top = 100, width = 1000, tw = fm.horizontalAdvance(peak);
        for (int x = 0; x <= width; ++x) {
            const MemoryLabelRects r = memoryLabelRects(fm, legend, peak, x, top, width);
            QCOMPARE(r.legend, QRect(4, top + 1, fm.horizontalAdvance(legend), 14));
            QVERIFY2(!r.peak.intersects(r.legend), qPrintable(QString::number(x)));
            QVERIFY2(r.peak.left() >= 0 && r.peak.right() < width, qPrintable(QString::number(x)));
            QCOMPARE(r.peak.width(), tw);
            if (x > r.legend.right() + 6 && x + 6 + tw <= width)
                QCOMPARE(r.peak, QRect(x + 6, top + 1, tw, 14));
        }
        // The peak at the row's left edge, under the legend: its label on the second line.
        QCOMPARE(memoryLabelRects(fm, legend, peak, 0, top, width).peak,
                 QRect(6, top + 17, tw, 14));

        // Drawn: the peak at the trace's start; no red of the label in the legend's line.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("memory.json"));
        QVERIFY(strata::test::writeAll(path.toStdString(), memoryAtTheStart()));
        MainWindow w(testOptions());
        w.resize(1600, 1000);
        QVERIFY(w.openSync(OpenRequest::trace(path)));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        TimelineView* t = w.timeline();
        QVERIFY(t->memoryUsage());
        int memoryTop = -1;
        for (const TrackRow& r : t->layout().rows())
            if (r.kind == TrackRow::Kind::Memory) memoryTop = r.y - t->verticalScroll();
        QVERIFY(memoryTop >= 0);
        QImage img(t->tracksArea()->size(), QImage::Format_ARGB32_Premultiplied);
        t->tracksArea()->render(&img);
        int redInLegendLine = 0, redBelow = 0;
        for (int x = 8; x < 150; ++x) {
            for (int y = memoryTop + 1; y < memoryTop + 15; ++y)
                redInLegendLine += peakRed(img.pixel(x, y));
            for (int y = memoryTop + 17; y < memoryTop + 31; ++y)
                redBelow += peakRed(img.pixel(x, y));
        }
        QCOMPARE(redInLegendLine, 0);
        QVERIFY(redBelow > 0); // the label, on the second line
    }
};

STRATA_TEST_MAIN(TestWindowLooseEnds)
#include "tst_window_loose_ends.moc"

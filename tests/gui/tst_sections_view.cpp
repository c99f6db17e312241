// The Sections dock and the timeline's section lanes, on a recording written here with three
// blocks whose numbers are worked out by hand below (1 GHz: one cycle is one ns).
//   block 0, SM 0: a [0, 100), b [100, 300)
//   block 1, SM 0: a [0, 50),  b [50, 100)    (resident beside block 0: SM 0's second slot)
//   block 2, SM 1: a [0, 400)
// a: samples 100, 50, 400 (total 550); b: 200, 50 (total 250); all sections 800.
#include "analysis/sections/section_lanes.h"
#include "analysis/trace_info.h"
#include "charts/chart_export.h"
#include "io/strata/strata_trace_writer.h"
#include "model/build/trace_builder.h"
#include "modes/screenshot.h"
#include "sections/section_charts.h"
#include "sections/section_stats_model.h"
#include "sections/sections_panel.h"
#include "sections/slowest_blocks_model.h"
#include "support/test_files.h"
#include "support/test_main.h"
#include "timeline/layout/track_layout.h"
#include "timeline/paint/section_lanes.h"
#include "timeline/timeline_view.h"
#include "window/main_window.h"
#include "window/message_banner.h"
#include "window/window_pages.h"
#include "window/window_status.h"
#include "workspace/workspace.h"

#include <qcustomplot.h>

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QFile>
#include <QPainter>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>

using namespace strata;

namespace {

std::string record(uint64_t t0, uint64_t t1, uint32_t block, uint16_t section, uint16_t sm) {
    std::string r(48, '\0');
    const uint64_t c0 = t0 + 7000, c1 = t1 + 7000; // the SM clock's own origin
    std::memcpy(&r[0], &c0, 8);
    std::memcpy(&r[8], &c1, 8);
    std::memcpy(&r[16], &t0, 8);
    std::memcpy(&r[24], &t1, 8);
    std::memcpy(&r[32], &block, 4);
    std::memcpy(&r[40], &section, 2);
    std::memcpy(&r[42], &sm, 2);
    return r;
}

QString cell(QAbstractItemModel* m, int row, int col, int role = Qt::DisplayRole) {
    return m->data(m->index(row, col), role).toString();
}

} // namespace

class TestSectionsView : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString path_;

private slots:
    void initTestCase() {
        path_ = dir_.filePath("three_blocks.strata");
        const std::string recs = record(0, 100, 0, 0, 0) + record(100, 300, 0, 1, 0) +
                                 record(0, 50, 1, 0, 0) + record(50, 100, 1, 1, 0) +
                                 record(0, 400, 2, 0, 1);
        StrataTraceWriter w;
        std::string error;
        QVERIFY(w.open(path_.toStdString(), &error));
        GpuActivity g;
        g.device = 0;
        g.stream = 7;
        w.cpuSlice(1, 1, 1000, 2000, w.string("cudaLaunchKernel"), SliceKind::CudaRuntime, 9, 0);
        w.gpuOp(5000, 5500, w.string("_Z4tinyv"), SliceKind::Kernel, g, 9);
        StrataTraceWriter::SectionsLaunch l;
        l.correlation = 9;
        l.kernel = "tiny";
        l.names = {"a", "b"};
        l.device = 0;
        l.clockHz = 1e9;
        l.attempted = 5;
        l.records = reinterpret_cast<const uint8_t*>(recs.data());
        l.count = 5;
        w.sections(l);
        QVERIFY(w.close());
    }

    void tablesCellByCell() {
        MainWindow::Options o;
        o.restoreSettings = false;
        MainWindow w(o);
        QString error;
        QVERIFY2(w.openSync(OpenRequest::trace(path_), &error), qPrintable(error));
        SectionsPanel* p = w.panel<SectionsPanel>();
        QAbstractItemModelTester statsTester(
            p->statsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester slowTester(p->slowestModel(),
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(p->choiceCount(), 1);
        QCOMPARE(p->choiceLabel(0), QString("tiny — launch 9 (3 blocks)"));
        p->waitForJobs();
        QAbstractItemModel* m = p->statsModel();
        QCOMPARE(m->rowCount(), 2);
        QCOMPARE(cell(m, 0, SectionStatsModel::Name), QString("a"));
        QCOMPARE(cell(m, 0, SectionStatsModel::Samples), QString("3"));
        QCOMPARE(cell(m, 0, SectionStatsModel::Blocks), QString("3"));
        // Over blocks: 100, 50, 400: mean 183.33 (4 significant digits), median 100, p95 (rank
        // 3) 400.
        QCOMPARE(cell(m, 0, SectionStatsModel::Mean), QString("183.3 ns"));
        QCOMPARE(m->data(m->index(0, SectionStatsModel::Mean), Qt::UserRole).toDouble(), 550.0 / 3);
        QCOMPARE(cell(m, 0, SectionStatsModel::Median), QString("100 ns"));
        QCOMPARE(cell(m, 0, SectionStatsModel::P95), QString("400 ns"));
        QCOMPARE(cell(m, 0, SectionStatsModel::Max), QString("400 ns"));
        QCOMPARE(cell(m, 0, SectionStatsModel::Share), QString("68.8 %")); // 550 / 800
        QCOMPARE(cell(m, 0, SectionStatsModel::Max, Qt::ToolTipRole),
                 QString("400 ns = 400 cycles at 1 GHz"));
        // b over blocks 0 and 1: 200, 50: mean 125, median 125, p95 (rank 2) 200; share 250/800.
        QCOMPARE(cell(m, 1, SectionStatsModel::Blocks), QString("2"));
        QCOMPARE(cell(m, 1, SectionStatsModel::Median), QString("125 ns"));
        QCOMPARE(cell(m, 1, SectionStatsModel::P95), QString("200 ns"));
        QCOMPARE(cell(m, 1, SectionStatsModel::Share), QString("31.3 %")); // 31.25 rounded up
        // Slowest blocks: 2 (400), 0 (300), 1 (100).
        QAbstractItemModel* s = p->slowestModel();
        QCOMPARE(s->rowCount(), 3);
        QCOMPARE(s->columnCount(), 5);
        QCOMPARE(s->headerData(3, Qt::Horizontal).toString(), QString("a"));
        QCOMPARE(cell(s, 0, 0), QString("2"));
        QCOMPARE(cell(s, 0, 1), QString("1"));
        QCOMPARE(cell(s, 0, 2), QString("400 ns"));
        QCOMPARE(cell(s, 1, 0), QString("0"));
        QCOMPARE(cell(s, 1, 4), QString("200 ns"));
        QCOMPARE(cell(s, 2, 2), QString("100 ns"));
        // The CSV export of the table: numbers, not text.
        const QString csv = dir_.filePath("stats.csv");
        QVERIFY(saveTableCsv(m, csv, &error));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        QCOMPARE(lines[0], QByteArray("Section,Samples,Blocks,Mean / block,Median,P95,Max,Share"));
        QCOMPARE(lines[2], QByteArray("b,2,2,125,125,200,200,0.3125"));
        // Every chart exports as PNG, SVG and PDF.
        for (auto tab : {SectionsPanel::BoxTab, SectionsPanel::IterationsTab,
                         SectionsPanel::HeatmapTab, SectionsPanel::SmTimelineTab})
            for (const char* ext : {"png", "svg", "pdf"}) {
                const QString out = dir_.filePath(QString("chart%1.%2").arg(int(tab)).arg(ext));
                QVERIFY2(saveChart(p->chart(tab), out, &error), qPrintable(error));
                QVERIFY(QFileInfo(out).size() > 100);
            }
    }

    void smTimelineRaster() {
        MainWindow::Options o;
        o.restoreSettings = false;
        MainWindow w(o);
        QString error;
        QVERIFY(w.openSync(OpenRequest::trace(path_), &error));
        w.panel<SectionsPanel>()->waitForJobs();
        const SectionViewData* v = w.panel<SectionsPanel>()->view();
        QVERIFY(v);
        // SM 0 needs two slots (blocks 0 and 1 overlap), SM 1 one.
        QCOMPARE(v->lanes.rows.size(), size_t(3));
        QCOMPARE(v->lanes.rowOfBlock, (std::vector<uint32_t>{0, 1, 2}));
        // 8 bins of 50 ns over [0, 400): section + 1 per cell (later samples drawn over).
        const std::vector<uint16_t> c = rasterSmTimeline(*v, 8);
        QCOMPARE(std::vector<uint16_t>(c.begin(), c.begin() + 8),
                 (std::vector<uint16_t>{1, 1, 2, 2, 2, 2, 2, 0}));
        QCOMPARE(std::vector<uint16_t>(c.begin() + 8, c.begin() + 16),
                 (std::vector<uint16_t>{1, 2, 2, 0, 0, 0, 0, 0}));
        QCOMPARE(std::vector<uint16_t>(c.begin() + 16, c.end()), std::vector<uint16_t>(8, 1));
        // What the pointer shows: times with raw cycles (1 GHz: equal), the sample under it.
        QCOMPARE(sectionChartTip(SectionChart::SmTimeline, *v, 0.15, 0.0),
                 QString("block 0 on SM 0 (slot 0)\nb, iteration 0: 200 ns (200 cycles)"));
        QCOMPARE(sectionChartTip(SectionChart::SmTimeline, *v, 0.35, 2.0),
                 QString("block 2 on SM 1 (slot 0)\na, iteration 0: 400 ns (400 cycles)"));
        QCOMPARE(sectionChartTip(SectionChart::SmTimeline, *v, 0.35, 1.0), QString());
        QCOMPARE(sectionChartTip(SectionChart::Heatmap, *v, 1.0, 1.0),
                 QString("block 1 (SM 0), b: 50 ns (50 cycles)"));
        QCOMPARE(sectionChartTip(SectionChart::Box, *v, 0.1, 250.0),
                 QString("a: 250 ns (250 cycles) per block"));
        // The iterations chart's data: one iteration, a 550, b 250.
        QCOMPARE(v->iterations.size(), size_t(1));
        QCOMPARE(v->iterations[0], (std::vector<double>{550, 250}));
    }

    void timelineMarkerAndLanes() {
        MainWindow::Options o;
        o.restoreSettings = false;
        MainWindow w(o);
        QString error;
        QVERIFY(w.openSync(OpenRequest::trace(path_), &error));
        const TrackLayout& layout = w.timeline()->layout();
        int sectionsRow = -1;
        for (size_t i = 0; i < layout.rows().size(); ++i)
            if (layout.rows()[i].kind == TrackRow::Kind::Sections) sectionsRow = int(i);
        QVERIFY(sectionsRow >= 0);
        const TrackRow& r = layout.rows()[size_t(sectionsRow)];
        QCOMPARE(r.device, 0);
        QCOMPARE(r.smLanes, 2);
        QCOMPARE(r.label, QString("In-kernel sections (1 launch)"));
        QCOMPARE(r.height, TrackLayout::kSectionsHeader + TrackLayout::kRowPad);
        w.timeline()->setRowExpanded(sectionsRow, true);
        QCOMPARE(layout.rows()[size_t(sectionsRow)].height, TrackLayout::kSectionsHeader +
                                                                2 * TrackLayout::kSmLaneHeight +
                                                                TrackLayout::kRowPad);
        // The kernel's slice carries the marker: its launch is in the lanes cache, shifted so
        // the first section starts with the kernel (device ns 0 -> trace 5000).
        w.timeline()->buildLevelOfDetail();
        QImage img(1200, 800, QImage::Format_ARGB32);
        QPainter painter(&img);
        w.timeline()->paintTracksArea(painter); // paints the expanded lanes without failing
        painter.end();
        // Selecting the kernel shows its launch in the Sections dock.
        SliceRef kernel;
        for (SliceRef s : w.trace()->byCorrelation(9))
            if (w.trace()->kind(s) == SliceKind::Kernel) kernel = s;
        QVERIFY(kernel.valid());
        QCOMPARE(w.trace()->start(kernel), TimeNs(5000));
        QCOMPARE(sectionTimeShift(*w.trace(), w.trace()->sections()[0]), TimeNs(5000));
        w.timeline()->selectSlice(kernel);
        QCOMPARE(w.panel<SectionsPanel>()->choiceLabel(0), QString("tiny — launch 9 (3 blocks)"));
    }

    void manySectionsDrawInTime_data() {
        QTest::addColumn<int>("sections");
        QTest::addColumn<int>("iterations");
        QTest::newRow("8000 x 1") << 8000 << 1;
        QTest::newRow("10000 x 3") << 10000 << 3;
        QTest::newRow("65535 x 1") << 65535 << 1;
    }
    void manySectionsDrawInTime() {
        // times[s][i] = s + 1 + i: the 12 largest sections are the last 12, the others fold into
        // "other". Every tab draws and the dock's screenshot is written well within the test's
        // time (these took a legend entry, a bar series and a box per section and never ended).
        QFETCH(int, sections);
        QFETCH(int, iterations);
        std::string data;
        for (int sct = 0; sct < sections; ++sct)
            for (int i = 0; i < iterations; ++i) {
                const int64_t v = sct + 1 + i;
                data.append(reinterpret_cast<const char*>(&v), 8);
            }
        const std::string npy = test::npy(
            "<i8", false, "(" + std::to_string(sections) + ", " + std::to_string(iterations) + ")",
            data);
        const QString file = dir_.filePath(QString("many%1x%2.npy").arg(sections).arg(iterations));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(npy));
        f.close();
        QElapsedTimer clock;
        clock.start();
        MainWindow::Options o;
        o.restoreSettings = false;
        MainWindow w(o);
        w.resize(1400, 900);
        QString error;
        QVERIFY2(w.openSync(OpenRequest::trace(file), &error), qPrintable(error));
        SectionsPanel* p = w.panel<SectionsPanel>();
        p->waitForJobs();
        const SectionViewData* v = p->view();
        QVERIFY(v);
        QCOMPARE(v->stats.sections.size(), size_t(sections));
        QCOMPARE(v->names.size(), size_t(13));
        QCOMPARE(v->names.back(), "other (" + std::to_string(sections - 12) + " sections)");
        QCOMPARE(v->names.front(), "section " + std::to_string(sections - 12));
        QCOMPARE(v->iterations.size(), size_t(iterations));
        for (auto tab :
             {SectionsPanel::TableTab, SectionsPanel::BoxTab, SectionsPanel::IterationsTab,
              SectionsPanel::HeatmapTab, SectionsPanel::SmTimelineTab}) {
            p->showTab(tab);
            QVERIFY(!p->grab().isNull());
        }
        QCOMPARE(p->chart(SectionsPanel::IterationsTab)->legend->itemCount(), 13);
        QCOMPARE(p->slowestModel()->columnCount(), 3 + 13);
        // strata --screenshot of the dock (what never exited).
        ScreenshotOptions so;
        so.trace = file;
        so.output = dir_.filePath("many.png");
        so.size = QSize(1200, 800);
        so.sectionsTab = "iterations";
        QCOMPARE(runScreenshot(so), 0);
        QVERIFY(QImage(so.output).width() > 0);
        qInfo("%d sections x %d: opened, drawn and shot in %lld ms", sections, iterations,
              static_cast<long long>(clock.elapsed()));
        QVERIFY2(clock.elapsed() < 60000, qPrintable(QString::number(clock.elapsed())));
    }

    void sectionId65535() {
        // One launch whose one section id is 65,535 on SM 65,535: one column, one SM lane, one
        // slot; every tab and the expanded timeline lanes draw.
        const QString file = dir_.filePath("id65535.strata");
        {
            const std::string recs = record(0, 300, 0, 65535, 65535);
            StrataTraceWriter w;
            std::string error;
            QVERIFY(w.open(file.toStdString(), &error));
            GpuActivity g;
            g.device = 0;
            g.stream = 7;
            w.gpuOp(5000, 5500, w.string("big"), SliceKind::Kernel, g, 3);
            StrataTraceWriter::SectionsLaunch l;
            l.correlation = 3;
            l.kernel = "big";
            l.device = 0;
            l.clockHz = 1e9;
            l.attempted = 1;
            l.records = reinterpret_cast<const uint8_t*>(recs.data());
            l.count = 1;
            w.sections(l);
            QVERIFY(w.close());
        }
        MainWindow::Options o;
        o.restoreSettings = false;
        MainWindow w(o);
        QString error;
        QVERIFY2(w.openSync(OpenRequest::trace(file), &error), qPrintable(error));
        SectionsPanel* p = w.panel<SectionsPanel>();
        p->waitForJobs();
        const SectionViewData* v = p->view();
        QVERIFY(v);
        QCOMPARE(v->names, (std::vector<std::string>{"section 65535"}));
        QCOMPARE(v->blocks.size(), size_t(1));
        QCOMPARE(v->blocks[0].bySection, (std::vector<double>{300}));
        QCOMPARE(v->lanes.rows.size(), size_t(1));
        for (auto tab : {SectionsPanel::BoxTab, SectionsPanel::IterationsTab,
                         SectionsPanel::HeatmapTab, SectionsPanel::SmTimelineTab}) {
            p->showTab(tab);
            QVERIFY(!p->grab().isNull());
        }
        const auto& rows = w.timeline()->layout().rows();
        for (size_t i = 0; i < rows.size(); ++i)
            if (rows[i].kind == TrackRow::Kind::Sections) {
                QCOMPARE(rows[i].smLanes, 1);
                w.timeline()->setRowExpanded(int(i), true);
            }
        w.timeline()->buildLevelOfDetail();
        QImage img(1200, 800, QImage::Format_ARGB32);
        QPainter painter(&img);
        w.timeline()->paintTracksArea(painter);
    }

    void laneMemoryFollowsTheRecords() {
        // 100,000 launches of one record each on 132 SMs: the lanes' rasters took 64 buckets x
        // every SM of the device per launch (100,000 x 132 x 64 x 2 bytes = 1.7 GB). Now each
        // holds at most one cell per sample. And 1,000 launches on SMs spread over 0..64,935.
        for (const auto& [launches, smStep] : {std::pair{100000, 1}, std::pair{1000, 65}}) {
            TraceBuilder b;
            GpuActivity g;
            g.device = 0;
            g.stream = 7;
            const TrackId stream = b.gpuStreamTrack(0, 7, 0, 7);
            const StringId k = b.intern("k");
            for (int i = 0; i < launches; ++i) {
                SliceInput s;
                s.start = 1000 * int64_t(i);
                s.dur = 500;
                s.name = k;
                s.kind = SliceKind::Kernel;
                s.correlation = i;
                s.gpu = &g;
                b.addSlice(stream, s);
                const std::string r =
                    record(uint64_t(i) * 1000, uint64_t(i) * 1000 + 400, 0, uint16_t(i % 3),
                           uint16_t((i * smStep) % (smStep == 1 ? 132 : 65536)));
                appendSectionRecords(b.sectionSet(i, "k", 0),
                                     reinterpret_cast<const uint8_t*>(r.data()), 1, nullptr);
            }
            const auto t = b.build();
            SectionLanesCache cache;
            QElapsedTimer clock;
            clock.start();
            cache.reset(t.get());
            qInfo("%d launches: lanes cache in %lld ms", launches,
                  static_cast<long long>(clock.elapsed()));
            QCOMPARE(cache.launches().size(), size_t(launches));
            QCOMPARE(cache.smsOf(0).size(), size_t(smStep == 1 ? 132 : 1000));
            size_t cells = 0;
            for (const auto& l : cache.launches()) cells += l.summary_.size();
            QVERIFY2(cells <= size_t(launches), qPrintable(QString::number(cells)));
        }
    }

    void importErrorsNameTheFile() {
        MainWindow::Options o;
        o.restoreSettings = false;
        MainWindow w(o);
        const QString bad = dir_.filePath("ragged.csv");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("a,b\n1,2\n3\n");
        f.close();
        QString error;
        QVERIFY(!w.openSync(OpenRequest::trace(bad), &error));
        QVERIFY2(error.contains("ragged.csv: line 3 has 1 values"), qPrintable(error));
        QCOMPARE(w.panel<SectionsPanel>()->choiceCount(), 0);
        // A good one beside no trace: its choice shows.
        const QString good = dir_.filePath("ok.csv");
        QFile g(good);
        QVERIFY(g.open(QIODevice::WriteOnly));
        g.write("load,store\n10,20\n30,40\n");
        g.close();
        QVERIFY(w.openSync(OpenRequest::trace(good), &error));
        QCOMPARE(w.panel<SectionsPanel>()->choiceCount(), 1);
        QCOMPARE(w.panel<SectionsPanel>()->choiceLabel(0), QString("ok.csv (imported)"));
        w.panel<SectionsPanel>()->waitForJobs();
        // An array's figures are over its iterations: load 10 and 30, mean 20 (it used to be
        // the one block's total, 40, for mean, median, p95 and max alike).
        QCOMPARE(cell(w.panel<SectionsPanel>()->statsModel(), 0, SectionStatsModel::Mean),
                 QString("20 cycles"));
    }

    void importBelongsToTheTrace() {
        // A timer array opened beside a recording becomes part of it: the recording's launch
        // (3 blocks) and the array are both in the trace, the slices unchanged, Trace Info still
        // says what the file was; the array is a choice of the Sections dock, after the launch.
        MainWindow::Options o;
        o.restoreSettings = false;
        MainWindow w(o);
        QVERIFY(w.openSync(OpenRequest::trace(path_)));
        const size_t slices = w.trace()->sliceCount();
        const QString good = dir_.filePath("loads.csv");
        QFile g(good);
        QVERIFY(g.open(QIODevice::WriteOnly));
        g.write("load,store\n10,20\n30,40\n");
        g.close();
        QString error;
        QVERIFY2(w.openSync(OpenRequest::trace(good), &error), qPrintable(error));
        QCOMPARE(w.trace()->sliceCount(), slices);
        QCOMPARE(w.trace()->sections().size(), size_t(2));
        QCOMPARE(w.currentFile(), path_);
        QCOMPARE(w.workspace()->currentTrace()->format, QString("strata"));
        QCOMPARE(w.panel<SectionsPanel>()->choiceCount(), 2);
        QCOMPARE(w.panel<SectionsPanel>()->choiceLabel(0), QString("tiny — launch 9 (3 blocks)"));
        QCOMPARE(w.panel<SectionsPanel>()->choiceLabel(1), QString("loads.csv (imported)"));
        // Trace Info lists both.
        const TraceInfo info = traceInfo(*w.trace(), path_.toStdString(), "strata");
        QCOMPARE(info.sectionLaunches, size_t(1));
        QCOMPARE(info.sectionKernels, size_t(1));
        QCOMPARE(info.importedSections, std::vector<std::string>{good.toStdString()});
    }
};

STRATA_TEST_MAIN(TestSectionsView)
#include "tst_sections_view.moc"
